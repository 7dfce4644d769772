// §4.3 questions to the user and §6.2 their answers. An answer that arrives before its question
// (possible after a history is reordered by timestamp, §2.3) is kept and applied when it comes.
import type { FrameOf } from '../frameTypes';
import { append, containerOf, newKey, scopeOf, touch, type Transcript } from './state';
import type { InteractionBlock } from './types';

type Answer = FrameOf<'control.interaction.response'> | FrameOf<'control.interaction.timeout'>;

export function onInteractionRequest(t: Transcript, frame: FrameOf<'agent.interaction.request'>): void {
  const id = frame.payload.interaction_id;
  if (t.idx.interactions.has(id)) return;
  const block = append(t, containerOf(t, frame), {
    kind: 'interaction',
    key: newKey(t, 'interaction'),
    rev: 0,
    interactionId: id,
    request: frame.payload,
    status: 'pending',
    synthetic: false,
    ...scopeOf(t, frame),
  } satisfies InteractionBlock);
  t.idx.interactions.set(id, block);
  t.idx.pendingInteractions.add(block);
  const early = t.idx.earlyAnswers.get(id);
  if (early) {
    t.idx.earlyAnswers.delete(id);
    settle(t, block, early);
  }
}

export function onInteractionAnswer(t: Transcript, frame: Answer): void {
  const block = t.idx.interactions.get(frame.payload.interaction_id);
  if (block) settle(t, block, frame);
  else if (!t.idx.earlyAnswers.has(frame.payload.interaction_id)) t.idx.earlyAnswers.set(frame.payload.interaction_id, frame);
}

function settle(t: Transcript, block: InteractionBlock, frame: Answer): void {
  // The first answer decides; a discard by finalization is only a placeholder and gives way.
  if (block.status !== 'pending' && !(block.status === 'discarded' && block.synthetic)) return;
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
}
