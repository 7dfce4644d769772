// The transcript's timeline flattened into rows for the virtualizer: a turn becomes a separator
// row, one row per top-level block and, once it ended, an end row. A long turn therefore does not
// become one huge row, and a row's height is bounded by one block (plus its subagent run).
import { shownAsBlock, type Block, type Transcript, type Turn } from '../../../src/protocol/transcript';

export type Row =
  | { kind: 'turn-start'; key: string; turn: Turn; index: number }
  | { kind: 'turn-end'; key: string; turn: Turn }
  | { kind: 'block'; key: string; block: Block };

export function buildRows(t: Transcript): Row[] {
  const rows: Row[] = [];
  let turnNo = 0;
  for (const entry of t.timeline) {
    if (entry.kind !== 'turn') {
      if (!shownAsBlock(entry)) continue;
      rows.push({ kind: 'block', key: entry.key, block: entry });
      continue;
    }
    turnNo++;
    rows.push({ kind: 'turn-start', key: `${entry.key}:start`, turn: entry, index: entry.index ?? turnNo - 1 });
    for (const b of entry.blocks) if (shownAsBlock(b)) rows.push({ kind: 'block', key: b.key, block: b });
    if (!entry.open) rows.push({ kind: 'turn-end', key: `${entry.key}:end`, turn: entry });
  }
  return rows;
}
