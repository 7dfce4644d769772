// The OpenAI-compatible agent's conversation: the messages it sends back with every model call,
// kept within the model's context window and within memory (decision 730). Before, every message
// stayed for the session's life: past the window every turn was refused by the server for good (the
// chat could only be abandoned), and a server that accepts any length let it grow by up to 16 MiB
// a model call.
//
// What goes first when it must: the oldest exchanges (a user's prompt and everything answered to
// it) whole, so no tool result loses its call; then, in the exchange under way, the oldest tool
// outputs, answers and call arguments are replaced by a line saying how much was left out. The
// prompt under way is never cut: a prompt that does not fit alone is the user's to shorten. The
// model is told how many earlier messages were left out.
import type { ChatMessage } from './chatStream';
import type { ContextOverflow } from './contextOverflow';
import { count } from './streamLimits';

/** The conversation's characters beyond which the oldest go, whatever the server accepts. */
export const CONVERSATION_MAX_CHARS = 32 * 1024 * 1024;
/** The context windows taken (a model's is at least this), in tokens. */
export const CONTEXT_WINDOW_RANGE = [256, 100_000_000] as const;

/** `n` is a context window we take (the setting's and the flags' one check). */
export function inContextWindowRange(n: unknown): n is number {
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= CONTEXT_WINDOW_RANGE[0] && n <= CONTEXT_WINDOW_RANGE[1];
}
/** Tokens counted for an image part: a data: URL's length says nothing of an image's tokens. */
const IMAGE_TOKENS = 1_000;
/** Before the server's own counts: about four characters a token (English and code). */
const DEFAULT_TOKENS_PER_CHAR = 0.25;
/** A message shorter than this is not worth replacing by a line about it. */
const SHORTEN_ABOVE_CHARS = 200;

export interface Trimmed {
  /** Whole earlier messages no longer sent. */
  dropped: number;
  /** Messages of the exchange under way whose content was replaced by a line. */
  shortened: number;
}

type Cost = (m: ChatMessage) => number;

function textCharsOf(m: ChatMessage): number {
  let n = 0;
  if (typeof m.content === 'string') n += m.content.length;
  else if (Array.isArray(m.content)) for (const p of m.content) n += p.type === 'text' ? p.text.length : 0;
  for (const c of m.tool_calls ?? []) n += c.function.name.length + c.function.arguments.length + c.id.length;
  return n;
}

function imagesOf(m: ChatMessage): number {
  return Array.isArray(m.content) ? m.content.filter((p) => p.type === 'image_url').length : 0;
}

function charsOf(m: ChatMessage): number {
  let n = textCharsOf(m);
  if (Array.isArray(m.content)) for (const p of m.content) n += p.type === 'image_url' ? p.image_url.url.length : 0;
  return n;
}

const leftOutLine = (chars: number, what: string) => `[left out to fit the model's context window: ${count(chars)} characters of ${what}]`;

export class Conversation {
  private list: ChatMessage[] = [];
  private chars = 0;
  /** Earlier messages dropped so far (the model is told). */
  private leftOut = 0;
  private tokensPerChar = DEFAULT_TOKENS_PER_CHAR;
  private trimmed: Trimmed = { dropped: 0, shortened: 0 };
  /** The model's context window in tokens: given, named by a refusal, or guessed from one. */
  private window: number | undefined;
  /** The window was given or named by the server (not guessed): it may be reported. */
  private windowKnown: boolean;

  constructor(
    private readonly system: string,
    /** Characters of each request besides the messages (the tool definitions). */
    private readonly overheadChars = 0,
    capacity?: number,
  ) {
    this.window = capacity;
    this.windowKnown = capacity !== undefined;
  }

  /** The model's context window, when given or named by the server. */
  get capacity(): number | undefined {
    return this.windowKnown ? this.window : undefined;
  }

  get isEmpty(): boolean {
    return this.list.length === 0;
  }

  push(m: ChatMessage): void {
    this.list.push(m);
    this.chars += charsOf(m);
    if (this.chars > CONVERSATION_MAX_CHARS) this.trimTo(CONVERSATION_MAX_CHARS, charsOf, this.system.length);
  }

  /** What one model call sends: the system prompt (saying what was left out), then the conversation. */
  forRequest(): ChatMessage[] {
    const note = this.leftOut > 0 ? `\n\n(The ${count(this.leftOut)} oldest messages of this conversation were left out to fit your context window.)` : '';
    return [{ role: 'system', content: this.system + note }, ...this.list];
  }

  /** About how many tokens a call sends, by the server's own counts once it gave some. */
  estimateTokens(): number {
    let text = this.fixedChars();
    let images = 0;
    for (const m of this.list) {
      text += textCharsOf(m);
      images += imagesOf(m);
    }
    return Math.ceil(text * this.tokensPerChar) + images * IMAGE_TOKENS;
  }

  /** The server counted `promptTokens` for a call estimated at `estimated`: estimates follow it. */
  calibrate(estimated: number, promptTokens: number): void {
    if (!(estimated > 0 && promptTokens > 0)) return;
    const ratio = (this.tokensPerChar * promptTokens) / estimated;
    this.tokensPerChar = Math.min(1, Math.max(0.05, ratio));
  }

  /** The window the conversation is held to (given, named or guessed), in tokens. */
  get windowTokens(): number | undefined {
    return this.window;
  }

