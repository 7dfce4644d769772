// A deferred match's quick score taken from its sibling's (issue 18, decision 520). When a basename
// lacks the query's last character (its mask bit is clear), the quick score places every query
// character in the directory part: it starts its right-to-left search at the basename's start
// (quickScoreRaw's `from`), and a deferred match gets no name boost. Two paths with the same
// directory part — the same bytes and the same case, which `sharedPrefix` proves without reading
// them — then have the same raw score. Files of one directory sit side by side in the snapshot,
// so the scan keeps the last such result and gives it to the next sibling without touching that
// path's bytes (the first touch of a path's bytes is most of what scoring it costs).
import { BELOW_FLOOR, NO_MATCH, quickScoreRaw } from './quickScoreBytes';

// A module-level copy: under a CommonJS transform an imported function is a getter on the module.
const scoreRaw = quickScoreRaw;

/** `SiblingScore.lookup` when no sibling's result decides the path: score it. */
export const UNKNOWN = NO_MATCH;

/** How far back (in snapshot order) a sibling may lie: the shared-prefix chain between them is read. */
const SIBLING_GAP = 32;

export class SiblingScore {
  /** The snapshot index of the last path scored this way, -1 for none. */
  private at = -1;
  /** Its basename's start (relative), which the sibling's must equal. */
  private nameAt = 0;
  /** Its raw quick score, or BELOW_FLOOR when the early exit stopped below `need`. */
  private raw = 0;
  private need = 0;

  /**
   * The raw score of path i (basename start `nameAt`, early exit at `need`) if the last stored
   * sibling decides it: its exact score, or BELOW_FLOOR when that one fell below a `need` no
   * higher than this one's (the same score is below this one's too). Else UNKNOWN.
   */
  lookup(sharedPrefix: Uint16Array, i: number, nameAt: number, need: number): number {
    const at = this.at;
    if (at < 0 || nameAt !== this.nameAt || i - at > SIBLING_GAP || i <= at) return UNKNOWN;
    for (let x = at + 1; x <= i; x++) if (sharedPrefix[x] < nameAt) return UNKNOWN;
    const raw = this.raw;
    if (raw !== BELOW_FLOOR) {
      this.at = i;
      return raw;
    }
    if (need < this.need) return UNKNOWN;
    this.at = i;
    return BELOW_FLOOR;
  }

  /** Keeps path i's result (its basename lacks the query's last character). */
  store(i: number, nameAt: number, raw: number, need: number): void {
    this.at = i;
    this.nameAt = nameAt;
    this.raw = raw;
    this.need = need;
  }
}

/**
 * A deferred match's raw quick score (it gets no name boost), stopping once it cannot beat `need`:
 * taken from `siblings` when its basename (from `s0 + nameAt`) lacks the query's last character
 * (`lacksLast`), else read from its bytes. The two places that score deferred matches (the
 * narrowed scan and the deferred phase) both call this.
 *
 * `firstCut`: what `rest` grants the query's first character that this path cannot earn (decision
 * 527: its doubled word-start bonus, when its character sits at no word start here). Every use of
 * `rest` in the early exit is weighed against `need`, so the cut is the exit's `need` raised by it;
 * the early exit still means the score is at most `need` itself, which is what a sibling is told.
 */
export function deferredRaw(siblings: SiblingScore, chars: Uint8Array, upper: Uint8Array, sharedPrefix: Uint16Array, i: number, s0: number, e0: number, nameAt: number, q: Uint8Array, m: number, rest: Int32Array, need: number, lacksLast: boolean, firstCut: number): number {
  const exitAt = need === NO_MATCH ? NO_MATCH : need + firstCut;
  if (!lacksLast || nameAt >= 0xffff) return scoreRaw(chars, upper, s0, e0, s0 + nameAt, q, m, rest, exitAt, e0);
  let raw = siblings.lookup(sharedPrefix, i, nameAt, need);
  if (raw === UNKNOWN) {
    raw = scoreRaw(chars, upper, s0, e0, s0 + nameAt, q, m, rest, exitAt, s0 + nameAt);
    siblings.store(i, nameAt, raw, need);
  }
  return raw;
}
