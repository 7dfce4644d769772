// A GET of a model server's own JSON beside its chat calls: its model list, Ollama's `/api/ps`
// (decisions 734, 738). The server is not trusted (decision 717): at most `maxBytes` are read, the
// nesting is checked before decoding, the answer must come within 5 s and fit `schema`.
// Any failure is undefined: the caller goes on without what it asked.
import type { z } from 'zod';
import { boundedBodyText, modelJsonTooDeep } from './streamLimits';

/** The header that carries the API key, as every request to the server sends it. */
export function bearer(apiKey: string | undefined): Record<string, string> {
  return apiKey ? { authorization: `Bearer ${apiKey}` } : {};
}

/** How long such an answer may take: a server answers these from memory. */
export const SERVER_JSON_TIMEOUT_MS = 5_000;

export interface ServerJsonOptions {
  apiKey?: string;
  maxBytes: number;
  signal: AbortSignal;
}

export async function getServerJson<T>(url: string, schema: z.ZodType<T>, o: ServerJsonOptions): Promise<T | undefined> {
  let text: string;
  try {
    const response = await fetch(url, { headers: bearer(o.apiKey), signal: AbortSignal.any([o.signal, AbortSignal.timeout(SERVER_JSON_TIMEOUT_MS)]) });
    text = await boundedBodyText(response, o.maxBytes);
    if (!response.ok) return undefined;
  } catch {
    // Unreachable or slow: the chat call itself will say so, or work.
    return undefined;
  }
  if (modelJsonTooDeep(text)) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = schema.safeParse(json);
  return parsed.success ? parsed.data : undefined;
}
