// Follow-ups typed while a turn runs. The engine refuses a second prompt during a turn
// (`PROMPT_IN_PROGRESS`, §17.3.2), so the client holds such prompts here and sends them one at a
// time, in order, each when the previous turn has ended (`session.turn.end`, §7.5.2).
//
// Semantics (docs/decisions/010-follow-up-queue.md):
// - One prompt per turn end: the next item is sent only after the turn the previous one started
//   has ended, so the engine never sees two prompts at once.
// - Between sending and the turn's `session.turn.start` the queue counts as busy (no double send).
// - A turn that ends `cancelled` or `error` pauses the queue: the user stopped or something broke,
//   so held follow-ups wait for `resume()`, an explicit new submit, or cancel/edit.
// - A `PROMPT_IN_PROGRESS` refusal (another master started a turn first) puts the sent item back
//   at the head; it goes again at the next turn end.
// - `session.deleted` or a fatal `session.error` drops everything still queued.
// Host commands never enter the queue: the pipeline runs first and only prompts are queued.
// - Bounded (decision 544): at most `maxItems` prompts and `maxBytes` of them wait; one more is
//   refused (nothing kept) and the host answers its sender with a refusal that counts towards the
//   hub's 1008 close, so a master cannot make the host keep every prompt it sends during a turn.
import type { Frame, PayloadOf } from '../protocol/frameTypes';

type PromptPayload = PayloadOf<'control.prompt.request'>;

export interface QueuedPrompt {
  id: string;
  payload: PromptPayload;
}

export interface QueueState {
  items: readonly QueuedPrompt[];
  /** A turn is running, or a sent prompt has not started its turn yet. */
  busy: boolean;
  paused: boolean;
  /** Items dropped by the last change (session ended), for the UI to tell the user. */
  dropped: readonly QueuedPrompt[];
}

export type SubmitOutcome = { status: 'sent' } | { status: 'queued'; id: string } | { status: 'refused'; message: string };

export interface FollowUpLimits {
  /** Prompts that may wait at once (the one already sent is not counted). */
  maxItems: number;
  /** Their size together, in UTF-8 bytes of their JSON payloads. */
  maxBytes: number;
}

/**
 * 20 waiting prompts, 8 MiB together: a person queues a handful; 8 MiB still takes two of the
 * largest prompts a frame can carry (4 MiB). Unbounded, one master kept ~400 MB a second.
 */
export const DEFAULT_FOLLOW_UP_LIMITS: FollowUpLimits = { maxItems: 20, maxBytes: 8 * 1024 * 1024 };

/** The error code of a prompt refused because the queue is full (a non-fatal session.error). */
export const QUEUE_FULL = 'FOLLOW_UP_QUEUE_FULL';

export interface FollowUpQueueOptions {
  /** Sends a prompt (the host builds the `control.prompt.request` frame). */
  send: (payload: PromptPayload) => void;
  /** Start as busy when created while a turn is already running. */
  busy?: boolean;
  newId?: () => string;
  limits?: FollowUpLimits;
}

function sizeOf(payload: PromptPayload): number {
  return Buffer.byteLength(JSON.stringify(payload));
}

const mb = (n: number) => `${(n / (1024 * 1024)).toFixed(1)} MB`;

export class FollowUpQueue {
  private items: QueuedPrompt[] = [];
  private turnRunning: boolean;
  private inFlight: QueuedPrompt | undefined;
  /** Items handed to `send` (one may start, even finish, its turn synchronously inside `send`). */
  private readonly sent = new WeakSet<QueuedPrompt>();
  private paused = false;
  private readonly listeners = new Set<(state: QueueState) => void>();
  private counter = 0;
  /** Bytes of each waiting item's payload (measured once, when it enters or is edited). */
  private readonly sizes = new WeakMap<QueuedPrompt, number>();
  private readonly limits: FollowUpLimits;

  constructor(private readonly options: FollowUpQueueOptions) {
    this.turnRunning = options.busy ?? false;
    this.limits = options.limits ?? DEFAULT_FOLLOW_UP_LIMITS;
  }

  /** Bytes the waiting prompts take together. */
  get heldBytes(): number {
    let total = 0;
    for (const q of this.items) total += this.sizes.get(q) ?? 0;
    return total;
  }

  get state(): QueueState {
    return { items: [...this.items], busy: this.busy, paused: this.paused, dropped: [] };
  }

  private get busy(): boolean {
    return this.turnRunning || this.inFlight !== undefined;
  }

