// §4.3 questions to the user and §6.2 their answers. An answer that arrives before its question
// (possible after a history is reordered by timestamp, §2.3) is kept and applied when it comes.
// A question also ends without an answer: a cancel of its turn (§6.1.2: the client discards open
// questions at once), the end of its turn (§7.5.2), or a refusal of our answer because the client
// no longer had it open (answered by another master, or its own timeout_sec ran out). Each retires
// the card at once, so no view keeps live buttons that can only earn an UNKNOWN_INTERACTION error.
import type { FrameOf } from '../frameTypes';
import { append, containerOf, currentTurn, newKey, register, scopeOf, touch, type Container, type Transcript } from './state';
import type { InteractionBlock, InteractionRetiredBy, TextBlock, ToolBlock } from './types';

/** Tools whose permission is the approval of the plan just shown (Claude Code's ExitPlanMode, §9.2). */
export const PLAN_TOOLS: ReadonlySet<string> = new Set(['ExitPlanMode', 'exit_plan_mode']);

/**
 * §9.2: an agent shows a plan, then asks for its approval (YN; Claude Code asks the permission of
 * ExitPlanMode). The question belongs to the latest plan of its container when nothing but tool
 * calls came between: the plan then has one approval control (issue 15 Why 7), for every agent.
 */
function planAwaitingApproval(container: Container, block: InteractionBlock): TextBlock | undefined {
  const req = block.request;
  const approves = req.interaction_type === 'YN' || (req.interaction_type === 'PERMISSION' && req.context?.tool_name !== undefined && PLAN_TOOLS.has(req.context.tool_name));
  if (!approves) return undefined;
  // The question itself is the last block; walk back over tool calls only, and not far.
  for (let i = container.blocks.length - 2, steps = 0; i >= 0 && steps < 8; i--, steps++) {
    const b = container.blocks[i];
    if (b.kind === 'plan') return b.approval === undefined ? b : undefined;
    if (b.kind !== 'tool') return undefined;
  }
  return undefined;
}

type Answer = FrameOf<'control.interaction.response'> | FrameOf<'control.interaction.timeout'>;

/** The error code a client answers with when the interaction is not open (§6.2, our session engine). */
export const UNKNOWN_INTERACTION = 'UNKNOWN_INTERACTION';

export function onInteractionRequest(t: Transcript, frame: FrameOf<'agent.interaction.request'>): void {
  const id = frame.payload.interaction_id;
  if (t.idx.interactions.has(id)) return;
  const turnId = frame.turn_id ?? currentTurn(t)?.turnId;
  const container = containerOf(t, frame);
  const block: InteractionBlock = append(t, container, {
    kind: 'interaction',
    key: newKey(t, 'interaction'),
    rev: 0,
    interactionId: id,
    request: frame.payload,
    askedAt: frame.timestamp,
    status: 'pending',
    synthetic: false,
    ...(turnId !== undefined ? { turnId } : {}),
    ...scopeOf(t, frame),
  } satisfies InteractionBlock);
  t.idx.interactions.set(id, block);
  t.idx.pendingInteractions.add(block);
  const plan = planAwaitingApproval(container, block);
  const tool = plan ? undefined : askingTool(t, block);
  if (plan) {
    plan.approval = block;
    block.planKey = plan.key;
    // Changes of the answer re-render the plan that shows it.
    register(t, block, plan.key);
    touch(t, block.key);
  } else if (tool) {
    // The call waits for this answer, not running yet ("Running" before, the trial of 2026-12-06):
    // changes of the question re-render its card.
    tool.asking = block;
    register(t, block, tool.key);
    touch(t, block.key);
  }
  const early = t.idx.earlyAnswers.get(id);
  if (early) {
    t.idx.earlyAnswers.delete(id);
    settle(t, block, early);
  }
}

export function onInteractionAnswer(t: Transcript, frame: Answer): void {
  const block = t.idx.interactions.get(frame.payload.interaction_id);
  if (block) {
    if (settle(t, block, frame)) {
      if (frame.type === 'control.interaction.response') t.idx.answerMessages.set(frame.message_id, block);
    } else if (block.status === 'answered' && !t.idx.laterAnswers.has(block.interactionId)) t.idx.laterAnswers.set(block.interactionId, frame);
  } else if (!t.idx.earlyAnswers.has(frame.payload.interaction_id)) t.idx.earlyAnswers.set(frame.payload.interaction_id, frame);
}

