// One streaming chat-completions request (OpenAI, vLLM, LM Studio, Ollama, …): POST
// {baseUrl}/chat/completions with `stream: true`, read the SSE `data:` lines, and hand each delta
// to the caller as it comes. Tool-call deltas are assembled by index (id and name first, arguments
// in pieces). Thinking arrives as `reasoning_content` (vLLM, DeepSeek) or `reasoning` (Ollama,
// OpenRouter). Never throws for an HTTP or stream error: it returns a `failed` result instead.
// What the server sends is bounded and checked before it is decoded (streamLimits.ts, decision
// 717): a line, a chunk's nesting, the whole answer, the number of tool calls, an error body.
import { baseUrlProblem, chatCompletionsUrl, shownUrl } from './baseUrl';
import { contextOverflowOf, type ContextOverflow } from './contextOverflow';
import { bearer } from './serverJson';
import { CHAT_REPLY_MAX_CHARS, CHAT_REPLY_MAX_TOOL_CALLS, SSE_LINE_MAX_CHARS, SseLines, TOO_DEEP_WORDS, boundedBodyText, count, errorText, modelJsonTooDeep } from './streamLimits';

/** A part of a user message (vision models take `image_url` parts). */
export type ChatContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | null | ChatContentPart[];
  tool_calls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
}

