// What "Find in chat" searches (decision 524): each row's text as the view shows it, built from the
// transcript model (rows not in the DOM are searched too) and lower-cased once. Texts are kept per
// block and its `rev` (the reducer bumps `rev` when a block or anything in it changes), so typing
// in the find box, or a recount after a frame, rebuilds only the blocks that changed.
// The view shows a bounded part of huge outputs (MAX_TEXT, MAX_LINES, MAX_MARKDOWN): so is the
// search, which keeps its cost bounded and never counts a match the view cannot show.
import { REDACTED_THINKING, extractTodos, shownAsBlock, toolOutputPlan, type Block, type ToolBlock } from '../../../src/protocol/transcript';
import { decodePrompt } from '../../../src/protocol/fileReference';
import { showJson, tail } from '../format';
import { codeSentence, hasSentence } from '../i18n/codes';
import { numberLines } from './fileContent';
import { questionText } from './interaction';
import { MAX_LINES, MAX_TEXT, asText, diffHunks, listPaths } from './outputs';
import type { Row } from './rows';
import { streamRuns } from './streamOutput';
import { MAX_MARKDOWN } from './textBlocks';
import { inputSummary, withoutCode } from './toolCard';

/** Parts of one row's text are joined by a line break: a match never spans two parts. */
const SEP = '\n';

const cache = new WeakMap<Block, { rev: number; text: string }>();

/** The lower-cased searchable text of a row; turn separators and ends (chrome, not content) have none. */
export function rowText(row: Row): string {
  return row.kind === 'block' ? blockText(row.block) : '';
}

export function blockText(block: Block): string {
  const hit = cache.get(block);
  if (hit && hit.rev === block.rev) return hit.text;
  const text = shownText(block).filter((s) => s.length > 0).join(SEP).toLowerCase();
  cache.set(block, { rev: block.rev, text });
  return text;
}

/** The block's visible words, part by part, as its view (blocks.tsx and the views it uses) shows them. */
function shownText(b: Block): string[] {
  switch (b.kind) {
    case 'text':
      // Markdown is searched as its source (links' targets and marks included): rendering every
      // block of 100,000 rows to find its words would cost what the virtualization saves.
      return [b.text.length > MAX_MARKDOWN ? tail(b.text, MAX_TEXT).text : b.text];
    case 'plan':
      return [b.text, b.approval ? questionText(b.approval) : ''];
    case 'thinking':
      // §15.3: redacted thinking is never stored raw; its placeholder is not content either.
      return b.redacted || b.text === REDACTED_THINKING ? [] : [b.text];
    case 'tool':
      return toolText(b);
    case 'parallel':
      return b.invocations.map((t) => blockText(t));
    case 'interaction':
      return [questionText(b)];
    case 'error': {
      const e = b.error;
      const known = hasSentence(e.code);
      return [known ? codeSentence(e.code) : e.message || codeSentence(e.code), known ? e.message : '', e.details?.trace ? tail(e.details.trace, MAX_TEXT).text : ''];
    }
    case 'compaction':
      return [b.compaction.summary];
    case 'file_transfer':
      return [b.transfer.file_name];
    case 'prompt': {
      const decoded = decodePrompt(b.prompt.prompt_text, b.prompt.file_references);
      const words = decoded.segments.map((s) => (s.kind === 'text' ? s.text : s.display_path)).join('');
      return [words, ...(b.prompt.context_files ?? []).map((f) => f.file_name)];
    }
  }
}

/** A tool card: its name, the input it shows, the error sentence, the live output and the result. */
function toolText(tool: ToolBlock): string[] {
  const r = tool.result;
  const parts = [tool.toolName, inputSummary(tool.input)];
  if (r && r.status !== 'success' && r.errorCode && hasSentence(r.errorCode)) parts.push(codeSentence(r.errorCode));
  const shown = toolOutputPlan(tool);
  if (shown.stream) parts.push(streamRuns(tool.chunks).runs.map((x) => x.text).join(''));
  if (tool.subagent) {
    const run = tool.subagent;
    parts.push(run.agentType ?? '', run.description ?? '', ...run.blocks.filter(shownAsBlock).map((x) => blockText(x)));
  }
  if (r && shown.result) parts.push(...resultText(tool));
  return parts;
}

/** The result as its renderer (toolCard.tsx ToolOutput) shows it. */
function resultText(tool: ToolBlock): string[] {
  const r = tool.result!;
  const clipped = (text: string) => tail(text, MAX_TEXT).text;
  if (r.status !== 'success' && (typeof r.output === 'string' || r.output === null)) return [clipped(r.errorCode && typeof r.output === 'string' ? withoutCode(r.output, r.errorCode) : asText(r.output))];
  const o = r.output;
  switch (r.outputType) {
    case 'text':
      return [clipped(asText(o))];
    case 'structured': {
      const todos = extractTodos('structured', o);
      return todos ? todos.items.map((i) => i.content) : [clipped(showJson(o))];
    }
    case 'file_content':
      // The card's first lines; past FIRST_LINES they show after "Show more lines".
      return [numberLines(asText(o)).slice(0, MAX_LINES).map((l) => l.text).join('\n')];
    case 'file_list':
      return [listPaths(o).slice(0, MAX_LINES).join('\n')];
    case 'diff': {
      const d = diffHunks(o);
      if (d.hunks.length === 0) return [d.file ?? '', clipped(asText(o))];
      return [d.file ?? '', ...d.hunks.map((h) => [h.header, ...h.lines.slice(0, MAX_LINES)].join('\n'))];
    }
    case 'web_content':
      return webText(o);
    case 'agent_result':
      return [agentResultText(o)];
    case 'binary_ref':
    case 'empty':
      return [];
  }
}

function webText(o: unknown): string[] {
  if (typeof o !== 'object' || o === null || Array.isArray(o)) return [tail(asText(o), MAX_TEXT).text];
  const x = o as Record<string, unknown>;
  const body = ['content', 'text', 'markdown', 'result'].map((k) => x[k]).find((v) => typeof v === 'string') as string | undefined;
  const results = Array.isArray(x.results) ? x.results.slice(0, 50) : [];
  const parts = [typeof x.title === 'string' ? x.title : typeof x.url === 'string' ? x.url : '', body ? tail(body, MAX_TEXT).text : ''];
  for (const item of results) {
    const i = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
    parts.push(typeof i.title === 'string' ? i.title : String(i.url ?? ''), typeof i.snippet === 'string' ? i.snippet : '');
  }
  if (!body && results.length === 0 && !x.title && !x.url) parts.push(tail(showJson(o), MAX_TEXT).text);
  return parts;
}

function agentResultText(o: unknown): string {
  if (typeof o === 'string') return tail(o, MAX_TEXT).text;
  if (typeof o === 'object' && o !== null && !Array.isArray(o)) {
    const x = o as Record<string, unknown>;
    const v = ['summary', 'result', 'text', 'content'].map((k) => x[k]).find((s) => typeof s === 'string') as string | undefined;
    if (v !== undefined) return tail(v, MAX_TEXT).text;
  }
  return tail(showJson(o), MAX_TEXT).text;
}

/** Occurrences of `needle` (lower-cased, not empty) in `text`, not overlapping: "aa" is twice in "aaaa". */
export function countIn(text: string, needle: string): number {
  let n = 0;
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) n++;
  return n;
}
