// Where an ACP agent's stdout lines go: each message into the pipe to the SDK (stream.ts), and
// each line that is not one shown as a warning (decision 551) and answered within bounds (556).
// Warnings are held to a count per kind and turn (decision 716, warningBudget.ts): the first 20 of
// each kind are shown, the rest counted and said in one summary at the end of the turn.
import type { AgentEvent } from '../../session/agentAdapter';
import { lineReasonKind, WarningBudget, WARNINGS_PER_KIND } from '../process/warningBudget';
import { badLineWarning } from './badLines';
import { notAMessage } from './rpcShape';
import { messagePipe, type MessagePipe, type TraceDirection } from './stream';
import { REPLY_LIMITS } from './unreadableReplies';

export interface AgentLines {
  pipe: MessagePipe;
  onMessage(value: unknown, line: string): void;
  onBadLine(line: string, reason: string): void;
  /**
   * The events of the translator on their way to the host: its warnings about updates it cannot
   * read (ACP_MALFORMED_UPDATE) take the budget too, one kind; everything else passes.
   */
  emit(event: AgentEvent): void;
  /**
   * One session/update's params as the agent sent them (the SDK no longer parses them, stream.ts):
   * `apply` gets its session id and update; params without them are a warning within the budget.
   */
  sessionUpdate(params: unknown, apply: (sessionId: string, update: unknown) => void): void;
  /** The end of a turn: one summary per kind of warning held back, and the counts start again. */
  endTurn(): void;
}

type Agent = { id: string; displayName: string };

/** The budget's kind for the translator's warnings (a line's kind is its reason's start). */
const UPDATE_KIND = 'ACP_MALFORMED_UPDATE';
const LINE_KIND = 'line: ';

export function agentLines(options: { agent: Agent; send(msg: unknown): boolean; emit(event: AgentEvent): void; trace?(direction: TraceDirection, message: unknown): void }): AgentLines {
  const { agent, emit } = options;
  const pipe = messagePipe(options.send, options.trace, { onRepliesHeldBack: () => emit(repliesHeldBackWarning(agent)) });
  const budget = new WarningBudget();
  const lineWarning = (line: string, reason: string) => {
    if (budget.admit(LINE_KIND + lineReasonKind(reason))) emit(badLineWarning(agent, line, reason));
  };
  const updateWarning = (event: AgentEvent) => {
    if (budget.admit(UPDATE_KIND)) emit(event);
  };
  return {
    pipe,
    // A value that is not a message is shown before the pipe answers it (and maybe says, once, that
    // it holds answers back); an answer to no request of ours is dropped by the pipe and shown.
    onMessage(value, line) {
      const why = notAMessage(value);
      if (why !== undefined) lineWarning(line, `not a JSON-RPC message: ${why}`);
      const dropped = pipe.deliver(value);
      if (why === undefined && dropped !== undefined) lineWarning(line, dropped);
    },
    // Shown first; then, if it was the answer to a request of ours, that request fails instead of
    // waiting forever (551), and otherwise the agent gets a JSON-RPC error back (556).
    onBadLine(line, reason) {
      lineWarning(line, reason);
      pipe.unreadable(line, reason);
    },
    emit(event) {
      if (event.type === 'agent.error' && event.payload.error_code === UPDATE_KIND) updateWarning(event);
      else emit(event);
    },
    sessionUpdate(params, apply) {
      const p = typeof params === 'object' && params !== null ? (params as { sessionId?: unknown; update?: unknown }) : {};
      if (typeof p.sessionId === 'string' && p.update !== undefined) return apply(p.sessionId, p.update);
      updateWarning(malformedParams(agent));
    },
    endTurn() {
      for (const { kind, held } of budget.drain()) emit(summary(agent, kind, held));
    },
  };
}

/** Said once per agent process, when the first reply to an unreadable line is held back (decision 556). */
function repliesHeldBackWarning(agent: Agent): AgentEvent {
  return warning(agent, 'UNPARSEABLE_OUTPUT', `${agent.displayName} writes more lines that cannot be read than we answer: from now on some get no JSON-RPC error back (at most ${REPLY_LIMITS.withIdPerSecond} a second for its requests, ${REPLY_LIMITS.withoutId} in all without an id)`);
}

function malformedParams(agent: Agent): AgentEvent {
  return warning(agent, UPDATE_KIND, `${agent.displayName} sent a session/update without a string sessionId and an update; it was skipped`);
}

/** How many warnings of one kind the turn did not show. */
function summary(agent: Agent, kind: string, held: number): AgentEvent {
  const more = `${held} more`;
  const rest = `only the first ${WARNINGS_PER_KIND} of a kind are shown in a turn`;
  if (kind === UPDATE_KIND) return warning(agent, UPDATE_KIND, `${agent.displayName} sent ${more} updates this client cannot read, not shown: ${rest}`);
  const why = kind.startsWith(LINE_KIND) ? kind.slice(LINE_KIND.length) : kind;
  return warning(agent, 'UNPARSEABLE_OUTPUT', `${agent.displayName} wrote ${more} lines that could not be read (${why}), not shown: ${rest}`);
}

function warning(agent: Agent, error_code: string, message: string): AgentEvent {
  return { type: 'agent.error', payload: { error_code, message, severity: 'warning', recoverable: true, details: { module: agent.id } } };
}
