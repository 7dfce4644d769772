// The Gemini API routes of the mock model server: POST /v1beta/models/{model}:streamGenerateContent
// (?alt=sse, one JSON chunk per SSE `data:` line, as gemini-cli reads it) and
// :generateContent (one JSON answer; gemini-cli uses it for side calls such as its next-speaker
// and routing checks), plus :countTokens. Parts are text, thought text (`thought: true`) and
// functionCall; the last chunk carries finishReason and usageMetadata.
import { chunkText, jsonResponse, sendScriptedError, type MockModelServer, type MockRequest, type ReplyControl, type RouteContext } from './server';

export type GeminiPart =
  | { text: string }
  | { thought: string }
  | { functionCall: { name: string; args: Record<string, unknown> } };

export interface GeminiUsage {
  promptTokenCount: number;
  candidatesTokenCount: number;
  thoughtsTokenCount?: number;
  cachedContentTokenCount?: number;
}

export interface GeminiReply extends ReplyControl {
  parts: GeminiPart[];
  finishReason?: 'STOP' | 'MAX_TOKENS' | 'SAFETY';
  usage?: GeminiUsage;
  chunkSize?: number;
}

/** `/v1beta/models/{model}:{method}`, one route (and so one reply queue) per method. */
function modelPath(method: string): RegExp {
  return new RegExp(`^/v1(?:beta|alpha)?/models/(?<model>[^:/]+):${method}$`);
}

function errorShape(type: string, message: string) {
  const code = type === 'RESOURCE_EXHAUSTED' ? 429 : type === 'INVALID_ARGUMENT' ? 400 : 500;
  return { error: { code, message, status: type } };
}

/** Wire form of one part. */
function wirePart(p: GeminiPart): Record<string, unknown> {
  if ('thought' in p) return { text: p.thought, thought: true };
  if ('functionCall' in p) return { functionCall: p.functionCall };
  return { text: p.text };
}

function usageOf(reply: GeminiReply): Record<string, number> {
  const u = reply.usage ?? { promptTokenCount: 20, candidatesTokenCount: 10 };
  return { ...u, totalTokenCount: u.promptTokenCount + u.candidatesTokenCount + (u.thoughtsTokenCount ?? 0) };
}

function chunk(parts: Record<string, unknown>[], model: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { candidates: [{ content: { role: 'model', parts }, index: 0, ...extra }], modelVersion: model, responseId: 'mock-response' };
}

async function stream(ctx: RouteContext<GeminiReply>, model: string): Promise<void> {
  const { reply, res, req } = ctx;
  if (!reply) {
    jsonResponse(res, 500, errorShape('INTERNAL', `mock: no scripted reply left for request #${req.seq} to ${req.path}`));
    return;
  }
  if (reply.error) {
    sendScriptedError(res, reply.error, errorShape);
    return;
  }
  const sse = ctx.sse();
  const size = reply.chunkSize ?? 12;
  for (let i = 0; i < reply.parts.length; i++) {
    const p = reply.parts[i];
    if ('functionCall' in p) await sse.send(chunk([wirePart(p)], model));
    else {
      const isThought = 'thought' in p;
      for (const piece of chunkText(isThought ? p.thought : p.text, size)) await sse.send(chunk([isThought ? { text: piece, thought: true } : { text: piece }], model));
    }
  }
  if (!reply.hang) await sse.send({ ...chunk([], model, { finishReason: reply.finishReason ?? 'STOP' }), usageMetadata: usageOf(reply) });
  await sse.end();
}

/** gemini-cli's side calls ask for JSON; answer them sensibly unless a test scripted a reply. */
function sideCallDefault(req: MockRequest): Record<string, unknown> {
  const text = JSON.stringify(req.body ?? '');
  let answer: unknown = {};
  if (/next_speaker/.test(text)) answer = { reasoning: 'The model finished its turn.', next_speaker: 'user' };
  else if (/complexity_score/.test(text)) answer = { complexity_reasoning: 'a simple task', complexity_score: 10 };
  else if (/model_choice/.test(text)) answer = { reasoning: 'a simple task', model_choice: 'flash' };
  return { candidates: [{ content: { role: 'model', parts: [{ text: JSON.stringify(answer) }] }, finishReason: 'STOP', index: 0 }], usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 5, totalTokenCount: 10 } };
}

/**
 * Plug the Gemini routes into a server. Returns the queue keys: scripted streams go to `stream`;
 * `generate` answers gemini-cli's one-shot side calls (sensible defaults when nothing is queued).
 */
export function installGemini(server: MockModelServer): { stream: string; generate: string } {
  const streamKey = server.route<GeminiReply>('POST', modelPath('streamGenerateContent'), (ctx) => stream(ctx, ctx.params.model));
  const generateKey = server.route<GeminiReply>('POST', modelPath('generateContent'), (ctx) => {
    const scripted = ctx.reply;
    if (scripted?.error) return sendScriptedError(ctx.res, scripted.error, errorShape);
    if (scripted) return jsonResponse(ctx.res, 200, { ...chunk(scripted.parts.map(wirePart), ctx.params.model, { finishReason: 'STOP' }), usageMetadata: usageOf(scripted) });
    return jsonResponse(ctx.res, 200, sideCallDefault(ctx.req));
  });
  server.route('POST', modelPath('countTokens'), ({ res }) => jsonResponse(res, 200, { totalTokens: 100 }));
  return { stream: streamKey, generate: generateKey };
}

/** Reply builders for Gemini conversations. gemini-cli tool names: read_file, write_file, replace, run_shell_command, … */
export const gemini = {
  text(text: string, extra: Partial<GeminiReply> = {}): GeminiReply {
    return { parts: [{ text }], ...extra };
  },
  thoughtThenText(thought: string, text: string, extra: Partial<GeminiReply> = {}): GeminiReply {
    return { parts: [{ thought }, { text }], ...extra };
  },
  call(name: string, args: Record<string, unknown>, extra: Partial<GeminiReply> = {}): GeminiReply {
    return { parts: [{ functionCall: { name, args } }], ...extra };
  },
  error(status: number, type: string, message: string): GeminiReply {
    return { parts: [], error: { status, type, message } };
  },
};

/** The text parts of the last user content of a Gemini request. */
export function lastUserText(body: unknown): string {
  const contents = (body as { contents?: Array<{ role?: string; parts?: Array<{ text?: string }> }> } | undefined)?.contents ?? [];
  for (let i = contents.length - 1; i >= 0; i--) {
    const c = contents[i];
    if (c.role === 'user' && c.parts?.some((p) => typeof p.text === 'string')) return c.parts.map((p) => p.text ?? '').join('');
  }
  return '';
}
