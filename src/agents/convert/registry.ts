// `rawp convert --from <agent>`: one converter per native transcript format. Each converter lives
// next to its adapter and reuses the adapter's pure translation; this file only lists them.
import type { Frame } from '../../protocol/frameTypes';
import { jsonTextTooDeep } from '../../protocol/limits';
import { AGENT_LINE_MAX_DEPTH, MAX_LINE_CHARS, TOO_DEEP_REASON } from '../process/jsonLines';

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

/** One line of a transcript: its 1-based number and text. `length` is set for a line `rawp convert`
 * streamed past without keeping it (longer than MAX_LINE_CHARS, decision 726): `text` is then ''. */
export interface NumberedLine {
  line: number;
  text: string;
  length?: number;
}

/**
 * Lines that arrive while they are converted (`rawp convert` streaming its input, decision 726).
 * numberedLines reads its `entries` (numbered, blank lines dropped, an over-long line as its length
 * only) and hands it the converter's warnings list, which it passes on as lines are read.
 */
export interface StreamedLines extends Iterable<string> {
  entries(): Iterable<NumberedLine>;
  watch(warnings: ConvertResult['warnings']): void;
}

function isStreamed(lines: Iterable<string>): lines is StreamedLines {
  return typeof (lines as Partial<StreamedLines>).entries === 'function' && typeof (lines as Partial<StreamedLines>).watch === 'function';
}

/** The lines (LF or CRLF split) with their 1-based numbers, blank lines dropped, read as they come. */
export function* numberedLines(lines: Iterable<string>, warnings?: ConvertResult['warnings']): Generator<NumberedLine> {
  if (isStreamed(lines)) {
    if (warnings) lines.watch(warnings);
    yield* lines.entries();
    return;
  }
  let n = 0;
  for (const l of lines) {
    n++;
    if (l.trim()) yield { line: n, text: l };
  }
}

/**
 * Why a transcript line is not read at all, or undefined (decision 717): the live adapters' line
 * reader refuses it too (jsonLines.ts), so a converter never makes a frame the adapter would not.
 * A line nested deeper than an agent's line may be is refused before JSON.parse, which takes
 * 5,000 levels that zod and the frame's JSON.stringify then die on (the conversion ended there,
 * its later lines lost); a line longer than the reader keeps is refused by its length (`length`:
 * a streamed line that long arrives as its length only, decision 726).
 */
export function unreadableLine(text: string, length = text.length): string | undefined {
  if (length > MAX_LINE_CHARS) return `could not be read (longer than ${MAX_LINE_CHARS.toLocaleString('en-US')} characters: ${length.toLocaleString('en-US')})`;
  if (jsonTextTooDeep(text, AGENT_LINE_MAX_DEPTH)) return `could not be read (${TOO_DEEP_REASON})`;
  return undefined;
}

/**
 * The JSON lines of a transcript with their 1-based numbers: blank lines dropped, a line that is
 * not JSON, or that cannot be read (unreadableLine), reported in `warnings` (and skipped) — every
 * converter reads its input this way.
 */
export function* jsonLines(lines: Iterable<string>, warnings: ConvertResult['warnings']): Generator<{ line: number; value: unknown }> {
  for (const { line, text, length } of numberedLines(lines, warnings)) {
    const unreadable = unreadableLine(text, length);
    if (unreadable) {
      warnings.push({ line, message: unreadable });
      continue;
    }
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