/**
 * The call a PERMISSION question is about: `context.invocation_id` when the agent names it, else
 * the latest still-open call of the same tool in the same scope (the runner asks between the
 * call's request and its result).
 */
function askingTool(t: Transcript, block: InteractionBlock): ToolBlock | undefined {
  const req = block.request;
  if (req.interaction_type !== 'PERMISSION') return undefined;
  const named = (req.context as { invocation_id?: unknown } | undefined)?.invocation_id;
  if (typeof named === 'string') return t.idx.tools.get(named);
  const name = req.context?.tool_name;
  if (name === undefined) return undefined;
  let found: ToolBlock | undefined;
  for (const tool of t.idx.openTools) if (tool.toolName === name && tool.scope === block.scope && tool.permissionWaitMs === undefined) found = tool;
  return found;
}

/** Decision 565: the time a call waited for its permission answer, kept on the call. */
function noteWait(t: Transcript, block: InteractionBlock, frame: Answer): void {
  const tool = askingTool(t, block);
  if (!tool) return;
  const wait = Date.parse(frame.timestamp) - Date.parse(block.askedAt ?? '');
  if (!Number.isFinite(wait) || wait <= 0) return;
  tool.permissionWaitMs = wait;
  touch(t, tool.key);
}

function settle(t: Transcript, block: InteractionBlock, frame: Answer): boolean {
  // The first answer decides; a discard by finalization is only a placeholder and gives way.
  if (block.status !== 'pending' && !(block.status === 'discarded' && block.synthetic)) return false;
  if (frame.type === 'control.interaction.timeout' && frame.metadata?.synthetic === true) {
    // §7.8.2: the host that asked died (a reload, a crash) and the one that restored the session
    // closed the question. Nobody let it run out: saying "not answered in time" would blame the
    // person (the trial of 2026-12-06). The wait is not the call's either: none is noted.
    retire(t, block, 'host_restart');
    return true;
  }
  if (frame.type === 'control.interaction.response') {
    block.status = 'answered';
    block.response = { selectedValue: frame.payload.selected_value };
    if (frame.payload.text_input !== undefined) block.response.textInput = frame.payload.text_input;
  } else {
    block.status = 'timed_out';
  }
  block.synthetic = false;
  t.idx.pendingInteractions.delete(block);
  touch(t, block.key);
  noteWait(t, block, frame);
  return true;
}

function retire(t: Transcript, block: InteractionBlock, by: InteractionRetiredBy): void {
  block.status = 'discarded';
  block.synthetic = false;
  block.retiredBy = by;
  delete block.response;
  t.idx.pendingInteractions.delete(block);
  touch(t, block.key);
}

/**
 * §6.1.2 / §7.5.2: the turn was cancelled or ended, so its open questions are gone at the client
 * (it discards them on both). A question without a turn id belongs to whatever turn is running.
 */
export function retireTurnInteractions(t: Transcript, turnId: string, by: InteractionRetiredBy): void {
  for (const block of [...t.idx.pendingInteractions]) {
    if (block.synthetic) continue; // finalization's placeholders stay for unfinalize (§7.8.3)
    if (block.turnId === undefined || block.turnId === turnId) retire(t, block, by);
  }
}

/**
 * A `session.error` UNKNOWN_INTERACTION whose parent_id is an answer this transcript applied: the
 * client no longer had the question, so the optimistic "Answered" is withdrawn and the card says
 * so. Returns true when the error was about such an answer (the card tells it; no red block).
 */
export function onRefusedAnswer(t: Transcript, frame: FrameOf<'session.error'>): boolean {
  if (frame.payload.error_code !== UNKNOWN_INTERACTION || frame.parent_id === undefined) return false;
  const block = t.idx.answerMessages.get(frame.parent_id);
  if (!block) return false;
  t.idx.answerMessages.delete(frame.parent_id);
  if (block.status !== 'answered') return true;
  retire(t, block, 'not_open');
  // Another master's answer that came second here was the one the client took.
  const later = t.idx.laterAnswers.get(block.interactionId);
  if (later) {
    t.idx.laterAnswers.delete(block.interactionId);
    delete block.retiredBy;
    block.status = 'pending';
    settle(t, block, later);
  }
  return true;
}
