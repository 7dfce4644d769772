// Limits per connection (issue 12 #11): a master whose frames keep being refused — malformed,
// too deep, a reused message_id, a prompt while a turn runs, over its frame rate — is closed
// (1008) once it passes a bound, so no single peer can keep the session busy answering it. It may
// reattach; the counts start again then, and the bounds still hold per connection.

export interface RefusalLimit {
  /** Refusals allowed inside `windowMs`; one more closes the connection. */
  max: number;
  windowMs: number;
}

/** More than 20 refusals in 10 s: no client that reads its errors gets there by accident. */
export const DEFAULT_REFUSAL_LIMIT: RefusalLimit = { max: 20, windowMs: 10_000 };

export class RefusalWindow {
  /** Times (ms) of the refusals inside the window, oldest first; never more than max + 1. */
  private readonly times: number[] = [];

  constructor(private readonly limit: RefusalLimit) {}

  /** Count one refusal at `now`; true when the connection is now over the limit. */
  record(now: number): boolean {
    while (this.times.length > 0 && now - this.times[0] >= this.limit.windowMs) this.times.shift();
    this.times.push(now);
    if (this.times.length > this.limit.max + 1) this.times.shift();
    return this.times.length > this.limit.max;
  }
}

export interface FrameRate {
  /** Frames a connection may send at once. */
  burst: number;
  /** Frames per second it earns back. */
  perSecond: number;
}

/**
 * A burst of 200, then 100 frames a second: far above a person typing in an @-picker (a search
 * and a cancel per key), far below what froze the host — 3,000 file searches sent at once kept
 * `/v1/health` waiting 4.9 s.
 */
export const DEFAULT_FRAME_RATE: FrameRate = { burst: 200, perSecond: 100 };

/** A token bucket: `take(now)` is false when the connection is over its rate (`cost`: bytes, for a byte budget). */
export class FrameBudget {
  private tokens: number;
  private at: number | undefined;

  constructor(private readonly rate: FrameRate) {
    this.tokens = rate.burst;
  }

  take(now: number, cost = 1): boolean {
    if (this.at !== undefined) this.tokens = Math.min(this.rate.burst, this.tokens + ((now - this.at) / 1000) * this.rate.perSecond);
    this.at = now;
    if (this.tokens < cost) return false;
    this.tokens -= cost;
    return true;
  }
}

/**
 * Controls that carry what a user wrote (a prompt, an answer to a question): kept in history as the
 * transcript, limited only by max_frame_size. Every other control (a cancel, a search, a mode
 * switch, an upload announcement) is a few hundred bytes; unknown payload keys are kept (decision
 * 002), so one could be 4 MiB, and two evicted the whole 8 MiB history (decision 547).
 */
export const CONTENT_CONTROLS: ReadonlySet<string> = new Set(['control.prompt.request', 'control.interaction.response']);

/**
 * Bytes of the other controls the remote masters of one session may have kept in its history: a
 * burst of 256 KiB, then 16 KiB a second (a person in the @-picker sends ~6 KB a second). Flushing
 * the 8 MiB ring with them takes over eight minutes of refused-and-closed flooding instead of two frames.
 */
export const DEFAULT_PLAIN_CONTROL_BYTES: FrameRate = { burst: 256 * 1024, perSecond: 16 * 1024 };

/** The refusal's words for a control over the session's byte budget. */
export function overControlBytes(type: string, bytes: number, rate: FrameRate = DEFAULT_PLAIN_CONTROL_BYTES): string {
  return `${type} of ${bytes} bytes dropped, not kept: controls without user text may take ${rate.burst / 1024} KiB at once and ${rate.perSecond / 1024} KiB a second per session`;
}
