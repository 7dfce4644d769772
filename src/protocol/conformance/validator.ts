// `rawp validate` without the I/O: feed it lines of JSON frames, one at a time, then ask for the
// result. Frame-level checks come from parseFrame; sequence rules run per session_id.
import { UUID_V4 } from '../common';
import { TURN_CONTENT_TYPES, type Frame } from '../frameTypes';
import { parseFrame, parseValue, type ParseOutcome } from '../parse';
import { CODES, type ProblemCode } from './codes';
import { scopeOf, type Located, type SessionContext, type SessionRule } from './context';
import type { Problem, Report, ValidationResult, Where } from './problem';
import { catalogRule } from './rules/catalog';
import { featureRule } from './rules/features';
import { textBlockRule, thinkingBlockRule } from './rules/blocks';
import { interactionRule } from './rules/interactions';
import { orderRule } from './rules/order';
import { subagentRule } from './rules/subagents';
import { timestampRule } from './rules/timestamps';
import { toolRule } from './rules/tools';
import { turnRule } from './rules/turns';
import { modeRule } from './rules/modes';
import { cancelRule } from './rules/cancel';
import { refusalRule } from './rules/refusals';
import { lifecycleRule } from './rules/lifecycle';

const RULES: (() => SessionRule)[] = [orderRule, featureRule, turnRule, textBlockRule, thinkingBlockRule, toolRule, catalogRule, subagentRule, interactionRule, timestampRule, modeRule, cancelRule, refusalRule, lifecycleRule];

class SessionChecker {
  readonly ctx: SessionContext;
  private rules = RULES.map((make) => make());

  constructor(session_id: string) {
    this.ctx = { session_id, capabilities: [], commandsPublished: false, openTurns: new Map(), inherited: new Set(), turnStarted: new Set(), promptSeen: false };
  }

  frame(at: Located, report: Report): void {
    inherit(this.ctx, at);
    for (const rule of this.rules) rule.frame(at, this.ctx, report);
    apply(this.ctx, at);
  }

  end(report: Report): void {
    for (const rule of this.rules) rule.end?.(this.ctx, report);
  }

  /**
   * A truncated session.history (§7.1.1): frames were lost, so what follows is checked like a log
   * that starts mid-session — open turns become turns begun before the log, and the rules start
   * afresh (capabilities and catalog are kept).
   */
  gap(): void {
    this.rules = RULES.map((make) => make());
    for (const [scope, t] of this.ctx.openTurns) {
      this.ctx.openTurns.set(scope, { ...t, inherited: true });
      this.ctx.inherited.add(t.turn_id);
    }
    this.ctx.turnStarted.clear();
    this.ctx.promptSeen = false;
  }
}

/** Frames of a turn that began before the log: the turn is open, but nothing of its start is known. */
const TURN_FRAMES: ReadonlySet<string> = new Set([...TURN_CONTENT_TYPES, 'session.turn.end']);

/**
 * A log may start mid-session (a master attaching late, a reattach whose history starts after the
 * turn began): frames of a turn no session.turn.start of this log opened, before any turn started
 * in their scope, belong to a turn begun before the log. It is opened as `inherited`, so the rules
 * check what follows and forgive what they cannot see (its start, its earlier calls).
 */
function inherit(ctx: SessionContext, { frame: f, line }: Located): void {
  if (!TURN_FRAMES.has(f.type) || f.turn_id === undefined) return;
  // Only the main agent's turn: a subagent's frames need no turn of their own (§10.4).
  const scope = scopeOf(f);
  const main = ctx.openTurns.get('');
  if (scope !== '') {
    if (!main && !ctx.promptSeen && !ctx.turnStarted.has('')) {
      ctx.inherited.add(f.turn_id);
      ctx.openTurns.set('', { turn_id: f.turn_id, line, inherited: true });
    }
    return;
  }
  // After a prompt in the log, its turn starts in the log too: a frame of an unknown turn is an error.
  if (ctx.promptSeen || main || ctx.turnStarted.has(scope)) return;
  const turn_id = f.type === 'session.turn.end' ? f.payload.turn_id : f.turn_id;
  ctx.inherited.add(turn_id);
  ctx.openTurns.set(scope, { turn_id, line, inherited: true });
}

/** The session state every rule shares, advanced after the rules have seen the frame. */
function apply(ctx: SessionContext, { frame: f, line, replayed }: Located): void {
  const scope = scopeOf(f);
  switch (f.type) {
    case 'session.capabilities':
      // One in a history belongs to an earlier connection's exchange, not to this one's order.
      if (!replayed) ctx.capabilities.push(f.payload);
      break;
    case 'tool.catalog.publish':
      ctx.catalog = f.payload;
      break;
    case 'agent.commands.publish':
      ctx.commandsPublished = true;
      break;
    case 'control.prompt.request':
      ctx.promptSeen = true;
      break;
    case 'session.turn.start':
      ctx.openTurns.set(scope, { turn_id: f.payload.turn_id, line });
      ctx.turnStarted.add(scope);
      break;
    case 'session.turn.end':
      // Close the scope's turn even when the ids disagree (reported), so one slip does not
      // cascade into an error on every later frame.
      ctx.openTurns.delete(scope);
      break;
    // session.deleted leaves open turns open: a master's deletion request is followed by the
    // client's clean-up frames (turn.end) and its own session.deleted (DELETED_MID_TURN otherwise).
    default:
      break;
  }
}

export class StreamValidator {
  private frames = 0;
  private readonly problems: Problem[] = [];
  private readonly firstLineOfId = new Map<string, number>();
  private readonly sessions = new Map<string, SessionChecker>();
  private finished?: ValidationResult;

