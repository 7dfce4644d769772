// The Anthropic Messages route of the mock model server: POST /v1/messages (Claude Code adds
// `?beta=true`), streaming SSE exactly as the real API does — message_start, content_block_start /
// delta / stop for text, thinking (thinking_delta + signature_delta) and tool_use
// (input_json_delta), message_delta with stop_reason and usage, message_stop — or one JSON
// message when the request does not ask for a stream.
import { chunkText, jsonResponse, sendScriptedError, type MockModelServer, type MockRequest, type ReplyControl, type RouteContext } from './server';

export type AnthropicBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature?: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id?: string; name: string; input: Record<string, unknown> };

export interface AnthropicUsage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
}

export interface AnthropicReply extends ReplyControl {
  blocks: AnthropicBlock[];
  /** Defaults to `tool_use` when a block is a tool use, else `end_turn`. */
  stop_reason?: 'end_turn' | 'tool_use' | 'max_tokens' | 'stop_sequence';
  usage?: AnthropicUsage;
  model?: string;
  /** Characters per text/thinking delta, and per input_json_delta. */
  chunkSize?: number;
  /** Send an SSE `error` event after this many blocks instead of finishing (a mid-stream failure). */
  streamErrorAfterBlocks?: number;
}

export const ANTHROPIC_MESSAGES = 'POST /v1/messages';

let idCounter = 0;
function nextId(prefix: string): string {
  idCounter += 1;
  return `${prefix}_mock${Date.now().toString(36)}${idCounter.toString(36).padStart(6, '0')}`;
}

function errorShape(type: string, message: string) {
  return { type: 'error', error: { type, message } };
}

/** The request's model, so replies echo what the client asked for. */
function requestedModel(req: MockRequest): string {
  const b = req.body as { model?: unknown } | undefined;
  return typeof b?.model === 'string' ? b.model : 'claude-mock';
}

function defaultStop(reply: AnthropicReply): NonNullable<AnthropicReply['stop_reason']> {
  return reply.stop_reason ?? (reply.blocks.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn');
}

function finalBlocks(reply: AnthropicReply): Array<Record<string, unknown>> {
  return reply.blocks.map((b) => (b.type === 'tool_use' ? { ...b, id: b.id ?? nextId('toolu') } : b.type === 'thinking' ? { ...b, signature: b.signature ?? 'mock-signature' } : { ...b }));
}

async function handle(ctx: RouteContext<AnthropicReply>): Promise<void> {
  const { req, res, reply } = ctx;
  if (!reply) {
    jsonResponse(res, 500, errorShape('api_error', `mock: no scripted reply left for request #${req.seq} to ${req.path}`));
    return;
  }
  if (reply.error) {
    sendScriptedError(res, reply.error, errorShape);
    return;
  }
  const model = reply.model ?? requestedModel(req);
  const usage: AnthropicUsage = reply.usage ?? { input_tokens: 20, output_tokens: 10 };
  const blocks = finalBlocks(reply);
  const stop_reason = defaultStop(reply);
  const id = nextId('msg');
  const stream = (req.body as { stream?: unknown } | undefined)?.stream === true;

  if (!stream) {
    jsonResponse(res, 200, { id, type: 'message', role: 'assistant', model, content: blocks, stop_reason, stop_sequence: null, usage });
    return;
  }

  const sse = ctx.sse();
  const size = reply.chunkSize ?? 12;
  await sse.send(
    {
      type: 'message_start',
      message: {
        id,
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: usage.input_tokens, output_tokens: 1, cache_read_input_tokens: usage.cache_read_input_tokens ?? 0, cache_creation_input_tokens: usage.cache_creation_input_tokens ?? 0 },
      },
    },
    'message_start',
  );
  for (let index = 0; index < blocks.length; index++) {
    if (reply.streamErrorAfterBlocks === index) {
      await sse.send(errorShape('overloaded_error', 'Overloaded (scripted mid-stream error)'), 'error');
      await sse.end();
      return;
    }
    const b = blocks[index];
    if (b.type === 'text') {
      await sse.send({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } }, 'content_block_start');
      for (const piece of chunkText(String(b.text), size)) await sse.send({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } }, 'content_block_delta');
    } else if (b.type === 'thinking') {
      await sse.send({ type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } }, 'content_block_start');
      for (const piece of chunkText(String(b.thinking), size)) await sse.send({ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: piece } }, 'content_block_delta');
      await sse.send({ type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: b.signature } }, 'content_block_delta');
    } else if (b.type === 'redacted_thinking') {
      await sse.send({ type: 'content_block_start', index, content_block: { type: 'redacted_thinking', data: b.data } }, 'content_block_start');
    } else {
      await sse.send({ type: 'content_block_start', index, content_block: { type: 'tool_use', id: b.id, name: b.name, input: {} } }, 'content_block_start');
      for (const piece of chunkText(JSON.stringify(b.input), size * 4)) await sse.send({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } }, 'content_block_delta');
    }
    // A hanging reply stops inside its last block, as a model does while still generating.
    if (reply.hang && index === blocks.length - 1) break;
    await sse.send({ type: 'content_block_stop', index }, 'content_block_stop');
  }
  if (!reply.hang) {
    await sse.send({ type: 'message_delta', delta: { stop_reason, stop_sequence: null }, usage: { output_tokens: usage.output_tokens } }, 'message_delta');
    await sse.send({ type: 'message_stop' }, 'message_stop');
  }
  await sse.end();
}

