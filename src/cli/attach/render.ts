// The terminal view of a transcript (the one reducer's view model, src/protocol/transcript): a
// list of keyed items, each of which only ever grows at its end — a prompt, a text block, a tool
// call's request / streamed output / result, a question and its answer, a turn's end. The full
// text (`transcriptText`) is what tests compare; the printer writes each item's new tail as it
// appears, so a terminal shows the session live without redrawing.
import { decodePrompt, literalText } from '../../protocol/fileReference';
import type { HostLanguage } from '../../protocol/hostPhrases';
import { streamText } from '../../protocol/transcript/read';
import { toolOutputPlan } from '../../protocol/transcript/toolOutput';
import type { Transcript } from '../../protocol/transcript/state';
import type { Block, FileTransferBlock, HistoryTruncatedWarning, InteractionBlock, TimelineEntry, ToolBlock } from '../../protocol/transcript/types';
import { attachPhrase, type AttachPhraseId } from './attachPhrases';
import { transferText } from './fileTransfers';
import { showControls } from '../controlPictures';
import type { EarlierChat } from '../../protocol/continuation';
import { continuedFromText } from './continuedFrom';

export interface Item {
  key: string;
  text: string;
}

const MAX_INPUT_CHARS = 200;
const MAX_OUTPUT_LINES = 20;

export interface RenderOptions {
  /** http(s)://host:port of the attached host: §4.5.1 files there are shown by their full URL. */
  httpBase?: string;
  /**
   * The language of the transcript's own words (labels, turn ends, hints: decision 601); English
   * by default. What the frames carry — the agent's text, option labels, stop reasons, statuses —
   * is shown as sent.
   */
  language?: HostLanguage;
  /** The earlier chat's digest this session was given, when it continues one (continuedFrom.ts). */
  earlierChat?: () => EarlierChat | undefined;
}

/** What one rendering pass carries along: the options, and the files numbered in session order. */
interface Pass {
  o: RenderOptions;
  files: number;
}

/** One of attach's own phrases in the pass's language. */
function say(pass: Pass, id: AttachPhraseId, ...args: Array<string | number>): string {
  return attachPhrase(id, args, pass.o.language);
}

export function renderItems(t: Transcript, o: RenderOptions = {}): Item[] {
  const items: Item[] = [];
  const pass: Pass = { o, files: 0 };
  if (t.historyTruncated) items.push({ key: 'history-truncated', text: `⚠ ${historyNote(t.historyTruncated, pass)}\n` });
  const continued = continuedFromText(t, o.earlierChat?.(), o.language);
  if (continued) items.push({ key: 'continued-from', text: continued });
  for (const e of t.timeline) entry(items, e, '', pass);
  if (t.deleted) items.push({ key: 'deleted', text: `${say(pass, 'render.session_ended', t.deleted.reason, t.deleted.deletedBy)}\n` });
  return items;
}

/**
 * §7.1.1's word that history was lost, worded from its cause and count as the view words it (the
 * warning's `message` is the same English, for logs); the English is that message exactly.
 */
function historyNote(h: HistoryTruncatedWarning, pass: Pass): string {
  const n = h.lostFrameCount;
  const about = n === undefined ? '' : say(pass, n === 1 ? 'render.about_one_frame' : 'render.about_frames', n);
  return say(pass, h.cause === 'disconnected' ? 'render.history_lost' : 'render.history_budget', about);
}

/** The whole transcript as text: what the terminal shows, minus the live-only notices. */
export function transcriptText(t: Transcript, o: RenderOptions = {}): string {
  return renderItems(t, o)
    .map((i) => i.text)
    .join('');
}

/** The §4.5.1 transfers of the transcript in the order (and so with the numbers) they are shown. */
export function transfersOf(t: Transcript): FileTransferBlock['transfer'][] {
  const out: FileTransferBlock['transfer'][] = [];
  const visit = (b: Block) => {
    if (b.kind === 'file_transfer') out.push(b.transfer);
    else if (b.kind === 'tool' && b.subagent) b.subagent.blocks.forEach(visit);
    else if (b.kind === 'parallel') for (const inv of b.invocations) inv.subagent?.blocks.forEach(visit);
  };
  for (const e of t.timeline) {
    if (e.kind === 'turn') e.blocks.forEach(visit);
    else visit(e);
  }
  return out;
}