  private readonly report: Report = (code: ProblemCode, at: Where, message: string) => {
    const p: Problem = { line: at.line, code, severity: CODES[code].severity, clause: CODES[code].clause, message };
    if (at.session_id !== undefined) p.session_id = at.session_id;
    if (at.message_id !== undefined) p.message_id = at.message_id;
    this.problems.push(p);
  };

  /** Checks one input line (1-based `line`); blank lines are skipped and not counted. */
  line(text: string, line: number): void {
    if (this.finished) throw new Error('StreamValidator.line() after finish()');
    if (text.trim() === '') return;
    this.frames++;
    this.take(parseFrame(text), line, false, '');
  }

  /** A line too long to read (rawp validate does not hold it): one frame, one INVALID_ENVELOPE. */
  tooLong(chars: number, limit: number, line: number): void {
    if (this.finished) throw new Error('StreamValidator.tooLong() after finish()');
    this.frames++;
    this.report('INVALID_ENVELOPE', { line }, `line of ${chars} characters is longer than rawp validate reads (${limit}); not checked`);
  }

  private take(outcome: ParseOutcome, line: number, replayed: boolean, prefix: string): void {
    if (outcome.kind === 'error') {
      const { error_code, message } = outcome.error;
      // No size limit is passed to parseFrame, so FRAME_TOO_LARGE cannot occur; mapped for totality.
      // FRAME_TOO_DEEP is this implementation's input limit (DEFAULT_MAX_DEPTH), not a spec code;
      // no width bound is passed either, so FRAME_TOO_WIDE cannot occur (mapped for totality).
      const code: ProblemCode = error_code === 'FRAME_TOO_LARGE' || error_code === 'FRAME_TOO_DEEP' || error_code === 'FRAME_TOO_WIDE' ? 'INVALID_ENVELOPE' : error_code;
      this.report(code, { line, session_id: outcome.session_id, message_id: outcome.message_id }, prefix + message);
      return;
    }
    if (outcome.kind === 'ignored') {
      this.report('UNKNOWN_TYPE', { line, session_id: outcome.session_id }, prefix + outcome.reason);
      return;
    }
    const { frame } = outcome;
    const here = { line, session_id: frame.session_id, message_id: frame.message_id };
    const first = this.firstLineOfId.get(frame.message_id);
    if (first !== undefined) {
      // A history may repeat what this log already holds; a receiver skips those silently.
      if (!replayed) this.report('DUPLICATE_MESSAGE_ID', here, `message_id ${frame.message_id} was first used on line ${first}; receivers drop this frame as a duplicate`);
      return;
    }
    this.firstLineOfId.set(frame.message_id, line);
    if (!UUID_V4.test(frame.message_id)) this.report('MESSAGE_ID_NOT_UUID', here, `${prefix}message_id "${frame.message_id}" is not a UUID v4`);
    if (outcome.vendor) return; // §3.1.1: vendor frames are fine and take part in no sequence rule
    const known = frame as Frame;
    this.session(known.session_id).frame({ frame: known, line, replayed }, this.report);
    if (known.type === 'session.history' && !replayed) {
      if (known.payload.buffer_status.truncated) this.session(known.session_id).gap();
      this.replay(known.payload.frames, line);
    }
  }

  /**
   * §7.8.3: the frames of a session.history are what the peer missed while detached; they continue
   * the session's sequences, so they are checked as if they stood at the history's line, in
   * timestamp order, equal timestamps by message_id (§2.3, as the transcript reducer replays).
   */
  private replay(frames: readonly Record<string, unknown>[], line: number): void {
    // A frame without a readable timestamp sorts first; it is reported as invalid anyway.
    const ms = (f: Record<string, unknown>) => (typeof f.timestamp === 'string' ? Date.parse(f.timestamp) : NaN);
    const ordered = frames
      .map((f, i) => ({ f, i, ms: Number.isNaN(ms(f)) ? -Infinity : ms(f), ts: String(f.timestamp ?? ''), id: String(f.message_id ?? '') }))
      .sort((a, b) => a.ms - b.ms || compare(a.ts, b.ts) || compare(a.id, b.id) || a.i - b.i);
    for (const { f, i } of ordered) this.take(parseValue(f), line, true, `session.history frames[${i}]: `);
  }

  /** Ends the stream: reports what was left pending and returns the sorted result. */
  finish(): ValidationResult {
    if (this.finished) return this.finished;
    for (const s of this.sessions.values()) s.end(this.report);
    // Stable sort: problems of one line keep the order they were found in.
    const problems = this.problems.map((p, i) => ({ p, i })).sort((a, b) => a.p.line - b.p.line || a.i - b.i).map((x) => x.p);
    const errors = problems.filter((p) => p.severity === 'error').length;
    this.finished = { frames: this.frames, errors, warnings: problems.length - errors, problems };
    return this.finished;
  }

  private session(id: string): SessionChecker {
    let s = this.sessions.get(id);
    if (!s) this.sessions.set(id, (s = new SessionChecker(id)));
    return s;
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Validates a whole text of JSON lines at once. */
export function validateText(text: string): ValidationResult {
  const v = new StreamValidator();
  text.split(/\r?\n/).forEach((l, i) => v.line(l, i + 1));
  return v.finish();
}

/** `LINE:CODE: message` lines and the closing `frames: N, errors: E, warnings: W`. */
export function formatText(result: ValidationResult): string {
  const lines = result.problems.map((p) => `${p.line}:${p.code}: ${p.message} (${p.clause})`);
  lines.push(`frames: ${result.frames}, errors: ${result.errors}, warnings: ${result.warnings}`);
  return lines.join('\n') + '\n';
}

/** The --json document. */
export function formatJson(result: ValidationResult): string {
  return JSON.stringify(result, null, 2) + '\n';
}
