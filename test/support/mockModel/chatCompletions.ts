// The OpenAI Chat Completions route of the mock model server: POST /v1/chat/completions, streaming
// SSE `data:` chunks (chat.completion.chunk) as OpenAI, vLLM, LM Studio and Ollama send them —
// content deltas, `reasoning_content` deltas (how vLLM/DeepSeek-style servers stream thinking),
// tool_calls deltas (id and name first, arguments in pieces, by index), a finish_reason chunk,
// a usage chunk when `stream_options.include_usage` is set, and `data: [DONE]`.
import { chunkText, jsonResponse, sendScriptedError, type MockModelServer, type ReplyControl, type RouteContext } from './server';

export interface ChatToolCall {
  name: string;
  arguments: Record<string, unknown>;
  id?: string;
}

export interface ChatReply extends ReplyControl {
  reasoning?: string;
  content?: string;
  toolCalls?: ChatToolCall[];
  finishReason?: 'stop' | 'tool_calls' | 'length';
  usage?: { prompt_tokens: number; completion_tokens: number };
  chunkSize?: number;
  /** Send these `data:` payloads as written (malformed streams), then end. */
  rawData?: string[];
}

export const CHAT_COMPLETIONS = 'POST /v1/chat/completions';

let counter = 0;

function errorShape(type: string, message: string) {
  return { error: { message, type, code: null } };
}

export async function handleChat(ctx: RouteContext<ChatReply>): Promise<void> {
  const { req, res, reply } = ctx;
  if (!reply) {
    jsonResponse(res, 500, errorShape('server_error', `mock: no scripted reply left for request #${req.seq} to ${req.path}`));
    return;
  }
  if (reply.error) {
    sendScriptedError(res, reply.error, errorShape);
    return;
  }
  const body = (req.body ?? {}) as { model?: string; stream?: boolean; stream_options?: { include_usage?: boolean } };
  const id = `chatcmpl-mock${++counter}`;
  const model = body.model ?? 'mock-model';
  const created = Math.floor(Date.now() / 1000);
  const finish = reply.finishReason ?? (reply.toolCalls?.length ? 'tool_calls' : 'stop');
  const usage = reply.usage ?? { prompt_tokens: 20, completion_tokens: 10 };
  const toolCalls = (reply.toolCalls ?? []).map((c, i) => ({ ...c, id: c.id ?? `call_mock${counter}_${i}` }));

  if (!body.stream) {
    const message: Record<string, unknown> = { role: 'assistant', content: reply.content ?? null };
    if (toolCalls.length) message.tool_calls = toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.arguments) } }));
    jsonResponse(res, 200, { id, object: 'chat.completion', created, model, choices: [{ index: 0, message, finish_reason: finish }], usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } });
    return;
  }

  const sse = ctx.sse();
  if (reply.rawData) {
    for (const data of reply.rawData) await sse.send(data);
    await sse.end();
    return;
  }
  const size = reply.chunkSize ?? 12;
  const chunk = (delta: Record<string, unknown>, finish_reason: string | null = null) => sse.send({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason }] });
  await chunk({ role: 'assistant', content: '' });
  for (const piece of reply.reasoning ? chunkText(reply.reasoning, size) : []) await chunk({ reasoning_content: piece });
  for (const piece of reply.content ? chunkText(reply.content, size) : []) await chunk({ content: piece });
  for (let i = 0; i < toolCalls.length; i++) {
    const c = toolCalls[i];
    await chunk({ tool_calls: [{ index: i, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }] });
    for (const piece of chunkText(JSON.stringify(c.arguments), size * 2)) await chunk({ tool_calls: [{ index: i, function: { arguments: piece } }] });
  }
  if (!reply.hang) {
    await chunk({}, finish);
    if (body.stream_options?.include_usage) await sse.send({ id, object: 'chat.completion.chunk', created, model, choices: [], usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } });
    await sse.send('[DONE]');
  }
  await sse.end();
}

/** Plug the chat completions route into a server; returns the queue key. */
export function installChatCompletions(server: MockModelServer): string {
  server.route<ChatReply>('POST', '/v1/chat/completions', handleChat);
  server.route('GET', '/v1/models', ({ res }) => jsonResponse(res, 200, { object: 'list', data: [{ id: 'mock-model', object: 'model' }] }));
  return CHAT_COMPLETIONS;
}

export const chat = {
  text(content: string, extra: Partial<ChatReply> = {}): ChatReply {
    return { content, ...extra };
  },
  reasoningThenText(reasoning: string, content: string, extra: Partial<ChatReply> = {}): ChatReply {
    return { reasoning, content, ...extra };
  },
  tool(name: string, args: Record<string, unknown>, extra: Partial<ChatReply> = {}): ChatReply {
    return { toolCalls: [{ name, arguments: args }], ...extra };
  },
  tools(calls: ChatToolCall[], extra: Partial<ChatReply> = {}): ChatReply {
    return { toolCalls: calls, ...extra };
  },
  error(status: number, type: string, message: string): ChatReply {
    return { error: { status, type, message } };
  },
};
