// The bounded min-heap of (score, tie, ref) that keeps a keystroke's best candidates without an
// object per candidate (§16.1: only the leaders get the exact DP score).
//
// The order is total: a higher score is better, and among equal scores the lower `tie` (the
// candidate's place in the workspace: folder, then snapshot index, then overlay) is better. So the
// best `cap` are one set whatever order the candidates come in — which is what lets the scan be
// split between workers and their lists merged into exactly the list one scan would keep
// (decision 500).

/** Bounded min-heap keeping the best `cap` by (score descending, tie ascending). */
export class TopHeap {
  readonly scores: Float64Array;
  readonly ties: Int32Array;
  readonly refs: Int32Array;
  size = 0;
  /** Counts the entries kept (a changed list has a new version). */
  version = 0;
  constructor(readonly cap: number) {
    this.scores = new Float64Array(cap);
    this.ties = new Int32Array(cap);
    this.refs = new Int32Array(cap);
  }
  /** Lowest score kept, or -Infinity while not full. */
  get floor(): number {
    return this.size < this.cap ? -Infinity : this.scores[0];
  }
  /** The tie of the entry at the floor (meaningful only when full). */
  get floorTie(): number {
    return this.ties[0];
  }
  /** Would (score, tie) enter the list? */
  admits(score: number, tie: number): boolean {
    return this.size < this.cap || score > this.scores[0] || (score === this.scores[0] && tie < this.ties[0]);
  }
  /** Keeps (score, tie, ref) if it is among the best `cap` so far. */
  push(score: number, tie: number, ref: number): void {
    const s = this.scores;
    const t = this.ties;
    const r = this.refs;
    if (this.size < this.cap) {
      this.version++;
      let i = this.size++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        // Stop when the parent is worse than or equal to the new entry (a min-heap of "worse first").
        if (s[parent] < score || (s[parent] === score && t[parent] >= tie)) break;
        s[i] = s[parent];
        t[i] = t[parent];
        r[i] = r[parent];
        i = parent;
      }
      s[i] = score;
      t[i] = tie;
      r[i] = ref;
      return;
    }
    if (score < s[0] || (score === s[0] && tie >= t[0])) return;
    this.version++;
    let i = 0;
    const n = this.size;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const rr = l + 1;
      // The worse child: lower score, or equal score and higher tie.
      const c = rr < n && (s[rr] < s[l] || (s[rr] === s[l] && t[rr] > t[l])) ? rr : l;
      if (s[c] > score || (s[c] === score && t[c] < tie)) break;
      s[i] = s[c];
      t[i] = t[c];
      r[i] = r[c];
      i = c;
    }
    s[i] = score;
    t[i] = tie;
    r[i] = ref;
  }
}

let warmed = false;

/**
 * Runs every branch of `push` once in this thread (filling with and without moving up, equal
 * scores decided by tie, replacing with moving down to either child, refusing), so V8 has
 * feedback for all of them before it optimizes `push`. The host merges the workers' lists with it:
 * optimized on the first keystrokes from the branches those happened to take, it was thrown away
 * again when a later merge took another (a deopt the scan-worker probe saw on a busy machine).
 */
export function warmTopHeap(): void {
  if (warmed) return;
  warmed = true;
  for (let round = 0; round < 200; round++) {
    const heap = new TopHeap(16);
    for (let k = 0; k < 64; k++) {
      // Descending, ascending and repeated scores, with ties both ways.
      const score = k % 3 === 0 ? 64 - k : k % 3 === 1 ? k : 32;
      heap.push(score, (k * 7) % 64, k);
    }
  }
}
