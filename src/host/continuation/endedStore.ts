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
});

const EndedFile = z.object({ rawp_ended: z.literal(1), records: z.array(StoredRecord).max(MAX_RECORDS) });

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
  let reason: string;
  try {
    const parsed = EndedFile.safeParse(JSON.parse(text));
    if (parsed.success) return parsed.data.records.map((r) => ({ ...r, link: { ...r.link } }));
    reason = parsed.error.issues[0]?.message ?? 'not a list of ended sessions';
  } catch (e) {
    reason = `not JSON (${(e as Error).message})`;
  }
  // Kept for a human to look at; nothing else depends on it.
  try {
    renameSync(file, `${file}.corrupt`);
  } catch {
    // left where it is: the next save replaces it
  }
  logger.warn('the ended sessions file is unreadable and was set aside', { file, reason });
  return [];
}
