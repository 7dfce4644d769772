// What the tools of a turn returned, for an agent without a model (AgentInfo.grammarOnly: the
// built-in agent). Its words only point at them ("Read `b.txt` (1 line).") and a chat shows the
// tool cards beside them, but `rawp run` prints the answer alone: `rawp run 'read b.txt'` printed
// no line of the file (the CLI trial of 2026-12-06). The main agent's successful results, in
// order, as text; subagents' are theirs. Bounded, as the answer a terminal takes should be.
import type { Metadata } from '../protocol/envelope';

/** Characters kept in all (a 20 MB read prints its beginning and says the rest was left out). */
const MAX_CHARS = 4 * 1024 * 1024;

interface FrameLike {
  type: string;
  payload: unknown;
  metadata?: Metadata | null;
}

export class ToolOutputs {
  private readonly outputs: string[] = [];
  private chars = 0;
  private cut = false;

  observe(frame: FrameLike): void {
    if (frame.type !== 'tool.invoke.result' || frame.metadata?.subagent_context) return;
    const p = frame.payload as { status?: unknown; output?: unknown; output_type?: unknown };
    if (p.status !== 'success' || p.output === null || p.output === undefined) return;
    const text = asText(p.output, p.output_type);
    if (text.length === 0 || this.cut) return;
    const room = MAX_CHARS - this.chars;
    if (text.length > room) this.cut = true;
    this.outputs.push(text.length > room ? text.slice(0, room) : text);
    this.chars += Math.min(text.length, room);
  }

  /** The outputs in order; `cut` when the bound left the rest out. */
  list(): { outputs: string[]; cut: boolean } {
    return { outputs: [...this.outputs], cut: this.cut };
  }
}

/** An output as a terminal reads it: a diff as its unified diff, a list one entry a line, text as it is. */
function asText(output: unknown, output_type: unknown): string {
  if (typeof output === 'string') return output;
  const diff = (output as { unified_diff?: unknown }).unified_diff;
  if (output_type === 'diff' && typeof diff === 'string') return diff;
  if (Array.isArray(output) && output.every((e) => typeof e === 'string')) return output.join('\n');
  return JSON.stringify(output, null, 2);
}
