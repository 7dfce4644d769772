// One streaming chat-completions request (OpenAI, vLLM, LM Studio, Ollama, …): POST
// {baseUrl}/chat/completions with `stream: true`, read the SSE `data:` lines, and hand each delta
// to the caller as it comes. Tool-call deltas are assembled by index (id and name first, arguments
// in pieces). Thinking arrives as `reasoning_content` (vLLM, DeepSeek) or `reasoning` (Ollama,
// OpenRouter). Never throws for an HTTP or stream error: it returns a `failed` result instead.
import { baseUrlProblem, chatCompletionsUrl, shownUrl } from './baseUrl';

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
  /** Give up when nothing arrives for this long (the answer's headers or its stream); default 5 minutes. */
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
  | { kind: 'failed'; status?: number; message: string; cancelled: boolean; stalled?: true };

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
  const stalled = (): ChatResult => ({ kind: 'failed', message: `${shown} sent nothing for ${idle.ms % 1000 === 0 ? idle.ms / 1000 : (idle.ms / 1000).toFixed(1)} s, so the turn was stopped`, cancelled: false, stalled: true });
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...(req.apiKey ? { authorization: `Bearer ${req.apiKey}` } : {}) },
      body: JSON.stringify({ model: req.model, messages: req.messages, ...(req.tools.length ? { tools: req.tools, tool_choice: 'auto' } : {}), stream: true, stream_options: { include_usage: true }, ...req.extra }),
      signal: idle.signal,
    });
  } catch (e) {
    if (idle.fired) return stalled();
    return { kind: 'failed', message: `cannot reach ${shown}: ${causeOf(e)}`, cancelled: req.signal.aborted };
  }
  idle.touch();
  if (!response.ok) {
    const body = await response.text().catch(() => '');
    return { kind: 'failed', status: response.status, message: `HTTP ${response.status} from ${shown}: ${errorText(body) || response.statusText}`, cancelled: false };
  }
  const stream = response.body;
  if (!stream) return { kind: 'failed', status: response.status, message: `HTTP ${response.status} from ${shown} has no body to stream`, cancelled: false };
  const calls = new Map<number, AssembledToolCall>();
  let text = '';
  let finish = '';
  let usage: Extract<ChatResult, { kind: 'done' }>['usage'];
  let sawDone = false;
  try {
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of stream) {
      idle.touch();
      buffer += decoder.decode(chunk, { stream: true });
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl).replace(/\r$/, '');
        buffer = buffer.slice(nl + 1);
        if (!line.startsWith('data:')) continue; // a comment (`: keep-alive`), an event name, a blank line
        const data = line.slice(5).trim();
        if (data === '[DONE]') {
          sawDone = true;
          continue;
        }
        if (data === '') continue;
        let json: StreamChunk;
        try {
          json = JSON.parse(data) as StreamChunk;
        } catch {
          // Every data line of a chat-completions stream is a JSON chunk: one that is not means the
          // answer cannot be trusted (it read as an empty, successful answer: the CLI trial).
          return { kind: 'failed', status: response.status, message: `the stream from ${shown} sent data that is not JSON (${JSON.stringify(data.slice(0, 80))})`, cancelled: false };
        }
        if (json.error) return { kind: 'failed', message: `stream error: ${errorText(JSON.stringify(json))}`, cancelled: false };
        if (json.usage) {
          usage = {
            prompt_tokens: json.usage.prompt_tokens ?? 0,
            completion_tokens: json.usage.completion_tokens ?? 0,
            ...(json.usage.prompt_tokens_details?.cached_tokens !== undefined ? { cached_tokens: json.usage.prompt_tokens_details.cached_tokens } : {}),
            ...(json.usage.completion_tokens_details?.reasoning_tokens !== undefined ? { reasoning_tokens: json.usage.completion_tokens_details.reasoning_tokens } : {}),
          };
        }
        for (const choice of json.choices ?? []) {
          const d = choice.delta ?? {};
          const reasoning = d.reasoning_content ?? d.reasoning;
          if (typeof reasoning === 'string' && reasoning) on.onReasoning(reasoning);
          if (typeof d.content === 'string' && d.content) {
            text += d.content;
            on.onText(d.content);
          }
          for (const tc of d.tool_calls ?? []) {
            const i = tc.index ?? 0;
            const cur = calls.get(i) ?? { id: '', name: '', arguments: '' };
            if (tc.id) cur.id = tc.id;
            if (tc.function?.name) cur.name += tc.function.name;
            if (tc.function?.arguments) cur.arguments += tc.function.arguments;
            calls.set(i, cur);
          }
          if (choice.finish_reason) finish = choice.finish_reason;
        }
      }
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

function errorText(body: string): string {
  try {
    const j = JSON.parse(body) as { error?: { message?: string } | string; message?: string };
    if (typeof j.error === 'string') return j.error;
    return j.error?.message ?? j.message ?? body.slice(0, 500);
  } catch {
    return body.slice(0, 500);
  }
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

  touch(): void {
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