function entry(items: Item[], e: TimelineEntry, indent: string, pass: Pass): void {
  if (e.kind === 'turn') {
    blocks(items, e.blocks, indent, pass);
    // Counted from 1 as the chat's "Turn 1" separator counts (the protocol's turn_index is 0-based).
    const number = e.index === undefined ? '' : e.index + 1;
    if (!e.open && !e.synthetic) items.push({ key: `${e.key}:end`, text: `${indent}${say(pass, 'render.turn_ended', number, String(e.stopReason))}\n` });
    const u = e.usage?.token_usage;
    if (u) items.push({ key: `${e.key}:usage`, text: `${indent}  ${say(pass, 'render.tokens', u.input_tokens, u.output_tokens)}\n` });
    return;
  }
  block(items, e, indent, pass);
}

/**
 * A run of blocks. A tool call's permission question comes after the call's block but was asked
 * before its result: the question (and its answer) is shown between the call and its result, as it
 * happened — live and when a history is replayed alike (before, a replay printed the result first).
 */
function blocks(items: Item[], list: readonly Block[], indent: string, pass: Pass): void {
  const shown = new Set<Block>();
  list.forEach((b, i) => {
    if (shown.has(b)) return;
    const calls = b.kind === 'tool' ? [b] : b.kind === 'parallel' ? b.invocations : undefined;
    if (!calls) return block(items, b, indent, pass);
    const outs = calls.map((call) => toolHead(items, call, indent, pass));
    for (let j = i + 1; j < list.length && list[j].kind === 'interaction'; j++) {
      const q = list[j] as InteractionBlock;
      if (calls.some((call) => asksAbout(q, call))) {
        interaction(items, q, indent, pass);
        shown.add(q);
      }
    }
    calls.forEach((call, k) => toolResult(items, call, outs[k], indent, pass));
  });
}

/** Is this the permission question of that call (named by id, or by tool right after it)? */
function asksAbout(q: InteractionBlock, call: ToolBlock): boolean {
  if (q.request.interaction_type !== 'PERMISSION' || q.scope !== call.scope) return false;
  const context = q.request.context as { invocation_id?: unknown; tool_name?: unknown } | undefined;
  if (typeof context?.invocation_id === 'string') return context.invocation_id === call.invocationId;
  return context?.tool_name === call.toolName;
}

function block(items: Item[], b: Block, indent: string, pass: Pass): void {
  switch (b.kind) {
    case 'prompt': {
      // Shown as the user wrote it: escapes undone, tokens as their display path (§16.2.2); the
      // files sent with it (§6.1.1 context_files, by whichever master) one line each.
      const files = (b.prompt.context_files ?? []).map((f) => `  ${say(pass, 'render.attached_file', f.file_name)}${f.mime_type ? ` (${f.mime_type})` : ''}\n`).join('');
      items.push({ key: b.key, text: `\n› ${literalText(decodePrompt(b.prompt.prompt_text, b.prompt.file_references))}\n${files}` });
      return;
    }
    case 'text':
    case 'plan': {
      const head = b.kind === 'plan' ? `${indent}${say(pass, 'render.plan')}\n` : '';
      const tail = b.done ? `${b.cancelled ? ` ${say(pass, 'render.cancelled')}` : ''}\n` : '';
      items.push({ key: b.key, text: `${head}${indentText(b.text, indent)}${tail}` });
      return;
    }
    case 'thinking':
      items.push({ key: b.key, text: `${indent}${say(pass, 'render.thinking')} ${indentText(b.text, indent)}${b.done ? '\n' : ''}` });
      return;
    case 'tool':
      tool(items, b, indent, pass);
      return;
    case 'parallel':
      for (const t of b.invocations) tool(items, t, indent, pass);
      return;
    case 'interaction':
      interaction(items, b, indent, pass);
      return;
    case 'error':
      items.push({ key: b.key, text: `${indent}${say(pass, 'render.error', b.error.source, b.error.code, b.error.message)}\n` });
      return;
    case 'compaction':
      items.push({ key: b.key, text: `${indent}${say(pass, 'render.compacted', b.compaction.summary ?? '')}\n` });
      return;
    case 'file_transfer':
      // §4.5.1: what the file is and how to get it, in words (/save N fetches it, terminalMaster.ts).
      items.push({ key: b.key, text: transferText(b.transfer, ++pass.files, pass.o.httpBase, indent, pass.o.language) });
      return;
  }
}

function tool(items: Item[], b: ToolBlock, indent: string, pass: Pass): void {
  toolResult(items, b, toolHead(items, b, indent, pass), indent, pass);
}