export interface ChatToolDef {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

export interface ChatRequest {
  baseUrl: string;
  apiKey?: string;
  model: string;
  messages: ChatMessage[];
  tools: ChatToolDef[];
  signal: AbortSignal;
  /** Extra request fields (temperature, …). */
  extra?: Record<string, unknown>;
  /**
   * Give up when nothing arrives for this long (the answer's headers, or anything of its answer:
   * keep-alives and chunks that add nothing do not count); default 5 minutes.
   */
  idleTimeoutMs?: number;
}

/** Five minutes without a byte: far longer than a model's first token, short enough for a CI run. */
export const STREAM_IDLE_TIMEOUT_MS = 300_000;

export interface ChatHandlers {
  onText(delta: string): void;
  onReasoning(delta: string): void;
}

export interface AssembledToolCall {
  id: string;
  name: string;
  arguments: string;
}

export type ChatResult =
  | { kind: 'done'; finish_reason: string; text: string; toolCalls: AssembledToolCall[]; usage?: { prompt_tokens: number; completion_tokens: number; cached_tokens?: number; reasoning_tokens?: number } }
  | { kind: 'failed'; status?: number; message: string; cancelled: boolean; stalled?: true; /** The server refused the conversation as longer than the model's context window (contextOverflow.ts). */ overflow?: ContextOverflow };

export async function streamChat(req: ChatRequest, on: ChatHandlers): Promise<ChatResult> {
  // Errors name the URL as it may be shown (no password, no key in its query): fetch's own message
  // would repeat the whole URL.
  const problem = baseUrlProblem(req.baseUrl);
  if (problem) return { kind: 'failed', message: problem, cancelled: false };
  const url = chatCompletionsUrl(req.baseUrl);
  const shown = shownUrl(url);
  // A server that stops sending (its headers never come, or its stream goes quiet) must not hold
  // the turn for ever: `rawp run` in CI has nobody to press Stop (the CLI trial of 2026-12-06).
  const idle = new IdleWatch(req.signal, req.idleTimeoutMs ?? STREAM_IDLE_TIMEOUT_MS);
  try {
    return await readChat(req, on, url, shown, idle);
  } finally {
    idle.stop();
  }
}

async function readChat(req: ChatRequest, on: ChatHandlers, url: string, shown: string, idle: IdleWatch): Promise<ChatResult> {
  const seconds = idle.ms % 1000 === 0 ? idle.ms / 1000 : (idle.ms / 1000).toFixed(1);
  const stalled = (): ChatResult => ({ kind: 'failed', message: `${shown} sent nothing${idle.filler ? ' but keep-alives and chunks that add nothing' : ''} for ${seconds} s, so the turn was stopped`, cancelled: false, stalled: true });
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...bearer(req.apiKey) },
      body: JSON.stringify({ model: req.model, messages: req.messages, ...(req.tools.length ? { tools: req.tools, tool_choice: 'auto' } : {}), stream: true, stream_options: { include_usage: true }, ...req.extra }),
      signal: idle.signal,
    });
  } catch (e) {
    if (idle.fired) return stalled();
    return { kind: 'failed', message: `cannot reach ${shown}: ${causeOf(e)}`, cancelled: req.signal.aborted };
  }
  idle.touch();
  if (!response.ok) {
    const body = await boundedBodyText(response);
    const overflow = contextOverflowOf(response.status, body);
    return { kind: 'failed', status: response.status, message: `HTTP ${response.status} from ${shown}: ${errorText(body) || response.statusText}`, cancelled: false, ...(overflow ? { overflow } : {}) };
  }
  const stream = response.body;
  if (!stream) return { kind: 'failed', status: response.status, message: `HTTP ${response.status} from ${shown} has no body to stream`, cancelled: false };
  const calls = new Map<number, AssembledToolCall>();
  let text = '';
  let finish = '';
  let usage: Extract<ChatResult, { kind: 'done' }>['usage'];
  let sawDone = false;
  // Characters of text, thinking and tool calls so far: the answer's size, and the sign of progress.
  let received = 0;
  const refused = (message: string): ChatResult => ({ kind: 'failed', status: response.status, message, cancelled: false });
  const tooBig = (): ChatResult => refused(`the answer from ${shown} grew past ${count(CHAT_REPLY_MAX_CHARS)} characters of text, thinking and tool calls, so the turn was stopped`);
  try {
    const decoder = new TextDecoder();
    const lines = new SseLines(SSE_LINE_MAX_CHARS);
    for await (const chunk of stream) {
      idle.heard();
      const batch = lines.push(decoder.decode(chunk, { stream: true }));
      if (batch === 'too long') return refused(`the stream from ${shown} sent a line longer than ${count(SSE_LINE_MAX_CHARS)} characters, so the turn was stopped`);
      const before = received;
      for (const line of batch) {
        if (!line.startsWith('data:')) continue; // a comment (`: keep-alive`), an event name, a blank line
        const data = line.slice(5).trim();
        if (data === '[DONE]') {
          sawDone = true;
          continue;
        }
        if (data === '') continue;
        // One linear scan before JSON.parse: nothing recursive may touch a chunk nested 5,000 deep.
        if (modelJsonTooDeep(data)) return refused(`the stream from ${shown} sent a chunk holding ${TOO_DEEP_WORDS}, so the turn was stopped`);
        let json: StreamChunk;
        try {
          json = JSON.parse(data) as StreamChunk;
        } catch {
          // Every data line of a chat-completions stream is a JSON chunk: one that is not means the
          // answer cannot be trusted (it read as an empty, successful answer: the CLI trial).
          return { kind: 'failed', status: response.status, message: `the stream from ${shown} sent data that is not JSON (${JSON.stringify(data.slice(0, 80))})`, cancelled: false };
        }
        if (typeof json !== 'object' || json === null || Array.isArray(json)) return refused(`the stream from ${shown} sent data that is not a JSON object (${JSON.stringify(data.slice(0, 80))})`);
        if (json.error) {
          // Some servers refuse for length in the stream, before any of the answer.
          const overflow = received === 0 ? contextOverflowOf(undefined, data) : undefined;
          return { ...refused(`stream error: ${errorText(data)}`), ...(overflow ? { overflow } : {}) } as ChatResult;
        }
        if (json.usage) {
          usage = {
            prompt_tokens: json.usage.prompt_tokens ?? 0,
            completion_tokens: json.usage.completion_tokens ?? 0,
            ...(json.usage.prompt_tokens_details?.cached_tokens !== undefined ? { cached_tokens: json.usage.prompt_tokens_details.cached_tokens } : {}),
            ...(json.usage.completion_tokens_details?.reasoning_tokens !== undefined ? { reasoning_tokens: json.usage.completion_tokens_details.reasoning_tokens } : {}),
          };
        }
        for (const choice of Array.isArray(json.choices) ? json.choices : []) {
          if (typeof choice !== 'object' || choice === null) continue;
          const d = choice.delta ?? {};
          const reasoning = d.reasoning_content ?? d.reasoning;
          if (typeof reasoning === 'string' && reasoning) {
            if ((received += reasoning.length) > CHAT_REPLY_MAX_CHARS) return tooBig();
            on.onReasoning(reasoning);
          }
          if (typeof d.content === 'string' && d.content) {
            if ((received += d.content.length) > CHAT_REPLY_MAX_CHARS) return tooBig();
            text += d.content;
            on.onText(d.content);
          }
          for (const tc of Array.isArray(d.tool_calls) ? d.tool_calls : []) {
            if (typeof tc !== 'object' || tc === null) continue;
            const i = tc.index ?? 0;
            const cur = calls.get(i) ?? { id: '', name: '', arguments: '' };
            if (!calls.has(i) && calls.size >= CHAT_REPLY_MAX_TOOL_CALLS) return refused(`the answer from ${shown} made more than ${count(CHAT_REPLY_MAX_TOOL_CALLS)} tool calls, so the turn was stopped`);
            const id = typeof tc.id === 'string' ? tc.id : '';
            const name = typeof tc.function?.name === 'string' ? tc.function.name : '';
            const args = typeof tc.function?.arguments === 'string' ? tc.function.arguments : '';
            if ((received += id.length + name.length + args.length) > CHAT_REPLY_MAX_CHARS) return tooBig();
            if (id) cur.id = id;
            cur.name += name;
            cur.arguments += args;
            calls.set(i, cur);
          }
          if (choice.finish_reason) finish = choice.finish_reason;
        }
      }
      // Only what adds to the answer holds the turn open: a server sending keep-alives (or empty
      // chunks) for ever is as quiet as one sending nothing.
      if (received > before) idle.touch();
    }
  } catch (e) {
    if (idle.fired) return stalled();
    return { kind: 'failed', message: `the stream broke: ${causeOf(e)}`, cancelled: req.signal.aborted };
  }
  if (!finish && !sawDone) return { kind: 'failed', message: 'the stream ended without a finish_reason', cancelled: req.signal.aborted };
  const toolCalls = [...calls.entries()].sort((a, b) => a[0] - b[0]).map(([i, c]) => ({ ...c, id: c.id || `call_${i}` }));
  return { kind: 'done', finish_reason: finish || (toolCalls.length ? 'tool_calls' : 'stop'), text, toolCalls, ...(usage ? { usage } : {}) };
}

