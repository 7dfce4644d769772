// The small index of a state directory's sessions (name, agent, origin, sharing): rewritten whole,
// atomically (temp file, fsync, rename via write-file-atomic), whenever a session is created,
// renamed, shared or deleted — rare events, so a full rewrite is cheap and can never be torn.
// The journals' headers hold the same facts, so an index that is lost or unreadable is rebuilt
// from them (docs/decisions/120).
import { readFileSync, renameSync } from 'node:fs';
import writeFileAtomic from 'write-file-atomic';
import { z } from 'zod';
import { SessionMeta } from './format';

const IndexFile = z.strictObject({ rawp_state: z.literal(1), sessions: z.array(SessionMeta) });

export type IndexRead = { kind: 'ok'; sessions: SessionMeta[] } | { kind: 'missing' } | { kind: 'corrupt'; reason: string; keptAs?: string };

export function readSessionIndex(file: string): IndexRead {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    return { kind: 'corrupt', reason: String(e) };
  }
  let reason: string;
  try {
    const parsed = IndexFile.safeParse(JSON.parse(text));
    if (parsed.success) return { kind: 'ok', sessions: parsed.data.sessions };
    reason = parsed.error.issues[0]?.message ?? 'not a session index';
  } catch (e) {
    reason = `not JSON (${(e as Error).message})`;
  }
  // Kept for a human to look at; the index is rebuilt from the journals.
  const keptAs = `${file}.corrupt`;
  try {
    renameSync(file, keptAs);
    return { kind: 'corrupt', reason, keptAs };
  } catch {
    return { kind: 'corrupt', reason };
  }
}

export function writeSessionIndex(file: string, sessions: readonly SessionMeta[]): void {
  writeFileAtomic.sync(file, `${JSON.stringify({ rawp_state: 1, sessions }, null, 1)}\n`, { mode: 0o600 });
}
