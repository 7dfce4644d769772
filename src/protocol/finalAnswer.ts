// The agent's answer of a turn, as `claude -p` prints it: the text the main agent wrote after its
// last tool call (its last step), its blocks joined by a blank line. Subagents' text (§10.2
// `subagent_context`) is theirs, not the answer. Used by the engine to parse a structured answer
// (§11) and by `rawp run` to print one. A turn that ended on a tool call has no answer ('').
// Fed frame by frame, so neither keeps the transcript.
import type { Metadata } from './envelope';

interface FrameLike {
  type: string;
  payload: unknown;
  metadata?: Metadata | null;
}

export class FinalAnswer {
  /** Text blocks of the current step, by content_index, in order of arrival. */
  private blocks = new Map<number, string>();

  observe(frame: FrameLike): void {
    if (frame.metadata?.subagent_context) return;
    const p = frame.payload as { content_index?: unknown; full_text?: unknown; text?: unknown } | undefined;
    switch (frame.type) {
      case 'tool.invoke.request':
        this.blocks = new Map();
        return;
      case 'agent.text.delta':
        if (typeof p?.content_index === 'number' && typeof p.text === 'string') this.blocks.set(p.content_index, (this.blocks.get(p.content_index) ?? '') + p.text);
        return;
      case 'agent.text.done':
        if (typeof p?.content_index === 'number' && typeof p.full_text === 'string') {
          this.blocks.set(p.content_index, p.full_text);
        }
        return;
    }
  }

  /** The last step's text ('' when the turn ended on a tool call). */
  text(): string {
    return [...this.blocks.values()].filter((t) => t.length > 0).join('\n\n');
  }
}