/** A call's request, streamed output and subagent run; the streamed output's text. */
function toolHead(items: Item[], b: ToolBlock, indent: string, pass: Pass): string {
  items.push({ key: `${b.key}:req`, text: `${indent}⚙ ${b.toolName} ${clip(JSON.stringify(b.input), MAX_INPUT_CHARS)}\n` });
  const out = streamText(b);
  if (out) items.push({ key: `${b.key}:out`, text: indentText(out, `${indent}  │ `, true) });
  if (b.subagent) blocks(items, b.subagent.blocks, `${indent}    `, pass);
  return out;
}

/** A call's result (`out`: its streamed output, from toolHead). */
function toolResult(items: Item[], b: ToolBlock, out: string, indent: string, pass: Pass): void {
  // A result synthesized on disconnect (§7.8.1) is not shown: the real one follows a reattach.
  if (b.result && !b.result.synthetic) {
    // Issue 15 Why 7: output already printed live is not printed again as the result.
    const shown = toolOutputPlan(b);
    if (out && !(shown.stream && shown.result)) {
      items.push({ key: `${b.key}:res`, text: `${indent}  ⎿ ${b.result.status}\n` });
      return;
    }
    const output = typeof b.result.output === 'string' ? b.result.output : JSON.stringify(b.result.output);
    items.push({ key: `${b.key}:res`, text: `${indent}  ⎿ ${b.result.status}: ${firstLines(output, indent, pass)}\n` });
  }
}

function interaction(items: Item[], b: InteractionBlock, indent: string, pass: Pass): void {
  const r = b.request;
  const options = (r.options ?? []).map((o, i) => `${indent}    ${i + 1}) ${o.label}${o.value !== o.label ? ` [${o.value}]` : ''}\n`).join('');
  items.push({ key: `${b.key}:q`, text: `${indent}? ${r.question_text} (${r.interaction_type})\n${options}` });
  if (b.status === 'answered' && b.response) {
    const v = Array.isArray(b.response.selectedValue) ? b.response.selectedValue.join(', ') : b.response.selectedValue;
    items.push({ key: `${b.key}:a`, text: `${indent}  ✓ ${v}${b.response.textInput ? ` — ${b.response.textInput}` : ''}\n` });
  } else if (b.status === 'timed_out') {
    items.push({ key: `${b.key}:a`, text: `${indent}  ${say(pass, 'render.timed_out')}\n` });
  } else if (b.status === 'discarded' && b.retiredBy === 'host_restart') {
    items.push({ key: `${b.key}:a`, text: `${indent}  ${say(pass, 'render.host_restart')}\n` });
  }
}

function indentText(text: string, indent: string, terminate = false): string {
  if (!indent) return terminate && !text.endsWith('\n') ? `${text}\n` : text;
  const body = text.replace(/\n(?!$)/g, `\n${indent}`);
  return `${indent}${body}${terminate && !text.endsWith('\n') ? '\n' : ''}`;
}

function firstLines(text: string, indent: string, pass: Pass): string {
  const lines = text.split('\n');
  const shown = lines.slice(0, MAX_OUTPUT_LINES).join(`\n${indent}    `);
  return lines.length > MAX_OUTPUT_LINES ? `${shown}\n${indent}    ${say(pass, 'render.more_lines', lines.length - MAX_OUTPUT_LINES)}` : shown;
}

function clip(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}

/**
 * Writes a transcript to a terminal as it grows: new items whole, grown items by their new tail.
 * An item that changed other than by growing (rare: a repaired text block) is written again whole.
 */
export class TerminalPrinter {
  private readonly printed = new Map<string, string>();
  private lastKey?: string;
  private readonly write: (text: string) => void;

  constructor(
    write: (text: string) => void,
    private readonly options: RenderOptions = {},
  ) {
    this.write = (text) => write(showControls(text));
  }

  update(t: Transcript): void {
    for (const item of renderItems(t, this.options)) {
      const before = this.printed.get(item.key);
      if (before === item.text) continue;
      if (before !== undefined && item.text.startsWith(before)) {
        const tail = item.text.slice(before.length);
        this.write(this.lastKey === item.key ? tail : `\n${tail}`);
      } else if (before === undefined) {
        this.write(this.atLineStart() ? item.text : `\n${item.text}`);
      } else {
        this.write(`\n${item.text}`);
      }
      this.printed.set(item.key, item.text);
      this.lastKey = item.key;
    }
  }

  /** A notice of our own (connection lost, reconnected), always on its own line. */
  notice(text: string): void {
    this.write(`${this.atLineStart() ? '' : '\n'}${text}\n`);
    this.lastKey = undefined;
  }

  private atLineStart(): boolean {
    if (this.lastKey === undefined) return true;
    return this.printed.get(this.lastKey)?.endsWith('\n') ?? true;
  }
}
