// Claude Code's stream-json lines, read defensively: the CLI changes between versions, so nothing
// here assumes a field exists until it is checked. Only what the translation needs is named.

export type Json = Record<string, unknown>;

export function isObj(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

export function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

export function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

export function obj(v: unknown): Json {
  return isObj(v) ? v : {};
}

/** A content block's text: a string, or the text parts of a block list (images etc. skipped). */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  return arr(content)
    .map((p) => (isObj(p) && p.type === 'text' ? (str(p.text) ?? '') : ''))
    .filter(Boolean)
    .join('\n');
}

/** The token usage of an Anthropic message or a `result` line. */
export interface NativeUsage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
}

export function usageOf(v: unknown): NativeUsage | undefined {
  if (!isObj(v)) return undefined;
  return {
    input_tokens: num(v.input_tokens) ?? 0,
    output_tokens: num(v.output_tokens) ?? 0,
    cache_read_input_tokens: num(v.cache_read_input_tokens) ?? 0,
    cache_creation_input_tokens: num(v.cache_creation_input_tokens) ?? 0,
  };
}
