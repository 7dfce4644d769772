// The on-disk shape of a session journal (docs/decisions/120): JSON lines, one record per line,
// append-only. The first line is a header naming the session; every later line is either a frame
// the session's history recorded, at its history position (`seq`), or an alias (a handshake
// frame's id that §13.7 reattach must know, pointing at a position). The file never holds
// anything the history did not record, so restoring it gives back the same positions.
import { z } from 'zod';
import { Id, IsoTimestamp } from '../../protocol/common';
import { parseValue } from '../../protocol/parse';
import type { WireFrame } from '../../session/connection';
import { frameBytes } from '../../remote/frameBytes';
import type { HistoryRecord } from '../../session/history';

export const JOURNAL_FORMAT = 1;

/**
 * A "for this session" permission answer the session holds (the host's rules store, issue 11 item
 * 4), kept so a restarted session does not ask again what the user already allowed or rejected.
 */
export const SessionRuleRecord = z.strictObject({
  tool_name: z.string().min(1),
  path_glob: z.string().optional(),
  command_prefix: z.string().optional(),
  decision: z.enum(['allow', 'reject']),
  created_by: z.string(),
  created_at: IsoTimestamp,
});
export type SessionRuleRecord = z.infer<typeof SessionRuleRecord>;

/** What a session is, besides its frames: enough to start it again after a restart. */
export const SessionMeta = z.strictObject({
  session_id: Id,
  name: z.string(),
  agent: z.string().min(1),
  created_at: IsoTimestamp,
  /** `local`: an editor session (§2.4), visible to remote masters only while shared. */
  origin: z.enum(['local', 'remote']),
  shared: z.boolean(),
  /** The session's own permission rules, when the host's rules store reports them. */
  session_rules: z.array(SessionRuleRecord).max(1000).optional(),
  /** §18.3: the agent's own session id, named during a turn (decision 620): a restart resumes it. */
  agent_session_id: z.string().min(1).max(1024).optional(),
  /**
   * A person gave the current name (the create API, /rename, a master's rename), so an agent's own
   * titles never replace it after a restart either; false for the agent's name, a prompt's words or
   * the agent's title (decision 728). Absent in older journals: a name other than the agent's counts as a person's.
   */
  name_by_person: z.boolean().optional(),
});
export type SessionMeta = z.infer<typeof SessionMeta>;

export const JournalHeader = z.strictObject({
  rawp_journal: z.literal(JOURNAL_FORMAT),
  session: SessionMeta,
  /** Set when the budget made the journal drop its oldest records (their positions stay gaps). */
  compacted: z.strictObject({ at: IsoTimestamp, dropped_records: z.number().int().nonnegative() }).optional(),
});
export type JournalHeader = z.infer<typeof JournalHeader>;

const Seq = z.number().int().min(-1);
const FrameLine = z.strictObject({ seq: Seq.min(0), frame: z.unknown() });
const AliasLine = z.strictObject({ seq: Seq, alias: Id });

export function encodeHeader(header: JournalHeader): string {
  return `${JSON.stringify(header)}\n`;
}

const LINE_END = Buffer.from('}\n', 'utf8');

/**
 * A frame's journal line as the bytes to write one after the other: the same text as
 * JSON.stringify({ seq, frame }) + '\n', with the frame's JSON serialized once (decision 250) and
 * encoded once (frameBytes, shared with the sockets it fans out to next; decision 575).
 */
export function encodeFrame(frame: WireFrame, seq: number): Buffer[] {
  return [Buffer.from(`{"seq":${JSON.stringify(seq)},"frame":`, 'utf8'), frameBytes(frame), LINE_END];
}

export function encodeAlias(message_id: string, seq: number): string {
  return `${JSON.stringify({ seq, alias: message_id })}\n`;
}

export type DecodedLine = { ok: true; record: HistoryRecord<WireFrame> } | { ok: false; reason: string };

/** One record line (without its newline). Never throws: a bad line is a reason, not a crash. */
export function decodeRecord(line: string, session_id: string): DecodedLine {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (e) {
    return { ok: false, reason: `not JSON (${(e as Error).message})` };
  }
  const alias = AliasLine.safeParse(value);
  if (alias.success) return { ok: true, record: { seq: alias.data.seq, alias: alias.data.alias } };
  const line_ = FrameLine.safeParse(value);
  if (!line_.success) return { ok: false, reason: 'neither a frame nor an alias record' };
  // The frame is checked with the same schemas as any wire frame: the journal is input too.
  const parsed = parseValue(line_.data.frame);
  if (parsed.kind !== 'accepted') return { ok: false, reason: parsed.kind === 'error' ? parsed.error.message : parsed.reason };
  if (parsed.frame.session_id !== session_id) return { ok: false, reason: `frame of another session (${parsed.frame.session_id})` };
  return { ok: true, record: { seq: line_.data.seq, frame: parsed.frame } };
}

export function decodeHeader(line: string): JournalHeader | undefined {
  try {
    const h = JournalHeader.safeParse(JSON.parse(line));
    return h.success ? h.data : undefined;
  } catch {
    return undefined;
  }
}
