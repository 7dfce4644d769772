// The state of one session as the rules see it *before* the current frame is applied. The
// validator updates it after every rule has looked at the frame, so rules never race each other.
import { FRAME_TYPES, type Frame, type FrameType, type PayloadOf } from '../frameTypes';
import type { Report, Where } from './problem';

/** A frame and the input line it came from. */
export interface Located<F extends Frame = Frame> {
  frame: F;
  line: number;
  /** Replayed from a session.history on `line` (§7.8.3): older than the frames around it. */
  replayed?: boolean;
}

export interface OpenTurn {
  turn_id: string;
  line: number;
  /** Begun before the log did (a late attach or a reattach): its start and early frames are not in it. */
  inherited?: boolean;
}

export interface SessionContext {
  session_id: string;
  /** Every session.capabilities of the session, in order (the client's comes first, §13.1). */
  capabilities: PayloadOf<'session.capabilities'>[];
  /** The last tool.catalog.publish (§15.1 checks against the latest catalog). */
  catalog?: PayloadOf<'tool.catalog.publish'>;
  commandsPublished: boolean;
  /** Open turn per agent scope (see scopeOf). */
  openTurns: Map<string, OpenTurn>;
  /** Turn ids that began before the log (frames of theirs came before any session.turn.start). */
  inherited: Set<string>;
  /** A session.turn.start has been seen in this scope. */
  turnStarted: Set<string>;
  /** A control.prompt.request has been seen: from then on a turn must start in the log. */
  promptSeen: boolean;
}

/** The latest session.capabilities of the client (odd ones: 1st, 3rd…, §13.1) or the master. */
export function capabilitiesOf(ctx: SessionContext, side: 'client' | 'master'): PayloadOf<'session.capabilities'> | undefined {
  const parity = side === 'client' ? 0 : 1;
  for (let i = ctx.capabilities.length - 1; i >= 0; i--) if (i % 2 === parity) return ctx.capabilities[i];
  return undefined;
}

/** Did that side's latest session.capabilities announce the feature? */
export function sideAnnounced(ctx: SessionContext, side: 'client' | 'master', feature: string): boolean {
  return (capabilitiesOf(ctx, side)?.features as Record<string, unknown> | undefined)?.[feature] === true;
}

/** Was the frame's turn begun before the log (nothing about it can be checked from its start)? */
export function inheritedTurn(at: Located, ctx: SessionContext): boolean {
  const open = ctx.openTurns.get(scopeOf(at.frame));
  if (open?.inherited) return true;
  return at.frame.turn_id !== undefined && ctx.inherited.has(at.frame.turn_id);
}

/**
 * Non-fatal refusals the client owes (PROMPT_IN_PROGRESS, MODE_SWITCH_DURING_TURN…): a request
 * waits until a client `session.error` with its code answers it — the one naming it in
 * `parent_id`, else the oldest waiting one.
 */
export class Refusals<T extends { at: Located }> {
  private readonly waiting: T[] = [];
  constructor(readonly code: string) {}
  add(item: T): void {
    this.waiting.push(item);
  }
  /** A frame arrived: does it answer one? Returns the answered item. */
  answer(f: Frame): T | undefined {
    if (f.type !== 'session.error' || f.payload.error_code !== this.code) return undefined;
    let i = this.waiting.findIndex((w) => w.at.frame.message_id === f.parent_id);
    if (i < 0 && this.waiting.length > 0) i = 0;
    return i < 0 ? undefined : this.waiting.splice(i, 1)[0];
  }
  /** Takes the waiting items that match. */
  take(match: (item: T) => boolean): T[] {
    const out: T[] = [];
    for (let i = this.waiting.length - 1; i >= 0; i--) if (match(this.waiting[i])) out.unshift(...this.waiting.splice(i, 1));
    return out;
  }
}

/** One check of the sequence rules, instantiated per session. */
export interface SessionRule {
  frame(at: Located, ctx: SessionContext, report: Report): void;
  /** The stream is over: report what was left pending. */
  end?(ctx: SessionContext, report: Report): void;
}

/**
 * The agent a frame belongs to: '' for the main agent, else the invocation that started its
 * subagent (§10.2). Turns, text blocks and "right after" rules are kept apart per scope so a
 * subagent's own turns do not collide with the main agent's.
 */
export function scopeOf(frame: Frame): string {
  return frame.metadata?.subagent_context?.parent_invocation_id ?? '';
}

/** Frames the master sends (control.*). They cross the client's frames on the wire, so "right
 * after" rules about client frames skip them. */
export function fromMaster(type: FrameType): boolean {
  return FRAME_TYPES[type].direction === 'M2C';
}

export function where(at: Located): Where {
  return { line: at.line, session_id: at.frame.session_id, message_id: at.frame.message_id };
}

/** The turn a frame belongs to: its scope's open turn, else the envelope's turn_id ('' if none). */
export interface TurnRef {
  scope: string;
  turn_id: string;
}

export function turnOf(at: Located, ctx: SessionContext): TurnRef {
  const scope = scopeOf(at.frame);
  return { scope, turn_id: ctx.openTurns.get(scope)?.turn_id ?? at.frame.turn_id ?? '' };
}

/** Is this turn still open (the stream ended mid-turn)? */
export function isOpen(turn: TurnRef, ctx: SessionContext): boolean {
  return turn.turn_id !== '' && ctx.openTurns.get(turn.scope)?.turn_id === turn.turn_id;
}

/** Did any side of the session announce the feature (§10.6, §12.2.1)? */
export function announced(ctx: SessionContext, feature: string): boolean {
  return ctx.capabilities.some((c) => (c.features as Record<string, unknown> | undefined)?.[feature] === true);
}
