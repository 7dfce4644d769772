// One connection's incoming frames, handled strictly in arrival order. Handling is synchronous
// except for a prompt that goes through admission (admission.ts): while it is admitted, later
// frames of the same connection wait here, so a cancel or an answer never overtakes the prompt it
// follows. Bounded: a peer that floods during an admission gets its extra frames refused.
export class Inbox<T> {
  private readonly items: T[] = [];
  private busy = false;

  constructor(
    private readonly max: number,
    /** Handles one item; returns a promise when the next must wait for it. */
    private readonly take: (item: T) => Promise<void> | undefined,
    /** False once the connection is gone: what is left is dropped. */
    private readonly open: () => boolean,
  ) {}

  /** False when the inbox is full (the item was not taken). */
  push(item: T): boolean {
    if (this.items.length >= this.max) return false;
    this.items.push(item);
    this.drain();
    return true;
  }

  private drain(): void {
    while (!this.busy && this.items.length > 0 && this.open()) {
      const pending = this.take(this.items.shift()!);
      if (!pending) continue;
      this.busy = true;
      void pending.finally(() => {
        this.busy = false;
        this.drain();
      });
    }
  }
}
