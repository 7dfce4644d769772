// An adapter's question to the user during a turn (§4.3, §17.3.1): it gets a unique id, a
// PERMISSION question names its tool, the agent is `awaiting_input` while it waits, and after the
// answer the state goes back to what the turn is doing by then (§4.6.1).
import type { InteractionAnswer } from './agentAdapter';
import { newId } from '../protocol/build';
import type { Metadata } from '../protocol/envelope';
import type { PayloadOf } from '../protocol/frameTypes';
import type { ActiveTurn } from './activeTurn';
import type { InteractionBook } from './interactions';
import type { Logger } from './ports';

export interface TurnQuestionsSession {
  currentTurn(): ActiveTurn | undefined;
  ending(): boolean;
  interactions: InteractionBook;
  state(): string;
  setState(next: string, reason: string): void;
  emitRequest(request: PayloadOf<'agent.interaction.request'>, metadata: Metadata | undefined): void;
  logger: Logger;
}

export async function askDuringTurn(s: TurnQuestionsSession, request: PayloadOf<'agent.interaction.request'>, metadata: Metadata | undefined): Promise<InteractionAnswer> {
  const turn = s.currentTurn();
  if (!turn || turn.stream.cancelling || s.ending()) return { kind: 'cancelled' };
  // A fresh id when the adapter gave none or one that is still waiting (answers must not cross).
  const interaction_id = request.interaction_id && !s.interactions.has(request.interaction_id) ? request.interaction_id : newId();
  const req = { ...request, interaction_id };
  if (req.interaction_type === 'PERMISSION' && !req.context?.tool_name) {
    // §17.3.1-2: a permission question names its tool. An adapter that left it out asks about
    // the call it just made: the latest one still running.
    const tool_name = turn.stream.latestOpenTool();
    if (tool_name) req.context = { ...req.context, tool_name };
    else s.logger.warn('PERMISSION interaction without context.tool_name and no running call to name (§17.3.1-2)');
  }
  s.emitRequest(req, metadata);
  const before = s.state();
  s.setState('awaiting_input', 'interaction');
  const answer = await s.interactions.open(req);
  if (s.currentTurn() === turn && !s.ending() && s.interactions.size === 0 && s.state() === 'awaiting_input') {
    // Back to what the turn is doing now: a tool may have finished while the question waited.
    const now = before === 'thinking' || before === 'tool_calling' ? (turn.stream.openToolCount > 0 ? 'tool_calling' : 'thinking') : before;
    s.setState(now, 'interaction_answered');
  }
  return answer;
}
