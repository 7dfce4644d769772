// The records of sessions an error ended, kept in the state folder (`ended.json`, decision 646), so
// a reload of the editor or a restart of `rawp serve` still lets the person continue them. Rewritten
// whole and atomically (temp file, fsync, rename), like the session index, when one is added or
// dismissed — rare events. Each record is small: its digest is bounded (earlierChat.ts). The file
// holds what was said in those chats, so it is the owner's alone (0600), as the journals are.
import { readFileSync, renameSync } from 'node:fs';
import writeFileAtomic from 'write-file-atomic';
import { z } from 'zod';
import { ContinuedFrom, EarlierMessage, EARLIER_MESSAGES_MAX } from '../../protocol/continuation';
import type { Logger } from '../../session/ports';
import type { EndedRecordsStore, StoredEndedRecord } from './continuations';

/** Records a file may hold (two pools of ENDED_KEPT, with room for a later, larger count). */
const MAX_RECORDS = 256;

const StoredRecord = z.object({
  link: ContinuedFrom.pick({ session_id: true, name: true, agent: true, reason: true, ended_at: true }),
  digest: z.object({ earlier: z.array(EarlierMessage).max(EARLIER_MESSAGES_MAX), left_out: z.number().int().nonnegative() }),
  agent_session_id: z.string().min(1).max(500).optional(),
  defaultName: z.boolean(),
  shared: z.boolean(),
  supersedes: z.array(z.string().min(1).max(200)).max(64).optional(),
  continuation: z.object({ session_id: z.string().min(1).max(200), continued_from: z.string().min(1).max(200), resumed: z.boolean(), created: z.boolean() }).optional(),
});

export function endedFileStore(file: string, logger: Logger): EndedRecordsStore {
  return {
    load: () => readEnded(file, logger),
    save: (records) => {
      try {
        writeFileAtomic.sync(file, `${JSON.stringify({ rawp_ended: 1, records: records.slice(-MAX_RECORDS) })}\n`, { mode: 0o600 });
      } catch (e) {
        // The records stay in memory: continuing works until the next reload.
        logger.warn('the ended sessions could not be kept for the next start', { file, error: String(e) });
      }
    },
  };
}

function readEnded(file: string, logger: Logger): StoredEndedRecord[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') logger.warn('the ended sessions could not be read', { file, error: String(e) });
    return [];
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    setAside(file, logger, `not JSON (${(e as Error).message})`);
    return [];
  }
  // Record by record: one bad record (a hand edit) costs that record, not every ended chat.
  const records = (parsed as { records?: unknown } | null)?.records;
  if ((parsed as { rawp_ended?: unknown } | null)?.rawp_ended !== 1 || !Array.isArray(records)) {
    setAside(file, logger, 'not a list of ended sessions');
    return [];
  }
  const good = records.slice(-MAX_RECORDS).flatMap((r) => {
    const one = StoredRecord.safeParse(r);
    return one.success ? [one.data] : [];
  });
  if (good.length < records.length) logger.warn('some ended sessions in the file are unreadable and were left out', { file, kept: good.length, left_out: records.length - good.length });
  return good;
}

/** Kept for a human to look at under a name of its own (a second bad file never replaces the first). */
function setAside(file: string, logger: Logger, reason: string): void {
  const keptAs = `${file}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  try {
    renameSync(file, keptAs);
    logger.warn('the ended sessions file is unreadable and was set aside', { file, keptAs, reason });
  } catch {
    logger.warn('the ended sessions file is unreadable; the next save replaces it', { file, reason });
  }
}
