// Compaction detection (§6.3.1 `session.compacted`). Claude Code says it compacted in two lines:
// `system/compact_boundary` (trigger and token counts), then a user message carrying the summary
// ("This session is being continued from a previous conversation … Summary: …"). Only both
// together make one `session.compacted`; a `system/status` with `compact_result: failed` ends it.
import type { PayloadOf } from '../../protocol/frameTypes';
import type { CompactMetadata } from './streamJson';

const CONTINUED = /continued from a previous conversation/i;
const SUMMARY = /Summary:\s*\n([\s\S]*?)(?:\n\nIf you need specific details|\n\nContinue the conversation|$)/;

export class CompactionWatch {
  private pending: { trigger: 'auto' | 'manual'; pre: number; post: number } | undefined;
  /** Override of the next compaction's trigger: `requested` when the master asked (§6.3.1). */
  requested = false;

  boundary(meta: CompactMetadata): void {
    this.pending = { trigger: meta.trigger, pre: meta.pre_tokens, post: meta.post_tokens ?? 0 };
  }

  /** The CLI could not compact: forget a master's request so the next auto compaction is `auto`. */
  failed(): void {
    this.requested = false;
    this.pending = undefined;
  }

  /** A user message's text after a boundary: the summary, as the `session.compacted` payload. */
  summaryMessage(text: string): PayloadOf<'session.compacted'> | undefined {
    const c = this.pending;
    if (!c || !CONTINUED.test(text)) return undefined;
    this.pending = undefined;
    const m = SUMMARY.exec(text);
    const trigger = this.requested ? 'requested' : c.trigger;
    this.requested = false;
    return { summary: (m ? m[1] : text).trim(), previous_token_count: c.pre, current_token_count: c.post, trigger };
  }

  get waitingForSummary(): boolean {
    return this.pending !== undefined;
  }
}
