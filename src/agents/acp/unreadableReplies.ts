// The JSON-RPC error we write back to an ACP agent for a line of its that we could not read
// (decision 556), so that a request of the agent's does not wait for an answer that never comes.
//
// JSON-RPC 2.0 §5: "When a rpc call is made, the Server MUST reply with a Response, except for in
// the case of Notifications", and its `id` "MUST be the same as the value of the id member in the
// Request Object. If there was an error in detecting the id in the Request object (e.g. Parse
// error/Invalid Request), it MUST be Null." §5.1: -32700 Parse error, "Invalid JSON was received
// by the server"; -32600 Invalid Request, "The JSON sent is not a valid Request object". §4.1: "The
// Server MUST NOT reply to a Notification" — but a Notification is a valid Request object without
// an id, and a line we cannot read is not one: §7 answers both `{"jsonrpc": "2.0", "method":
// "foobar, "params": "bar", "baz]` and `{"jsonrpc": "2.0", "method": 1, "params": "bar"}` (no id)
// with `"id": null`. So:
// - the line's start shows a request of the agent's (a string `method` and an `id`): its id;
// - it shows a response (`result` or `error` first): nothing — JSON-RPC answers requests, not
//   answers, and the pipe may fail our own request instead (decision 551);
// - anything else (a log line, a notification, an id we cannot see): id null, as §5 says.
// The SDK's own line reader (ndJsonStream) answers every unparseable line with -32700 and id null,
// so agents built on an ACP SDK already expect such answers.
//
// Bounded, so a flood of bad lines (or an agent that logs our answer on stdout, which we answer
// again) cannot make us write without end: replies that carry an id, each one freeing a request
// of the agent's, share a token bucket (REPLY_LIMITS.withIdPerSecond at once, refilled at that many a
// second); replies with id null free nothing and only inform, so only the first
// REPLY_LIMITS.withoutId of the agent's life are written. The first reply held back is said once.
import type { AnyMessage } from '@agentclientprotocol/sdk';
import { lineStart } from './badLines';
import { requestIdOf, type Id } from './rpcShape';

export interface ReplyLimits {
  /** Replies carrying the id of an agent's request: a bucket of this many, refilled at this many a second. */
  withIdPerSecond: number;
  /** Replies with id null: this many in the life of the agent process, then none. */
  withoutId: number;
}

export const REPLY_LIMITS: ReplyLimits = { withIdPerSecond: 10, withoutId: 10 };

/** How much of the reader's reason goes into our error message. */
const REASON_CHARS = 200;

export class UnreadableReplies {
  private tokens: number;
  private last: number;
  private withoutIdLeft: number;
  private heldBack = false;

  constructor(
    private readonly send: (message: AnyMessage) => void,
    /** Called once, at the first reply held back by the limits. */
    private readonly onHeldBack: () => void,
    private readonly limits: ReplyLimits = REPLY_LIMITS,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.tokens = limits.withIdPerSecond;
    this.last = now();
    this.withoutIdLeft = limits.withoutId;
  }

  /** A line the line reader could not read; `reason` as the reader reports it. */
  line(line: string, reason: string): void {
    // The reader's words for a line that was JSON but whose handler threw: it reached the pipe (and
    // maybe the SDK, which answers requests itself); a second answer would break "one answer per
    // request", so none is written.
    if (reason.startsWith('handler failed')) return;
    const start = lineStart(line);
    if (start.kind === 'answer') return;
    this.reply(start.kind === 'request' ? start.id : null, -32700, `Parse error: the client could not read this line (${reason.slice(0, REASON_CHARS)})`);
  }

  /** A JSON value that is not a message the SDK reads (rpcShape.ts `notAMessage` gave `why`). */
  value(value: unknown, why: string): void {
    this.reply(requestIdOf(value), -32600, `Invalid request: ${why}`);
  }

  private reply(id: Id | null, code: number, message: string): void {
    if (!(id === null ? this.takeWithoutId() : this.takeWithId())) {
      if (!this.heldBack) {
        this.heldBack = true;
        this.onHeldBack();
      }
      return;
    }
    this.send({ jsonrpc: '2.0', id, error: { code, message } } as AnyMessage);
  }

  private takeWithoutId(): boolean {
    if (this.withoutIdLeft <= 0) return false;
    this.withoutIdLeft--;
    return true;
  }

  private takeWithId(): boolean {
    const t = this.now();
    const rate = this.limits.withIdPerSecond;
    this.tokens = Math.min(rate, this.tokens + (Math.max(0, t - this.last) / 1000) * rate);
    this.last = t;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
