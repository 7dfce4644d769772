// Frame builders: stamp `v`, a UUID v4 `message_id`, a millisecond ISO `timestamp`, `session_id`
// and (when given) `turn_id`, `parent_id` and `metadata`. The payload is typed by the frame map.
import type { Metadata } from './envelope';
import { ENVELOPE_VERSION } from './envelope';
import type { FrameOf, FrameType, PayloadOf } from './frameTypes';

export interface FrameContext {
  session_id: string;
  turn_id?: string;
  parent_id?: string;
  metadata?: Metadata;
}

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** UUID v4 from the platform (Node and browsers both have `crypto.randomUUID`). */
export function newId(): string {
  return globalThis.crypto.randomUUID();
}

export function buildFrame<T extends FrameType>(type: T, payload: PayloadOf<T>, ctx: FrameContext, clock: Clock = systemClock): FrameOf<T> {
  const frame: Record<string, unknown> = {
    v: ENVELOPE_VERSION,
    type,
    message_id: newId(),
    timestamp: clock.now().toISOString(),
    session_id: ctx.session_id,
  };
  if (ctx.turn_id !== undefined) frame.turn_id = ctx.turn_id;
  if (ctx.parent_id !== undefined) frame.parent_id = ctx.parent_id;
  if (ctx.metadata !== undefined && Object.keys(ctx.metadata).length > 0) frame.metadata = ctx.metadata;
  frame.payload = payload;
  return frame as FrameOf<T>;
}

/** A builder bound to one session, so callers only say what is specific to the frame. */
export class FrameFactory {
  constructor(
    readonly session_id: string,
    private readonly clock: Clock = systemClock,
  ) {}

  make<T extends FrameType>(type: T, payload: PayloadOf<T>, ctx: Omit<FrameContext, 'session_id'> = {}): FrameOf<T> {
    return buildFrame(type, payload, { ...ctx, session_id: this.session_id }, this.clock);
  }
}
