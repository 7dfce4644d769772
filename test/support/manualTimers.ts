// Timers driven by hand: tests advance time explicitly, so nothing depends on the wall clock.
import type { Timers } from '../../src/session/ports';

interface Scheduled {
  id: number;
  at: number;
  fn: () => void;
}

export class ManualTimers implements Timers {
  private now = 0;
  private nextId = 1;
  private readonly scheduled = new Map<number, Scheduled>();

  setTimeout(fn: () => void, ms: number): number {
    const id = this.nextId++;
    this.scheduled.set(id, { id, at: this.now + Math.max(0, ms), fn });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.scheduled.delete(handle as number);
  }

  /** Timers still waiting. */
  get pending(): number {
    return this.scheduled.size;
  }

  /** Move time forward, firing every timer that falls due, in order. */
  advance(ms: number): void {
    const until = this.now + ms;
    for (;;) {
      const due = [...this.scheduled.values()].filter((s) => s.at <= until).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.scheduled.delete(due.id);
      this.now = due.at;
      due.fn();
    }
    this.now = until;
  }
}
