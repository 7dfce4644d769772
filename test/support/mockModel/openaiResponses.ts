// The OpenAI Responses route of the mock model server: POST /v1/responses, streaming SSE as the
// real API does and as Codex reads it — response.created, then per output item
// response.output_item.added, its deltas (output_text / reasoning_summary_text / function-call
// arguments), response.output_item.done, and response.completed with usage. `hang` stops inside
// the last item, like a model still generating; `streamFailAfterItems` sends response.failed.
import { chunkText, jsonResponse, sendScriptedError, type MockModelServer, type ReplyControl, type RouteContext } from './server';

export type ResponsesItem =
  | { type: 'message'; text: string }
  | { type: 'reasoning'; summary: string }
  | { type: 'function_call'; name: string; arguments: Record<string, unknown>; call_id?: string }
  /** A freeform tool such as Codex's apply_patch. */
  | { type: 'custom_tool_call'; name: string; input: string; call_id?: string };

export interface ResponsesUsage {
  input_tokens: number;
  output_tokens: number;
  cached_tokens?: number;
  reasoning_tokens?: number;
}

export interface ResponsesReply extends ReplyControl {
  items: ResponsesItem[];
  usage?: ResponsesUsage;
  chunkSize?: number;
  /** Send `response.failed` after this many items instead of completing. */
  streamFailAfterItems?: number;
}

export const OPENAI_RESPONSES = 'POST /v1/responses';

let counter = 0;
function nextId(prefix: string): string {
  counter += 1;
  return `${prefix}_mock${Date.now().toString(36)}${counter.toString(36).padStart(5, '0')}`;
}

function errorShape(type: string, message: string) {
  return { error: { type, message, code: type } };
}

/** The item as the final `response.output_item.done` and `response.completed` carry it. */
function doneItem(item: ResponsesItem, id: string): Record<string, unknown> {
  switch (item.type) {
    case 'message':
      return { type: 'message', id, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: item.text, annotations: [] }] };
    case 'reasoning':
      return { type: 'reasoning', id, summary: [{ type: 'summary_text', text: item.summary }] };
    case 'function_call':
      return { type: 'function_call', id, call_id: item.call_id ?? nextId('call'), name: item.name, arguments: JSON.stringify(item.arguments), status: 'completed' };
    case 'custom_tool_call':
      return { type: 'custom_tool_call', id, call_id: item.call_id ?? nextId('call'), name: item.name, input: item.input, status: 'completed' };
  }
}