  /**
   * Make the next call fit the window, leaving room for the answer: `answerTokens` when the request
   * caps it (a server counts the cap against the window), else 5% of the window, at most 4,096 — so
   * a call may fill 95%, where the engine compacts after the turn (§6.3.1), and trimming stays the
   * fallback within a turn. False when even the prompt under way alone does not fit. Nothing to do
   * while the window is unknown.
   */
  fit(answerTokens?: number): boolean {
    if (this.window === undefined) return true;
    const reserve = answerTokens ?? Math.min(4_096, Math.floor(this.window * 0.05));
    const limit = Math.max(1, this.window - reserve);
    const tokens: Cost = (m) => Math.ceil(textCharsOf(m) * this.tokensPerChar) + imagesOf(m) * IMAGE_TOKENS;
    return this.trimTo(limit, tokens, Math.ceil(this.fixedChars() * this.tokensPerChar));
  }

  /** What every request sends besides the conversation: the tools, the system prompt, and its note on what was left out. */
  private fixedChars(): number {
    return this.overheadChars + this.system.length + 120;
  }

  /** The server said the window it runs the model with (Ollama's `/api/ps`, ollamaWindow.ts). */
  serverWindow(tokens: number): void {
    this.window = tokens;
    this.windowKnown = true;
  }

  /** The server refused a call of about `sentTokens` as too long: learn the window from it. */
  overflowed(o: ContextOverflow, sentTokens: number): void {
    // Our count was low when the server says its own, or refused what we had fitted to the window
    // (text of many tokens a character, as Korean or Chinese): estimates go up for the next try.
    if (o.requested !== undefined) this.calibrate(sentTokens, o.requested);
    else if (this.windowKnown && this.window !== undefined && sentTokens <= this.window) this.tokensPerChar = Math.min(1, this.tokensPerChar * 1.5);
    if (o.capacity !== undefined) {
      this.window = o.capacity;
      this.windowKnown = true;
      return;
    }
    // A window given or named before stands: it was our count that was low.
    if (this.windowKnown) return;
    // Not named: three quarters of what was refused, and less on each further refusal.
    this.window = Math.max(CONTEXT_WINDOW_RANGE[0], Math.floor(Math.min(this.window ?? Number.POSITIVE_INFINITY, sentTokens) * 0.75));
  }

  /** What was left out since the last call of this (for the one notice a turn). */
  takeTrimmed(): Trimmed {
    const t = this.trimmed;
    this.trimmed = { dropped: 0, shortened: 0 };
    return t;
  }

  /** Takes back the last message (a compaction's request that got no summary). */
  dropLast(): void {
    const m = this.list.pop();
    if (m) this.chars -= charsOf(m);
  }

  /** A compaction's summary stands for everything before it. */
  replaceWithSummary(summary: string): void {
    this.list = [
      { role: 'user', content: `This conversation was compacted. A summary of everything before this point:\n\n${summary}` },
      { role: 'assistant', content: 'Understood. I will continue from this summary.' },
    ];
    this.chars = this.list.reduce((n, m) => n + charsOf(m), 0);
    this.leftOut = 0;
  }

  /** Brings the conversation's `cost` (plus `fixed`) to at most `limit`; false when it cannot. */
  private trimTo(limit: number, cost: Cost, fixed: number): boolean {
    const costs = this.list.map(cost);
    let total = fixed + costs.reduce((a, b) => a + b, 0);
    if (total <= limit) return true;
    // The exchange under way starts at the last prompt; earlier ones go whole, oldest first.
    let current = -1;
    for (let i = this.list.length - 1; i >= 0 && current < 0; i--) if (this.list[i].role === 'user') current = i;
    let cut = 0;
    while (total > limit && cut < current) {
      let next = cut + 1;
      while (next < current && this.list[next].role !== 'user') next++;
      for (let i = cut; i < next; i++) total -= costs[i];
      cut = next;
    }
    if (cut > 0) {
      for (let i = 0; i < cut; i++) this.chars -= charsOf(this.list[i]);
      this.list = this.list.slice(cut);
      costs.splice(0, cut);
      this.leftOut += cut;
      this.trimmed.dropped += cut;
      current -= cut;
    }
    // Then, in the exchange under way, the oldest outputs, answers and arguments become a line.
    for (let i = Math.max(current, -1) + 1; i < this.list.length && total > limit; i++) {
      const shorter = shortened(this.list[i]);
      if (!shorter) continue;
      this.chars += charsOf(shorter) - charsOf(this.list[i]);
      const c = cost(shorter);
      total += c - costs[i];
      costs[i] = c;
      this.list[i] = shorter;
      this.trimmed.shortened++;
    }
    return total <= limit;
  }
}

/** `m` with its long content replaced by a line saying how much was left out, or undefined. */
function shortened(m: ChatMessage): ChatMessage | undefined {
  if (m.role === 'tool') {
    const n = typeof m.content === 'string' ? m.content.length : 0;
    return n > SHORTEN_ABOVE_CHARS ? { ...m, content: leftOutLine(n, 'tool output') } : undefined;
  }
  if (m.role !== 'assistant') return undefined;
  let changed = false;
  const out: ChatMessage = { ...m };
  if (typeof m.content === 'string' && m.content.length > SHORTEN_ABOVE_CHARS) {
    out.content = leftOutLine(m.content.length, 'answer');
    changed = true;
  }
  if (m.tool_calls?.some((c) => c.function.arguments.length > SHORTEN_ABOVE_CHARS)) {
    out.tool_calls = m.tool_calls.map((c) => (c.function.arguments.length > SHORTEN_ABOVE_CHARS ? { ...c, function: { name: c.function.name, arguments: JSON.stringify({ left_out: leftOutLine(c.function.arguments.length, 'arguments') }) } } : c));
    changed = true;
  }
  return changed ? out : undefined;
}
