// Prompt admission: the one port every `control.prompt.request` passes before the engine sees it,
// whichever connection sent it (the editor's view, a browser master, `rawp attach`, a raw
// WebSocket master). The session layer only defines the port and applies its verdict (hub.ts);
// the host implements it with the slash-command pipeline and the follow-up queue (src/host,
// src/commands): routing and expansion (slash-commands §5–§7), templates, one rule for
// `input_type`, and queueing for masters that asked for it (decision 101).
import type { Frame, FrameOf, PayloadOf } from '../protocol/frameTypes';
import { buildNotice, type NoticePayload } from '../protocol/rawpExtension';
import type { Clock, Logger } from './ports';
import type { ConnectionKind, WireFrame } from './connection';

export interface AdmissionSender {
  connection_id: string;
  kind: ConnectionKind;
  /** The sender asked for follow-ups to be queued (`x-rawp.follow_up_queue`). */
  followUps: boolean;
}

export type AdmissionVerdict =
  /** Relay this (possibly expanded) prompt and start the turn now (§6.1.1). */
  | { kind: 'run'; payload: PayloadOf<'control.prompt.request'> }
  /** A host command that is a control frame of its own (§6.3.1 compact, §6.3.2 mode switch). */
  | { kind: 'control'; frame: Frame }
  /** Nothing goes to the engine now: consumed by a host command, or held by the follow-up queue. */
  | { kind: 'held'; notice?: NoticePayload }
  /** Refused: the sender gets a non-fatal `session.error` (or a notice, if it takes notices). */
  | { kind: 'refused'; error_code: string; message: string };

export interface PromptAdmission {
  admit(frame: FrameOf<'control.prompt.request'>, from: AdmissionSender): Promise<AdmissionVerdict>;
}

/** What the hub lets `admitPrompt` do with one connection's prompt. */
export interface VerdictSink {
  /** The session and the sender are still there (an admission may outlast either). */
  live(): boolean;
  /** A control frame from the sender, handled like any other (relay, engine, history). */
  handle(frame: Frame): void;
  /** A frame for the sender only. */
  only(frame: WireFrame): void;
  /**
   * A refusal to the sender: a non-fatal session.error, or `notice` instead for a master that takes
   * notices. Either way it counts towards the sender's refusal limit (refusals.ts, decision 544).
   */
  refuse(error_code: string, message: string, notice?: WireFrame): void;
  clock: Clock;
  logger: Logger;
}

/** Asks the port about one prompt and carries out its verdict. Never rejects. */
export async function admitPrompt(
  admission: PromptAdmission,
  frame: FrameOf<'control.prompt.request'>,
  from: { connection_id: string; kind: ConnectionKind },
  ext: { follow_up_queue: boolean; notices: boolean },
  sink: VerdictSink,
): Promise<void> {
  let verdict: AdmissionVerdict;
  try {
    verdict = await admission.admit(frame, { ...from, followUps: ext.follow_up_queue });
  } catch (e) {
    sink.logger.error('prompt admission failed', { error: String(e) });
    verdict = { kind: 'refused', error_code: 'INTERNAL_ERROR', message: `the prompt could not be admitted: ${String(e)}` };
  }
  if (!sink.live()) return;
  const notice = (n: NoticePayload) => sink.only(buildNotice(frame.session_id, n, frame.message_id, sink.clock));
  switch (verdict.kind) {
    case 'run':
      return sink.handle({ ...frame, payload: verdict.payload });
    case 'control':
      return sink.handle(verdict.frame);
    case 'held':
      if (verdict.notice && ext.notices) notice(verdict.notice);
      return;
    case 'refused':
      // Our masters show it as a notice; a raw master gets the spec's answer (§2.2 session.error).
      if (ext.notices) sink.refuse(verdict.error_code, verdict.message, buildNotice(frame.session_id, { level: 'error', message: verdict.message, error_code: verdict.error_code }, frame.message_id, sink.clock));
      else sink.refuse(verdict.error_code, verdict.message);
      return;
  }
}
