// What the tools of a turn returned, for an agent without a model (AgentInfo.grammarOnly: the
// built-in agent). Its words only point at them ("Read `b.txt` (1 line).") and a chat shows the
// tool cards beside them, but `rawp run` prints the answer alone: `rawp run 'read b.txt'` printed
// no line of the file (the CLI trial of 2026-12-06). The main agent's successful results, in
// order, as text; subagents' are theirs. Bounded, as the answer a terminal takes should be.
// Not the agent's read before an edit (decision 702): `replace … in a.txt` printed the file's first
// line above the diff. That read (Read with limit 1, read-before-write.md) is a step of the edit
// that follows it at once, not an answer.
// A listing (Glob, LS, Grep's files mode) is a list of names, printed one a line: a name with a line
// break or another control character is shown JSON-quoted, as Grep's result lines show it (textPath,
// decision 705), so no name prints as two entries or as a line of another tool's output.
import type { Metadata } from '../protocol/envelope';
import { textPath } from '../tools/grepReport';

/** Characters kept in all (a 20 MB read prints its beginning and says the rest was left out). */
const MAX_CHARS = 4 * 1024 * 1024;

interface FrameLike {
  type: string;
  payload: unknown;
  metadata?: Metadata | null;
}

/** Tools that change a file the agent must have read first. */
const EDITS = new Set(['Edit', 'MultiEdit', 'Write']);

interface Kept {
  text: string;
  /** The file this output is a one-line read of (a read before an edit, when an edit of it follows). */
  lineOf?: string;
}

export class ToolOutputs {
  private readonly kept: Kept[] = [];
  private chars = 0;
  private cut = false;
  /** The one-line reads asked for and not answered yet: invocation id -> file. */
  private readonly oneLineReads = new Map<string, string>();

  observe(frame: FrameLike): void {
    if (frame.metadata?.subagent_context) return;
    if (frame.type === 'tool.invoke.request') return this.requested(frame.payload as { invocation_id?: unknown; tool_name?: unknown; input?: Record<string, unknown> });
    if (frame.type !== 'tool.invoke.result') return;
    const p = frame.payload as { invocation_id?: unknown; status?: unknown; output?: unknown; output_type?: unknown };
    const lineOf = typeof p.invocation_id === 'string' ? this.oneLineReads.get(p.invocation_id) : undefined;
    if (typeof p.invocation_id === 'string') this.oneLineReads.delete(p.invocation_id);
    if (p.status !== 'success' || p.output === null || p.output === undefined) return;
    const text = asText(p.output, p.output_type);
    if (text.length === 0 || this.cut) return;
    const room = MAX_CHARS - this.chars;
    if (text.length > room) this.cut = true;
    this.kept.push({ text: text.length > room ? text.slice(0, room) : text, ...(lineOf !== undefined ? { lineOf } : {}) });
    this.chars += Math.min(text.length, room);
  }

  /** The outputs in order; `cut` when the bound left the rest out. */
  list(): { outputs: string[]; cut: boolean } {
    return { outputs: this.kept.map((k) => k.text), cut: this.cut };
  }

  private requested(p: { invocation_id?: unknown; tool_name?: unknown; input?: Record<string, unknown> }): void {
    const file = p.input?.file_path;
    if (typeof file !== 'string') return;
    if (p.tool_name === 'Read' && p.input?.limit === 1 && typeof p.invocation_id === 'string') this.oneLineReads.set(p.invocation_id, file);
    // An edit of the file the last output read one line of: that read was the edit's first step.
    const last = this.kept.at(-1);
    if (typeof p.tool_name === 'string' && EDITS.has(p.tool_name) && last?.lineOf === file) {
      this.kept.pop();
      this.chars -= last.text.length;
    }
  }
}

/** An output as a terminal reads it: a diff as its unified diff, a list one entry a line (each entry
 * one line: textPath), text as it is. */
function asText(output: unknown, output_type: unknown): string {
  if (typeof output === 'string') return output;
  const diff = (output as { unified_diff?: unknown }).unified_diff;
  if (output_type === 'diff' && typeof diff === 'string') return diff;
  if (Array.isArray(output) && output.every((e) => typeof e === 'string')) return output.map(textPath).join('\n');
  return JSON.stringify(output, null, 2);
}
