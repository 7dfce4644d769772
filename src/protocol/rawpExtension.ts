// Our own vendor extension between this client and the masters we ship (the chat view in the
// editor and the browser master; decision 101). A master announces it in its
// `session.capabilities` (§12.2.1 `extensions`), so a raw RAWP-DPS master that does not know it
// keeps the spec's behaviour exactly (§17.3.2 PROMPT_IN_PROGRESS, no vendor frames).
import { z } from 'zod';
import { ENVELOPE_VERSION } from './envelope';
import { newId, systemClock, type Clock } from './build';
import type { VendorFrame } from './frameTypes';

/** The key in `session.capabilities.extensions`. */
export const RAWP_EXTENSION_KEY = 'x-rawp';

/** What a master of ours asks for. */
export const RawpMasterExtension = z.looseObject({
  /** A prompt sent while a turn runs is held and sent after `session.turn.end` (slash-commands §8). */
  follow_up_queue: z.boolean().optional(),
  /** Replies meant for the sender only (queued, /help, command errors) come as `x-rawp.notice`. */
  notices: z.boolean().optional(),
  /**
   * The largest frame worth sending this master, in bytes of JSON (decision 516): a bigger one comes
   * with its long texts cut in the middle. Unlike `max_frame_size` it limits each frame, not a
   * `session.history` as a whole: each frame in a history is cut to it, none is left out.
   */
  frame_budget: z.number().int().positive().optional(),
});
export type RawpMasterExtension = z.infer<typeof RawpMasterExtension>;

/** The frame budget of the views we ship (the editor's chat and the browser master): they show at
 *  most the first 2,000 lines or the last 20,000 characters of a text, far less than 256 KB of each end. */
export const OUR_VIEW_FRAME_BUDGET = 512 * 1024;

/** What the masters we ship announce. */
export const OUR_MASTER_EXTENSIONS: Record<string, RawpMasterExtension> = { [RAWP_EXTENSION_KEY]: { follow_up_queue: true, notices: true, frame_budget: OUR_VIEW_FRAME_BUDGET } };

/** The extension a peer announced, or all-false for a peer that did not (or sent garbage). */
export function rawpExtensionOf(extensions: Record<string, unknown> | undefined): { follow_up_queue: boolean; notices: boolean; frame_budget?: number } {
  const parsed = RawpMasterExtension.safeParse(extensions?.[RAWP_EXTENSION_KEY]);
  return {
    follow_up_queue: parsed.success && parsed.data.follow_up_queue === true,
    notices: parsed.success && parsed.data.notices === true,
    ...(parsed.success && parsed.data.frame_budget !== undefined ? { frame_budget: parsed.data.frame_budget } : {}),
  };
}

/** `x-rawp.notice`: a message for one connection (never kept in history, never relayed). */
export const NOTICE_TYPE = 'x-rawp.notice';
/**
 * The phrase of a notice, for a master that says it in its own language: `id` names one of the
 * host's phrases, `args` fill its blanks. `message` stays the English sentence for anyone else.
 */
export const NoticeWords = z.looseObject({
  id: z.string().max(64),
  args: z.array(z.string().max(4096)).max(8).optional(),
});
export type NoticeWords = z.infer<typeof NoticeWords>;

export const NoticePayload = z.looseObject({
  level: z.enum(['info', 'warning', 'error']),
  message: z.string(),
  /** A refusal's code, as a raw master gets it in §2.2 session.error (e.g. ATTACHMENT_NOT_SUPPORTED). */
  error_code: z.string().optional(),
  words: NoticeWords.optional(),
});
export type NoticePayload = z.infer<typeof NoticePayload>;

export function buildNotice(session_id: string, payload: NoticePayload, parent_id?: string, clock: Clock = systemClock): VendorFrame {
  return {
    v: ENVELOPE_VERSION,
    type: NOTICE_TYPE,
    message_id: newId(),
    timestamp: clock.now().toISOString(),
    session_id,
    ...(parent_id ? { parent_id } : {}),
    payload,
  } as VendorFrame;
}

/** The notice in a frame, if it is a well-formed `x-rawp.notice`. */
export function noticeOf(frame: { type: string; payload?: unknown }): NoticePayload | undefined {
  if (frame.type !== NOTICE_TYPE) return undefined;
  const parsed = NoticePayload.safeParse(frame.payload);
  return parsed.success ? parsed.data : undefined;
}