async function handle(ctx: RouteContext<ResponsesReply>): Promise<void> {
  const { req, res, reply } = ctx;
  if (!reply) {
    jsonResponse(res, 500, errorShape('server_error', `mock: no scripted reply left for request #${req.seq} to ${req.path}`));
    return;
  }
  if (reply.error) {
    sendScriptedError(res, reply.error, errorShape);
    return;
  }
  const responseId = nextId('resp');
  const model = (req.body as { model?: string } | undefined)?.model ?? 'gpt-mock';
  const size = reply.chunkSize ?? 12;
  const sse = ctx.sse();
  let seq = 0;
  const send = (data: Record<string, unknown>) => sse.send({ ...data, sequence_number: seq++ }, String(data.type));
  await send({ type: 'response.created', response: { id: responseId, object: 'response', model, status: 'in_progress', output: [] } });
  const output: Record<string, unknown>[] = [];
  for (let i = 0; i < reply.items.length; i++) {
    if (reply.streamFailAfterItems === i) {
      await send({ type: 'response.failed', response: { id: responseId, status: 'failed', error: { code: 'server_error', message: 'scripted mid-stream failure' } } });
      await sse.end();
      return;
    }
    const item = reply.items[i];
    const id = nextId(item.type === 'message' ? 'msg' : item.type === 'reasoning' ? 'rs' : 'fc');
    const done = doneItem(item, id);
    const added = item.type === 'message' ? { ...done, status: 'in_progress', content: [] } : item.type === 'reasoning' ? { ...done, summary: [] } : item.type === 'function_call' ? { ...done, arguments: '', status: 'in_progress' } : { ...done, input: '', status: 'in_progress' };
    await send({ type: 'response.output_item.added', output_index: i, item: added });
    if (item.type === 'message') {
      await send({ type: 'response.content_part.added', item_id: id, output_index: i, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } });
      for (const delta of chunkText(item.text, size)) await send({ type: 'response.output_text.delta', item_id: id, output_index: i, content_index: 0, delta });
    } else if (item.type === 'reasoning') {
      for (const delta of chunkText(item.summary, size)) await send({ type: 'response.reasoning_summary_text.delta', item_id: id, output_index: i, summary_index: 0, delta });
    } else if (item.type === 'function_call') {
      for (const delta of chunkText(JSON.stringify(item.arguments), size * 4)) await send({ type: 'response.function_call_arguments.delta', item_id: id, output_index: i, delta });
    } else {
      for (const delta of chunkText(item.input, size * 4)) await send({ type: 'response.custom_tool_call_input.delta', item_id: id, output_index: i, delta });
    }
    // A hanging reply stops inside its last item, as a model does while still generating.
    if (reply.hang && i === reply.items.length - 1) break;
    await send({ type: 'response.output_item.done', output_index: i, item: done });
    output.push(done);
  }
  if (!reply.hang) {
    const u = reply.usage ?? { input_tokens: 20, output_tokens: 10 };
    await send({
      type: 'response.completed',
      response: {
        id: responseId,
        object: 'response',
        model,
        status: 'completed',
        output,
        usage: {
          input_tokens: u.input_tokens,
          input_tokens_details: { cached_tokens: u.cached_tokens ?? 0 },
          output_tokens: u.output_tokens,
          output_tokens_details: { reasoning_tokens: u.reasoning_tokens ?? 0 },
          total_tokens: u.input_tokens + u.output_tokens,
        },
      },
    });
  }
  await sse.end();
}

/** Plug the Responses route into a server; returns the queue key. */
export function installOpenAIResponses(server: MockModelServer): string {
  server.route<ResponsesReply>('POST', '/v1/responses', handle);
  return OPENAI_RESPONSES;
}

/** Reply builders for Codex conversations. */
export const responses = {
  text(text: string, extra: Partial<ResponsesReply> = {}): ResponsesReply {
    return { items: [{ type: 'message', text }], ...extra };
  },
  reasoningThenText(summary: string, text: string, extra: Partial<ResponsesReply> = {}): ResponsesReply {
    return { items: [{ type: 'reasoning', summary }, { type: 'message', text }], ...extra };
  },
  /** Codex's shell tool (`exec_command`). */
  shell(cmd: string, extra: Partial<ResponsesReply> = {}): ResponsesReply {
    return { items: [{ type: 'function_call', name: 'exec_command', arguments: { cmd, yield_time_ms: 10000 } }], ...extra };
  },
  /** Codex's freeform apply_patch tool; `patch` is the `*** Begin Patch` … `*** End Patch` text. */
  patch(patch: string, extra: Partial<ResponsesReply> = {}): ResponsesReply {
    return { items: [{ type: 'custom_tool_call', name: 'apply_patch', input: patch }], ...extra };
  },
  error(status: number, type: string, message: string): ResponsesReply {
    return { items: [], error: { status, type, message } };
  },
};

/** The text of the last user message in a Responses request. */
export function lastUserInput(body: unknown): string {
  const input = (body as { input?: unknown } | undefined)?.input;
  if (typeof input === 'string') return input;
  if (!Array.isArray(input)) return '';
  for (let i = input.length - 1; i >= 0; i--) {
    const m = input[i] as { type?: string; role?: string; content?: Array<{ type?: string; text?: string }> };
    if (m.role === 'user' && Array.isArray(m.content)) return m.content.map((p) => p.text ?? '').join('');
  }
  return '';
}
