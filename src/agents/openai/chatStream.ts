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
}

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
  | { kind: 'failed'; status?: number; message: string; cancelled: boolean };

export async function streamChat(req: ChatRequest, on: ChatHandlers): Promise<ChatResult> {
  // Errors name the URL as it may be shown (no password, no key in its query): fetch's own message
  // would repeat the whole URL.
  const problem = baseUrlProblem(req.baseUrl);
  if (problem) return { kind: 'failed', message: problem, cancelled: false };
  const url = chatCompletionsUrl(req.baseUrl);
  const shown = shownUrl(url);
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...(req.apiKey ? { authorization: `Bearer ${req.apiKey}` } : {}) },
      body: JSON.stringify({ model: req.model, messages: req.messages, ...(req.tools.length ? { tools: req.tools, tool_choice: 'auto' } : {}), stream: true, stream_options: { include_usage: true }, ...req.extra }),
      signal: req.signal,
    });
  } catch (e) {
    return { kind: 'failed', message: `cannot reach ${shown}: ${causeOf(e)}`, cancelled: req.signal.aborted };
  }
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
      buffer += decoder.decode(chunk, { stream: true });
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl).replace(/\r$/, '');
        buffer = buffer.slice(nl + 1);
        if (!line.startsWith('data:')) continue;
        const data = line.slice(5).trim();
        if (data === '[DONE]') {
          sawDone = true;
          continue;
        }
        let json: StreamChunk;
        try {
          json = JSON.parse(data) as StreamChunk;
        } catch {
          continue; // a keep-alive or a vendor comment
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
