// §4.1 text, §9 plan documents and §4.2 thinking: deltas accumulate per content_index inside
// their container (turn or subagent run); `done` closes the block. A later delta for an index
// whose block is closed starts a new block (agents such as Claude restart content_index at 0
// for every model message within one turn).
import { isCutOf } from '../cutMark';
import type { Frame, FrameOf } from '../frameTypes';
import { append, containerOf, newKey, scopeOf, touch, type Container, type Transcript } from './state';
import { REDACTED_THINKING, type TextBlock, type ThinkingBlock } from './types';

function contentKey(container: Container, tag: 't' | 'k', contentIndex: number): string {
  return `${container.key}|${tag}|${contentIndex}`;
}

/** The open block for this index, or undefined when a new one must start. */
function openBlock<B extends TextBlock | ThinkingBlock>(t: Transcript, key: string): B | undefined {
  const block = t.idx.content.get(key) as B | undefined;
  // A block closed only by finalization keeps receiving what still arrives: nothing is lost.
  if (block && (!block.done || block.finalized)) return block;
  return undefined;
}

function newTextBlock(t: Transcript, frame: Frame, container: Container, contentIndex: number): TextBlock {
  const plan = frame.metadata?.content_role === 'plan';
  const block: TextBlock = {
    kind: plan ? 'plan' : 'text',
    key: newKey(t, 'text'),
    rev: 0,
    contentIndex,
    text: '',
    done: false,
    cancelled: false,
    repaired: false,
    finalized: false,
    ...scopeOf(t, frame),
  };
  if (plan && frame.metadata?.plan_id !== undefined) block.planId = frame.metadata.plan_id;
  append(t, container, block);
  t.idx.content.set(contentKey(container, 't', contentIndex), block);
  if (plan) t.plans.push(block);
  return block;
}

/** §9.1 a block becomes a plan when any of its frames says so. */
function markPlan(t: Transcript, block: TextBlock, frame: Frame): void {
  if (frame.metadata?.content_role !== 'plan') return;
  if (block.kind !== 'plan') {
    block.kind = 'plan';
    t.plans.push(block);
  }
  if (block.planId === undefined && frame.metadata.plan_id !== undefined) block.planId = frame.metadata.plan_id;
}

export function onTextDelta(t: Transcript, frame: FrameOf<'agent.text.delta'>): void {
  const container = containerOf(t, frame);
  const { content_index, text } = frame.payload;
  let block = openBlock<TextBlock>(t, contentKey(container, 't', content_index));
  if (!block) {
    block = newTextBlock(t, frame, container, content_index);
    t.idx.streaming.add(block);
  }
  markPlan(t, block, frame);
  block.text += text;
  touch(t, block.key);
}

export function onTextDone(t: Transcript, frame: FrameOf<'agent.text.done'>): void {
  const container = containerOf(t, frame);
  const { content_index, full_text, is_cancelled } = frame.payload;
  const key = contentKey(container, 't', content_index);
  let block = openBlock<TextBlock>(t, key);
  if (!block) {
    // A done without deltas brings its whole text in `full_text`; without one, or repeating a
    // closed block's text, it has nothing to show and creates no empty block.
    const last = t.idx.content.get(key);
    if (full_text === undefined || (last !== undefined && (last.text === full_text || isCutOf(full_text, last.text)))) return;
    block = newTextBlock(t, frame, container, content_index);
  }
  markPlan(t, block, frame);
  // §4.1.2 `full_text` is the sender's whole text; when the deltas disagree (lost or reordered), it
  // wins. Unless it was cut in the middle to fit this view (decision 516) and the deltas, each small
  // enough to come whole, hold exactly what the cut left out: then they are the whole text.
  if (full_text !== undefined && full_text !== block.text && !isCutOf(full_text, block.text)) {
    block.repaired = block.text !== '';
    block.text = full_text;
  }
  if (is_cancelled === true) block.cancelled = true;
  block.done = true;
  block.finalized = false;
  t.idx.streaming.delete(block);
  touch(t, block.key);
}

export function onThinkingDelta(t: Transcript, frame: FrameOf<'agent.thinking.delta'>): void {
  const container = containerOf(t, frame);
  const { content_index, text, redacted } = frame.payload;
  const key = contentKey(container, 'k', content_index);
  let block = openBlock<ThinkingBlock>(t, key);
  if (!block) {
    block = append(t, container, {
      kind: 'thinking',
      key: newKey(t, 'thinking'),
      rev: 0,
      contentIndex: content_index,
      text: '',
      redacted: false,
      done: false,
      finalized: false,
      ...scopeOf(t, frame),
    } satisfies ThinkingBlock);
    t.idx.content.set(key, block);
    t.idx.streaming.add(block);
  }
  if (redacted === true) {
    // §15.3: the raw text of a redacted delta is never stored; a run of them shows one mask.
    block.redacted = true;
    if (!t.idx.redactedTail.has(block)) {
      block.text += REDACTED_THINKING;
      t.idx.redactedTail.add(block);
    }
  } else {
    t.idx.redactedTail.delete(block);
    block.text += text;
  }
  touch(t, block.key);
}

export function onThinkingDone(t: Transcript, frame: FrameOf<'agent.thinking.done'>): void {
  const container = containerOf(t, frame);
  const key = contentKey(container, 'k', frame.payload.content_index);
  const block = openBlock<ThinkingBlock>(t, key);
  // A done for a block that never streamed (or is already closed) has nothing to close.
  if (!block) return;
  block.done = true;
  block.finalized = false;
  t.idx.streaming.delete(block);
  t.idx.redactedTail.delete(block);
  touch(t, block.key);
}
