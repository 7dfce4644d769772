// §11: an agent without a native JSON-Schema option answers structured requests in its final
// text. This finds the JSON object in that text: a fenced block (```json … ``` or a bare ```),
// else the whole text, else the span from its first `{` to its last `}` (prose around one object).
// Bounded: texts over MAX_ANSWER_CHARS and objects nested deeper than MAX_ANSWER_DEPTH are refused
// before JSON.parse sees them (src/protocol/limits.ts), so no answer can stall the session.
import { jsonTextTooDeep } from './limits';

export const MAX_ANSWER_CHARS = 1_000_000;
export const MAX_ANSWER_DEPTH = 64;

export type JsonAnswer =
  | { found: true; value: Record<string, unknown>; how: 'fenced' | 'bare' | 'embedded' }
  | { found: false; reason: string };

const FENCE = /```[ \t]*(?:json|JSON|jsonc)?[ \t]*\r?\n([\s\S]*?)\r?\n?```/g;

/** The JSON object the answer text carries, or why there is none. */
export function extractJsonObject(text: string): JsonAnswer {
  if (text.length > MAX_ANSWER_CHARS) return { found: false, reason: `the answer is longer than ${MAX_ANSWER_CHARS} characters` };
  const fenced = [...text.matchAll(FENCE)].map((m) => m[1]);
  // The last fenced object wins: agents tend to show drafts first and the answer last.
  for (let i = fenced.length - 1; i >= 0; i--) {
    const v = parseObject(fenced[i]);
    if (v.ok) return { found: true, value: v.value, how: 'fenced' };
  }
  const whole = parseObject(text);
  if (whole.ok) return { found: true, value: whole.value, how: 'bare' };
  const first = text.indexOf('{');
  const last = text.lastIndexOf('}');
  if (first >= 0 && last > first) {
    const span = parseObject(text.slice(first, last + 1));
    if (span.ok) return { found: true, value: span.value, how: 'embedded' };
  }
  if (whole.why === 'too deep') return { found: false, reason: `the JSON in the answer nests deeper than ${MAX_ANSWER_DEPTH} levels` };
  if (whole.why === 'not an object') return { found: false, reason: 'the answer is JSON but not an object (§11.1 data is an object)' };
  return { found: false, reason: text.trim() ? 'the answer contains no JSON object' : 'the agent gave no text answer' };
}

function parseObject(text: string): { ok: true; value: Record<string, unknown> } | { ok: false; why: 'syntax' | 'too deep' | 'not an object' } {
  const t = text.trim();
  if (!t) return { ok: false, why: 'syntax' };
  if (jsonTextTooDeep(t, MAX_ANSWER_DEPTH)) return { ok: false, why: 'too deep' };
  let v: unknown;
  try {
    v = JSON.parse(t);
  } catch {
    return { ok: false, why: 'syntax' };
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return { ok: false, why: 'not an object' };
  return { ok: true, value: v as Record<string, unknown> };
}
