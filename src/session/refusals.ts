// Refusals per connection (issue 12 #11): a master whose frames keep being refused — malformed,
// too deep, a reused message_id, a prompt while a turn runs — is closed (1008) once it passes a
// bound, so no single peer can keep the session busy answering it. It may reattach; the count
// starts again then, and the bound still holds per connection.

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