  onChange(listener: (state: QueueState) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** Sends now when idle with nothing held; otherwise queues. A submit while idle also resumes. */
  submit(payload: PromptPayload): SubmitOutcome {
    const bytes = sizeOf(payload);
    // Only a prompt that would wait is checked: one that goes out at once is never held here.
    const waits = this.busy || this.paused || this.items.length > 0;
    if (waits) {
      const refusal = this.overLimit(this.items.length + 1, this.heldBytes + bytes);
      if (refusal) return { status: 'refused', message: refusal };
    }
    const item = { id: this.nextId(), payload };
    this.sizes.set(item, bytes);
    this.items.push(item);
    if (!this.busy) this.paused = false;
    this.releaseNext();
    this.changed();
    return this.sent.has(item) ? { status: 'sent' } : { status: 'queued', id: item.id };
  }

  cancel(id: string): boolean {
    const i = this.items.findIndex((q) => q.id === id);
    if (i < 0) return false;
    this.items.splice(i, 1);
    this.changed();
    return true;
  }

  /** Replaces the text of a queued prompt (everything else kept). False once it has been sent. */
  edit(id: string, prompt_text: string): boolean {
    const item = this.items.find((q) => q.id === id);
    if (!item) return false;
    const payload = { ...item.payload, prompt_text };
    const bytes = sizeOf(payload);
    if (this.overLimit(this.items.length, this.heldBytes - (this.sizes.get(item) ?? 0) + bytes)) return false;
    item.payload = payload;
    this.sizes.set(item, bytes);
    this.changed();
    return true;
  }

  /** Moves a queued prompt to a new position (0 = next). */
  move(id: string, index: number): boolean {
    const i = this.items.findIndex((q) => q.id === id);
    if (i < 0) return false;
    const [item] = this.items.splice(i, 1);
    this.items.splice(Math.max(0, Math.min(index, this.items.length)), 0, item);
    this.changed();
    return true;
  }

  clear(): void {
    this.items = [];
    this.changed();
  }

  resume(): void {
    this.paused = false;
    this.releaseNext();
    this.changed();
  }

  /** Feed every frame of the session (the queue picks what it needs). */
  observe(frame: Frame): void {
    switch (frame.type) {
      case 'session.turn.start':
        this.turnRunning = true;
        this.inFlight = undefined;
        this.changed();
        return;
      case 'session.turn.end': {
        this.turnRunning = false;
        this.inFlight = undefined;
        const stop = frame.payload.stop_reason;
        if (stop === 'cancelled' || stop === 'error') this.paused = this.items.length > 0;
        this.releaseNext();
        this.changed();
        return;
      }
      case 'session.error':
        if (frame.payload.fatal) return this.dropAll();
        if (frame.payload.error_code === 'PROMPT_IN_PROGRESS' && this.inFlight) {
          this.items.unshift(this.inFlight);
          this.inFlight = undefined;
          this.turnRunning = true; // someone else's turn is running; wait for its end
          this.changed();
        }
        return;
      case 'session.deleted':
        return this.dropAll();
      default:
        return;
    }
  }

  /**
   * The prompt handed on last was refused before its turn started (a non-fatal session.error that
   * answers it: a bad json_schema, a prompt the agent could not take): it is gone, and the queue
   * goes on — held, when prompts wait, as after a turn an error ended. It stayed "in flight" before,
   * so every later prompt waited forever behind "The agent is busy" (decision 652).
   */
  refused(): void {
    if (!this.inFlight) return;
    this.inFlight = undefined;
    this.paused = this.items.length > 0;
    this.releaseNext();
    this.changed();
  }

  private dropAll(): void {
    const dropped = this.items;
    this.items = [];
    this.inFlight = undefined;
    this.turnRunning = false;
    this.paused = false;
    this.changed(dropped);
  }

  private releaseNext(): void {
    if (this.busy || this.paused) return;
    const next = this.items.shift();
    if (next) this.dispatch(next);
  }

  private dispatch(item: QueuedPrompt): void {
    this.inFlight = item;
    this.sent.add(item); // before `send`: it may re-enter the queue synchronously
    try {
      this.options.send(item.payload);
    } catch {
      // Could not even send: keep it, at the head, and hold the queue for the user.
      this.sent.delete(item);
      this.inFlight = undefined;
      this.items.unshift(item);
      this.paused = true;
    }
  }

  /** Why `items` waiting prompts of `bytes` together are too many, or undefined when they fit. */
  private overLimit(items: number, bytes: number): string | undefined {
    const { maxItems, maxBytes } = this.limits;
    const what = items > maxItems ? `${this.items.length} prompts are already waiting (at most ${maxItems})` : bytes > maxBytes ? `the waiting prompts would take ${mb(bytes)} (at most ${mb(maxBytes)})` : undefined;
    if (!what) return undefined;
    return `The follow-up queue is full: ${what}, so this prompt was not queued and is lost. Wait for the running turn to end, or cancel or edit prompts that are waiting, then send it again.`;
  }

  private nextId(): string {
    return this.options.newId?.() ?? `followup-${++this.counter}`;
  }

  private changed(dropped: readonly QueuedPrompt[] = []): void {
    const state = { ...this.state, dropped };
    for (const l of this.listeners) l(state);
  }
}
