// The transcript of one session as the host keeps it: every frame the hub delivered to a hidden
// local "recorder" connection, in order, within a byte budget (the newest frames win). It is what
// a (re)opened chat view replays before it reattaches live, and what is persisted across window
// reloads. Pure: no vscode, no I/O.
import { utf8Length } from '../session/ports';
import type { WireFrame } from '../session/connection';

export type LoggedFrame = Record<string, unknown> & { message_id: string; type: string };

export class TranscriptLog {
  private frames: { frame: LoggedFrame; bytes: number }[] = [];
  private bytes = 0;
  /** Frames before this index came from a previous window (restored); the rest are live. */
  private restoredCount = 0;
  /** True when frames were dropped to stay within the budget (the view warns, §7.1.1). */
  truncated = false;

  constructor(
    private readonly maxBytes: number,
    restored: readonly LoggedFrame[] = [],
  ) {
    for (const f of restored) this.push(f);
    this.restoredCount = this.frames.length;
  }

  append(frame: WireFrame | LoggedFrame): void {
    this.push(frame as unknown as LoggedFrame);
  }

  /** Frames restored from the previous window, then the ones seen since. */
  parts(): { restored: LoggedFrame[]; live: LoggedFrame[] } {
    const all = this.frames.map((e) => e.frame);
    return { restored: all.slice(0, this.restoredCount), live: all.slice(this.restoredCount) };
  }

  all(): LoggedFrame[] {
    return this.frames.map((e) => e.frame);
  }

  get lastMessageId(): string | undefined {
    return this.frames[this.frames.length - 1]?.frame.message_id;
  }

  get size(): number {
    return this.frames.length;
  }

  private push(frame: LoggedFrame): void {
    if (this.maxBytes <= 0) {
      this.truncated = true;
      return;
    }
    const bytes = utf8Length(JSON.stringify(frame));
    this.frames.push({ frame, bytes });
    this.bytes += bytes;
    let drop = 0;
    while (this.bytes > this.maxBytes && drop < this.frames.length) this.bytes -= this.frames[drop++].bytes;
    if (drop > 0) {
      this.frames.splice(0, drop);
      this.restoredCount = Math.max(0, this.restoredCount - drop);
      this.truncated = true;
    }
  }
}