/** Plug the Messages route (and a token-count route) into a server; returns the queue key. */
export function installAnthropic(server: MockModelServer): string {
  server.route<AnthropicReply>('POST', '/v1/messages', handle);
  server.route('POST', '/v1/messages/count_tokens', ({ res }) => jsonResponse(res, 200, { input_tokens: 100 }));
  return ANTHROPIC_MESSAGES;
}

/** Reply builders, so a test reads like the conversation it scripts. */
export const claude = {
  text(text: string, extra: Partial<AnthropicReply> = {}): AnthropicReply {
    return { blocks: [{ type: 'text', text }], ...extra };
  },
  thinkingThenText(thinking: string, text: string, extra: Partial<AnthropicReply> = {}): AnthropicReply {
    return { blocks: [{ type: 'thinking', thinking }, { type: 'text', text }], ...extra };
  },
  tool(name: string, input: Record<string, unknown>, opts: { id?: string; text?: string } & Partial<AnthropicReply> = {}): AnthropicReply {
    const { id, text, ...extra } = opts;
    const blocks: AnthropicBlock[] = text ? [{ type: 'text', text }] : [];
    blocks.push({ type: 'tool_use', name, input, ...(id ? { id } : {}) });
    return { blocks, ...extra };
  },
  tools(calls: Array<{ name: string; input: Record<string, unknown>; id?: string }>, extra: Partial<AnthropicReply> = {}): AnthropicReply {
    return { blocks: calls.map((c) => ({ type: 'tool_use' as const, ...c })), ...extra };
  },
  error(status: number, type: string, message: string): AnthropicReply {
    return { blocks: [], error: { status, type, message } };
  },
};

/** The text of the last user turn of a Messages request (to tell a main-loop request from a side call). */
export function lastUserText(req: MockRequest): string {
  const b = req.body as { messages?: Array<{ role: string; content: unknown }> } | undefined;
  const msgs = b?.messages ?? [];
  for (let i = msgs.length - 1; i >= 0; i--) {
    if (msgs[i].role !== 'user') continue;
    const c = msgs[i].content;
    if (typeof c === 'string') return c;
    if (Array.isArray(c)) return c.map((p: { type?: string; text?: string }) => (p.type === 'text' ? (p.text ?? '') : '')).join('');
  }
  return '';
}
