// §10.5: a subagent's own token usage, reported on its own (translate.ts sends it with the
// subagent's context right before its `agent.subagent.ended`). Claude Code gives it in two places:
//  - every model call of a foreground subagent except its last is an `assistant` line with
//    `parent_tool_use_id` (one line per content block, one message id), carrying the call's usage
//    as it stood when the call began: the input and cache counts are final, the output count is
//    not (the CLI writes the line before the call's `message_delta`), so it is a lower bound;
//  - the last call, the subagent's answer, is written as no line of its own: the Agent tool's
//    `tool_use_result.usage` holds it, with exact counts.
// Only these are the subagent's; the main agent's context (usageMeter.ts) never sees them, and the
// turn's `result.usage` counts the main agent's calls alone (checked against claude 2.1.33x).
import { z } from 'zod';
import { NativeUsage } from './streamJson';
import { nonNegInt } from '../../session/usage';

/** The part of the Agent tool's `tool_use_result` read here; anything else is ignored. */
const AgentToolResult = z.looseObject({ usage: NativeUsage.optional().catch(undefined) });

interface ModelCall {
  usage: NativeUsage;
  /** A call that asked for a tool is not the answer; one that did not is (the last call). */
  toolUse: boolean;
}

export interface SubagentTokens {
  token_usage: { input_tokens: number; output_tokens: number; cache_read_tokens: number; cache_write_tokens: number };
  /** What the subagent's own context held at its last call (never the main agent's context). */
  context_used: number;
}

const ANSWER = '(answer)';


export class SubagentUsage {
  /** Per subagent call (the Agent tool_use id): its model calls by message id. */
  private readonly runs = new Map<string, Map<string, ModelCall>>();
  private anonymous = 0;

  /** A model call of the subagent started by `parent` (an assistant line or a stream's message_start). */
  noteCall(parent: string, messageId: string | undefined, usage: NativeUsage | null | undefined, toolUse: boolean): void {
    if (!usage) return;
    const calls = this.run(parent);
    const key = messageId || `anon-${this.anonymous++}`;
    const seen = calls.get(key);
    // The lines of one message repeat its usage; a later one may only add the tool use.
    calls.set(key, { usage: seen?.usage ?? usage, toolUse: toolUse || (seen?.toolUse ?? false) });
  }

  /** The Agent tool's structured result: the subagent's answer with its exact usage. */
  noteAnswer(parent: string, toolUseResult: unknown): void {
    const parsed = AgentToolResult.safeParse(toolUseResult);
    const usage = parsed.success ? parsed.data.usage : undefined;
    if (!usage) return;
    const calls = this.run(parent);
    // A CLI that did write the answer as a line (a call without a tool use) would count it twice.
    for (const [key, call] of calls) if (!call.toolUse) calls.delete(key);
    calls.set(ANSWER, { usage, toolUse: false });
  }

  /** The subagent ended: its totals, or undefined when none of its model calls was seen. */
  end(parent: string): SubagentTokens | undefined {
    const calls = this.runs.get(parent);
    this.runs.delete(parent);
    if (!calls || calls.size === 0) return undefined;
    const token_usage = { input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0 };
    let last: NativeUsage | undefined;
    for (const { usage } of calls.values()) {
      token_usage.input_tokens = nonNegInt(token_usage.input_tokens + nonNegInt(usage.input_tokens));
      token_usage.output_tokens = nonNegInt(token_usage.output_tokens + nonNegInt(usage.output_tokens));
      token_usage.cache_read_tokens = nonNegInt(token_usage.cache_read_tokens + nonNegInt(usage.cache_read_input_tokens));
      token_usage.cache_write_tokens = nonNegInt(token_usage.cache_write_tokens + nonNegInt(usage.cache_creation_input_tokens));
      last = usage; // Map order is arrival order; the answer is set last.
    }
    const context_used = last ? nonNegInt(nonNegInt(last.input_tokens) + nonNegInt(last.cache_read_input_tokens) + nonNegInt(last.cache_creation_input_tokens) + nonNegInt(last.output_tokens)) : 0;
    return { token_usage, context_used };
  }

  /** A new turn: runs of the last one that never ended are forgotten. */
  reset(): void {
    this.runs.clear();
  }

  private run(parent: string): Map<string, ModelCall> {
    let calls = this.runs.get(parent);
    if (!calls) this.runs.set(parent, (calls = new Map()));
    return calls;
  }
}
