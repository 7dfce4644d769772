// `printf 'run the tests\n' | rawp attach URL`: when piped input ends, attach leaves once what that
// input started is done — the turns of its prompts ended (a follow-up the host queued included),
// prompts the host answered or refused without a turn answered, its /save finished. It stayed
// attached forever, so a script never ended (the trial of 2026-12-05). A terminal's Ctrl-D leaves
// at once, as before; another master's turns are not waited for.
import type { Frame, VendorFrame } from '../../protocol/frameTypes';
import { noticeOf } from '../../protocol/rawpExtension';

export class PipedInputEnd {
  private ended = false;
  /** Our prompts that have neither started a turn nor been answered without one. */
  private readonly prompts = new Set<string>();
  /** Turns our prompts started, not ended yet. */
  private readonly turns = new Set<string>();
  private saves = 0;

  /** `waiting()`: the first attach is not done yet (lines typed before it wait for it). */
  constructor(
    private readonly leave: () => void,
    private readonly waiting: () => boolean,
  ) {}

  inputEnded(): void {
    this.ended = true;
    this.check();
  }

  promptSent(message_id: string): void {
    this.prompts.add(message_id);
  }

  saveStarted(): void {
    this.saves++;
  }

  saveEnded(): void {
    this.saves--;
    this.check();
  }

  /** Every frame the session sends us. */
  seen(frame: Frame | VendorFrame): void {
    const parent = frame.parent_id;
    if (frame.type === 'session.turn.start') {
      if (parent !== undefined && this.prompts.delete(parent)) this.turns.add((frame as { payload: { turn_id: string } }).payload.turn_id);
      return;
    }
    if (frame.type === 'session.turn.end') {
      if (this.turns.delete((frame as { payload: { turn_id: string } }).payload.turn_id)) this.check();
      return;
    }
    if (parent === undefined || !this.prompts.has(parent)) return;
    // Answered without a turn: a host command (/help, /mode, /rename), a refusal. A queued prompt
    // is only told it waits: its turn comes later, under the same id.
    const notice = noticeOf(frame);
    if (notice?.words?.id === 'queued') return;
    const modeSwitch = frame.type === 'agent.state.changed' && (frame as { payload: { reason?: string } }).payload.reason === 'mode_switch';
    if (notice || modeSwitch || frame.type === 'session.error' || frame.type === 'session.compacted') {
      this.prompts.delete(parent);
      this.check();
    }
  }

  /** The first attach is done and the lines that waited for it were sent: leave now if nothing else waits. */
  attached(): void {
    this.check();
  }

  private check(): void {
    if (this.ended && this.prompts.size === 0 && this.turns.size === 0 && this.saves === 0 && !this.waiting()) this.leave();
  }
}
