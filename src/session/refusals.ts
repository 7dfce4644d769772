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

/** A token bucket: `take(now)` is false when the connection is over its rate. */
export class FrameBudget {
  private tokens: number;
  private at: number | undefined;

  constructor(private readonly rate: FrameRate) {
    this.tokens = rate.burst;
  }

  take(now: number): boolean {
    if (this.at !== undefined) this.tokens = Math.min(this.rate.burst, this.tokens + ((now - this.at) / 1000) * this.rate.perSecond);
    this.at = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
