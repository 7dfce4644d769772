// The text and thinking blocks of one Claude Code turn (§4.1, §4.2): each gets the next
// `content_index`, its deltas, and one done (`full_text`, `is_cancelled` when the turn was cut).
// Blocks are keyed by the caller (the stream position, or a whole block's own key).
import type { AgentEvent } from '../../session/agentAdapter';
import type { Metadata } from '../../protocol/envelope';

interface OpenBlock {
  content_index: number;
  kind: 'text' | 'thinking';
  text: string;
  metadata?: Metadata;
  /** §15.3: a redacted thinking block; whatever is sent into it is never shown (decision 715). */
  redacted?: true;
}

function withMetadata(event: AgentEvent, metadata: Metadata | undefined): AgentEvent {
  return metadata ? { ...event, metadata } : event;
}

export class ContentBlocks {
  private nextIndex = 0;
  private readonly open = new Map<string, OpenBlock>();

  get size(): number {
    return this.open.size;
  }

  start(key: string, kind: 'text' | 'thinking', metadata: Metadata | undefined): void {
    this.open.set(key, { content_index: this.nextIndex++, kind, text: '', metadata });
  }

  /** §15.3 redacted thinking: the content is encrypted; say that there was thinking, never show it. */
  startRedacted(key: string, metadata: Metadata | undefined): AgentEvent {
    const content_index = this.nextIndex++;
    this.open.set(key, { content_index, kind: 'thinking', text: '', metadata, redacted: true });
    return withMetadata({ type: 'agent.thinking.delta', payload: { content_index, text: '', redacted: true } }, metadata);
  }

  delta(key: string, text: string): AgentEvent | undefined {
    const b = this.open.get(key);
    // A delta on a redacted block's index (thinking or text) would show in clear what the block
    // stands for being hidden: dropped, the block stays the one redacted delta it began with.
    if (!b || b.redacted) return undefined;
    b.text += text;
    const payload = { content_index: b.content_index, text };
    return withMetadata(b.kind === 'text' ? { type: 'agent.text.delta', payload } : { type: 'agent.thinking.delta', payload }, b.metadata);
  }

  close(key: string, cancelled: boolean): AgentEvent | undefined {
    const b = this.open.get(key);
    if (!b) return undefined;
    this.open.delete(key);
    if (b.kind === 'thinking') return withMetadata({ type: 'agent.thinking.done', payload: { content_index: b.content_index } }, b.metadata);
    return withMetadata({ type: 'agent.text.done', payload: { content_index: b.content_index, full_text: b.text, ...(cancelled ? { is_cancelled: true } : {}) } }, b.metadata);
  }

  /** Close every open block (the turn ended or was cut). */
  closeAll(cancelled: boolean): AgentEvent[] {
    return [...this.open.keys()].flatMap((k) => this.close(k, cancelled) ?? []);
  }

  /** A block that arrives whole (no partial messages, or a subagent's message): delta + done. */
  whole(kind: 'text' | 'thinking', text: string, metadata: Metadata | undefined): AgentEvent[] {
    const key = `whole#${this.nextIndex}`;
    this.start(key, kind, metadata);
    return [this.delta(key, text), this.close(key, false)].flatMap((e) => e ?? []);
  }

  /** A new turn numbers its blocks from 0 again. */
  reset(): void {
    this.nextIndex = 0;
    this.open.clear();
  }
}
