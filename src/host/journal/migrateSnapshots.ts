// The editor kept each session as one JSON snapshot (`sessions/<id>.json`, before the journal). A
// window that opens after the update finds them there: each becomes a journal once (frames checked
// with the frame schemas), then the snapshot is renamed `.migrated`. A snapshot that cannot be
// read stays where it is and is reported; nothing is deleted.
import { readdirSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { parseValue } from '../../protocol/parse';
import type { WireFrame } from '../../session/connection';
import type { Logger } from '../../session/ports';
import type { Journal } from './journal';

const Snapshot = z.looseObject({
  version: z.literal(1),
  session_id: z.string().min(1),
  name: z.string(),
  agent: z.string().min(1),
  created_at: z.string(),
  frames: z.array(z.unknown()),
});

/** Returns how many snapshots became journals. */
export function migrateSnapshots(fromDir: string, journal: Journal, logger: Logger): number {
  let names: string[];
  try {
    names = readdirSync(fromDir).filter((n) => n.endsWith('.json'));
  } catch {
    return 0; // no old folder: nothing to do
  }
  let migrated = 0;
  for (const name of names) {
    const file = join(fromDir, name);
    try {
      const s = Snapshot.parse(JSON.parse(readFileSync(file, 'utf8')));
      const frames: WireFrame[] = [];
      for (const value of s.frames) {
        const p = parseValue(value);
        if (p.kind === 'accepted' && p.frame.session_id === s.session_id) frames.push(p.frame);
      }
      const created_at = Number.isNaN(Date.parse(s.created_at)) ? new Date().toISOString() : new Date(s.created_at).toISOString();
      journal.importSession({ session_id: s.session_id, name: s.name, agent: s.agent, created_at, origin: 'local', shared: false }, frames);
      renameSync(file, `${file}.migrated`);
      migrated++;
    } catch (e) {
      logger.warn(`the saved session ${file} could not be carried over to the journal (${e instanceof Error ? e.message : String(e)}); it is left as it is`);
    }
  }
  if (migrated > 0) logger.info(`${migrated} saved session(s) carried over to the journal`);
  return migrated;
}
