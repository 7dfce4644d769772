// A bounded text buffer for a child's stderr: keeps the first bytes (where the cause of a crash
// usually is) and the last bytes (where the final error usually is), and counts what it dropped.

export class BoundedText {
  private head = '';
  private tail = '';
  private dropped = 0;

  constructor(
    private readonly headLimit = 8 * 1024,
    private readonly tailLimit = 56 * 1024,
  ) {}

  append(chunk: string): void {
    if (this.head.length < this.headLimit) {
      const room = this.headLimit - this.head.length;
      this.head += chunk.slice(0, room);
      chunk = chunk.slice(room);
      if (!chunk) return;
    }
    this.tail += chunk;
    if (this.tail.length > this.tailLimit) {
      const cut = this.tail.length - this.tailLimit;
      this.dropped += cut;
      this.tail = this.tail.slice(cut);
    }
  }

  /** Everything kept, with a marker where text was dropped. */
  text(): string {
    if (this.dropped === 0) return this.head + this.tail;
    return `${this.head}\n[… ${this.dropped} characters of stderr dropped …]\n${this.tail}`;
  }

  /** The last `n` characters (for one-line messages). */
  last(n: number): string {
    const all = this.head + this.tail;
    return all.slice(Math.max(0, all.length - n));
  }

  get length(): number {
    return this.head.length + this.tail.length + this.dropped;
  }
}
