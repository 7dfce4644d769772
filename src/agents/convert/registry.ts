// `rawp convert --from <agent>`: one converter per native transcript format. Each converter lives
// next to its adapter and reuses the adapter's pure translation; this file only lists them.
import type { Frame } from '../../protocol/frameTypes';

export interface ConvertOptions {
  /** Session id of the produced frames (a fresh UUID v4 when absent). */
  session_id?: string;
  /** Workspace the transcript was recorded in, for relative paths. */
  workspacePath?: string;
}

export interface ConvertResult {
  frames: Frame[];
  /** Lines that could not be used (not JSON, unknown shape), with their 1-based line numbers. */
  warnings: Array<{ line: number; message: string }>;
}

export interface NativeConverter {
  /** The `--from` name: claude-code, codex, acp, gemini. */
  id: string;
  /** One line for `rawp convert --help`: what input it expects. */
  input: string;
  convert(lines: Iterable<string>, options: ConvertOptions): ConvertResult;
}

const converters = new Map<string, NativeConverter>();

/** Add a converter (each converter module calls this once; see ./index.ts for the list). */
export function registerConverter(c: NativeConverter): void {
  converters.set(c.id, c);
}

export function getConverter(id: string): NativeConverter | undefined {
  return converters.get(id);
}

export function listConverters(): NativeConverter[] {
  return [...converters.values()].sort((a, b) => a.id.localeCompare(b.id));
}

/** Split text into lines (LF or CRLF) with their 1-based numbers, blank lines dropped. */
export function numberedLines(lines: Iterable<string>): Array<{ line: number; text: string }> {
  const out: Array<{ line: number; text: string }> = [];
  let n = 0;
  for (const l of lines) {
    n++;
    if (l.trim()) out.push({ line: n, text: l });
  }
  return out;
}

/**
 * The JSON lines of a transcript with their 1-based numbers: blank lines dropped, a line that is
 * not JSON reported in `warnings` (and skipped) — every converter reads its input this way.
 */
export function* jsonLines(lines: Iterable<string>, warnings: ConvertResult['warnings']): Generator<{ line: number; value: unknown }> {
  for (const { line, text } of numberedLines(lines)) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      warnings.push({ line, message: `not JSON: ${(e as Error).message}` });
      continue;
    }
    yield { line, value };
  }
}
