// The transcript's timeline flattened into rows for the virtualizer: a turn becomes a separator
// row, one row per top-level block and, once it ended, an end row. A long turn therefore does not
// become one huge row, and a row's height is bounded by one block (plus its subagent run).
import { shownAsBlock, type Block, type Transcript, type Turn } from '../../../src/protocol/transcript';

export type Row =
  | { kind: 'turn-start'; key: string; turn: Turn; index: number }
  | { kind: 'turn-end'; key: string; turn: Turn }
  | { kind: 'block'; key: string; block: Block };

// The keys of a turn's separator and end rows, made once per turn: every build then holds the same
// string objects, so comparing two builds' keys (sameKeys) is a pointer check per row.
const turnKeys = new WeakMap<Turn, { key: string; start: string; end: string }>();

function keysOf(turn: Turn): { start: string; end: string } {
  let keys = turnKeys.get(turn);
  if (keys === undefined || keys.key !== turn.key) {
    keys = { key: turn.key, start: `${turn.key}:start`, end: `${turn.key}:end` };
    turnKeys.set(turn, keys);
  }
  return keys;
}

/** Do two builds hold the same rows, by key and order? (Only then may the virtualizer keep its measurements.) */
export function sameKeys(a: readonly Row[], b: readonly Row[]): boolean {
  if (a === b) return true; // the same build: every render while scrolling, with nothing appended
  if (a.length !== b.length) return false;
  for (let i = a.length - 1; i >= 0; i--) if (a[i].key !== b[i].key) return false;
  return true;
}

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
    const keys = keysOf(entry);
    rows.push({ kind: 'turn-start', key: keys.start, turn: entry, index: entry.index ?? turnNo - 1 });
    for (const b of entry.blocks) if (shownAsBlock(b)) rows.push({ kind: 'block', key: b.key, block: b });
    if (!entry.open) rows.push({ kind: 'turn-end', key: keys.end, turn: entry });
  }
  return rows;
}
