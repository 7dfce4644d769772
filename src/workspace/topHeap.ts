// The bounded min-heap of (score, ref) that keeps a keystroke's best candidates without an object
// per candidate (§16.1: only the leaders get the exact DP score).

/** Bounded min-heap of (score, ref) keeping the best `cap`. */
export class TopHeap {
  readonly scores: Float64Array;
  readonly refs: Int32Array;
  size = 0;
  constructor(readonly cap: number) {
    this.scores = new Float64Array(cap);
    this.refs = new Int32Array(cap);
  }
  /** Lowest score kept, or -Infinity while not full. */
  get floor(): number {
    return this.size < this.cap ? -Infinity : this.scores[0];
  }
  push(score: number, ref: number): void {
    const s = this.scores;
    const r = this.refs;
    if (this.size < this.cap) {
      let i = this.size++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (s[parent] <= score) break;
        s[i] = s[parent];
        r[i] = r[parent];
        i = parent;
      }
      s[i] = score;
      r[i] = ref;
      return;
    }
    if (score <= s[0]) return;
    let i = 0;
    const n = this.size;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const rr = l + 1;
      const c = rr < n && s[rr] < s[l] ? rr : l;
      if (s[c] >= score) break;
      s[i] = s[c];
      r[i] = r[c];
      i = c;
    }
    s[i] = score;
    r[i] = ref;
  }
}
