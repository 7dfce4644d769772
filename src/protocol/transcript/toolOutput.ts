// One rendering per fact (issue 15 Why 7): a tool's live output (§5.2 tool.invoke.stream) and its
// result (§5.3 tool.invoke.result) often carry the same text — Bash streams stdout and then
// returns it, Claude Code and Codex repeat it in the result, an ACP agent nests it in a
// structured result. A view shows the output once: the result when it holds what was streamed,
// the stream when it holds the result, both only when each says something the other does not
// (e.g. a stream of output and a result that is only "[exit code 2]"). Pure and bounded, for
// every agent and every view (the webview, the terminal master).
import type { ToolBlock } from './types';

export interface ToolOutputPlan {
  /** Show the streamed chunks. */
  stream: boolean;
  /** Show the result's output. */
  result: boolean;
}

/** Past this many characters the comparison looks at the tails only (what a view keeps). */
const COMPARE_LIMIT = 256 * 1024;
/** String leaves of a structured result that are looked at, and how deep. */
const MAX_LEAVES = 64;
const MAX_DEPTH = 4;

function normalize(text: string): string {
  return text.replace(/\r\n?/g, '\n').trim();
}

function tailOf(text: string): string {
  return text.length > COMPARE_LIMIT ? text.slice(text.length - COMPARE_LIMIT) : text;
}

/** The text a result shows: a string, or the string leaves of a structured output (stdout, stderr, …). */
function resultTexts(output: unknown): string[] {
  if (typeof output === 'string') return [output];
  const out: string[] = [];
  const walk = (v: unknown, depth: number) => {
    if (out.length >= MAX_LEAVES || depth > MAX_DEPTH) return;
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) for (const x of v.slice(0, MAX_LEAVES)) walk(x, depth + 1);
    else if (typeof v === 'object' && v !== null) for (const x of Object.values(v).slice(0, MAX_LEAVES)) walk(x, depth + 1);
  };
  walk(output, 0);
  return out;
}

/** The streamed text in `sequence` order (stdout and stderr interleaved as they arrived). */
export function streamedText(tool: ToolBlock): string {
  let size = 0;
  const parts: string[] = [];
  // Newest first, so a huge stream costs at most COMPARE_LIMIT characters.
  for (let i = tool.chunks.length - 1; i >= 0 && size < COMPARE_LIMIT; i--) {
    parts.push(tool.chunks[i].chunk);
    size += tool.chunks[i].chunk.length;
  }
  return parts.reverse().join('');
}

/** What of a tool's output a view should show so that each fact appears once. */
export function toolOutputPlan(tool: ToolBlock): ToolOutputPlan {
  const r = tool.result;
  if (tool.chunks.length === 0) return { stream: false, result: r !== undefined };
  if (!r) return { stream: true, result: false };
  const streamed = normalize(tailOf(streamedText(tool)));
  if (streamed === '') return { stream: false, result: true };
  const texts = resultTexts(r.output).map((x) => normalize(tailOf(x)));
  const joined = normalize(texts.join('\n'));
  // A result with nothing to say (no output): the stream is the output.
  if (joined === '') return { stream: true, result: false };
  // The result holds what was streamed (Bash returns its stdout; structured stdout/stderr): the result.
  if (texts.some((x) => x.includes(streamed)) || joined.includes(streamed)) return { stream: false, result: true };
  // The stream holds the result (a clipped tail, or the same text): the stream keeps stdout/stderr apart.
  if (streamed.includes(joined)) return { stream: true, result: false };
  return { stream: true, result: true };
}