interface StreamChunk {
  error?: unknown;
  usage?: { prompt_tokens?: number; completion_tokens?: number; prompt_tokens_details?: { cached_tokens?: number }; completion_tokens_details?: { reasoning_tokens?: number } };
  choices?: Array<{
    finish_reason?: string | null;
    delta?: {
      content?: string | null;
      reasoning_content?: string | null;
      reasoning?: string | null;
      tool_calls?: Array<{ index?: number; id?: string; function?: { name?: string; arguments?: string } }>;
    };
  }>;
}

function causeOf(e: unknown): string {
  const err = e as { message?: string; cause?: { message?: string; code?: string } };
  return [err?.message, err?.cause?.code ?? err?.cause?.message].filter(Boolean).join(': ') || String(e);
}

/** Aborts its signal when `ms` pass without a `touch`, or when the turn's own signal aborts. */
class IdleWatch {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  fired = false;
  /** Bytes came since the last `touch`, none of them adding to the answer. */
  filler = false;
  private readonly onAbort = () => this.controller.abort(this.outer.reason);

  constructor(
    private readonly outer: AbortSignal,
    readonly ms: number,
  ) {
    if (outer.aborted) this.controller.abort(outer.reason);
    else outer.addEventListener('abort', this.onAbort, { once: true });
    this.touch();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Something came that does not add to the answer (a keep-alive, an empty chunk, part of a line). */
  heard(): void {
    this.filler = true;
  }

  touch(): void {
    this.filler = false;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.fired = true;
      this.controller.abort(new Error('the stream went quiet'));
    }, this.ms);
  }

  stop(): void {
    clearTimeout(this.timer);
    this.outer.removeEventListener('abort', this.onAbort);
  }
}

