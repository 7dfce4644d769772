// Where an ACP agent's stdout lines go: each message into the pipe to the SDK (stream.ts), and
// each line that is not one shown as a warning (decision 551) and answered within bounds (556).
import type { AgentEvent } from '../../session/agentAdapter';
import { badLineWarning } from './badLines';
import { notAMessage } from './rpcShape';
import { messagePipe, type MessagePipe, type TraceDirection } from './stream';
import { REPLY_LIMITS } from './unreadableReplies';

export interface AgentLines {
  pipe: MessagePipe;
  onMessage(value: unknown, line: string): void;
  onBadLine(line: string, reason: string): void;
}

type Agent = { id: string; displayName: string };

export function agentLines(options: { agent: Agent; send(msg: unknown): boolean; emit(event: AgentEvent): void; trace?(direction: TraceDirection, message: unknown): void }): AgentLines {
  const { agent, emit } = options;
  const pipe = messagePipe(options.send, options.trace, { onRepliesHeldBack: () => emit(repliesHeldBackWarning(agent)) });
  return {
    pipe,
    // A value that is not a message is shown before the pipe answers it (and maybe says, once, that
    // it holds answers back).
    onMessage(value, line) {
      const why = notAMessage(value);
      if (why !== undefined) emit(badLineWarning(agent, line, `not a JSON-RPC message: ${why}`));
      pipe.deliver(value);
    },
    // Shown first; then, if it was the answer to a request of ours, that request fails instead of
    // waiting forever (551), and otherwise the agent gets a JSON-RPC error back (556).
    onBadLine(line, reason) {
      emit(badLineWarning(agent, line, reason));
      pipe.unreadable(line, reason);
    },
  };
}

/** Said once per agent process, when the first reply to an unreadable line is held back (decision 556). */
function repliesHeldBackWarning(agent: Agent): AgentEvent {
  return {
    type: 'agent.error',
    payload: {
      error_code: 'UNPARSEABLE_OUTPUT',
      message: `${agent.displayName} writes more lines that cannot be read than we answer: from now on some get no JSON-RPC error back (at most ${REPLY_LIMITS.withIdPerSecond} a second for its requests, ${REPLY_LIMITS.withoutId} in all without an id)`,
      severity: 'warning',
      recoverable: true,
      details: { module: agent.id },
    },
  };
}
