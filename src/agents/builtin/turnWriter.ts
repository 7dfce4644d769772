// Streams one agent's text and thinking blocks: deltas in small word-aligned chunks, then `done`.
// content_index counts blocks within a turn (per agent: a subagent's writer has its own count,
// its frames are told apart by subagent_context).
import type { AgentEvent } from '../../session/agentAdapter';
import type { Metadata } from '../../protocol/envelope';

const CHUNK = 48;
/** A block never streams in more deltas than this: a reply echoing a 200 KB prompt must not become 12,000 frames (issue 12 finding 2). */
const MAX_DELTAS = 256;

/** Splits text into pieces of about CHUNK characters (more for long texts), cutting after whitespace. */
export function chunks(text: string): string[] {
  const out: string[] = [];
  const size = Math.max(CHUNK, Math.ceil(text.length / MAX_DELTAS));
  let rest = text;
  while (rest.length > size) {
    const cut = rest.slice(0, size).search(/\s\S*$/);
    const at = cut > 0 ? cut + 1 : size;
    out.push(rest.slice(0, at));
    rest = rest.slice(at);
  }
  if (rest.length > 0 || out.length === 0) out.push(rest);
  return out;
}

export class TurnWriter {
  private index = 0;
  /** Everything said, in order (a subagent's result). */
  readonly said: string[] = [];

  constructor(private readonly emit: (event: AgentEvent) => void) {}

  thinking(text: string): void {
    const content_index = this.index++;
    for (const piece of chunks(text)) this.emit({ type: 'agent.thinking.delta', payload: { content_index, text: piece } });
    this.emit({ type: 'agent.thinking.done', payload: { content_index } });
  }

  text(text: string, metadata?: Metadata): void {
    const content_index = this.index++;
    for (const piece of chunks(text)) this.emit({ type: 'agent.text.delta', payload: { content_index, text: piece }, ...(metadata ? { metadata } : {}) });
    this.emit({ type: 'agent.text.done', payload: { content_index, full_text: text }, ...(metadata ? { metadata } : {}) });
    this.said.push(text);
  }
}
