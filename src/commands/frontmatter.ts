// Frontmatter of a command file (slash-commands §3): a leading `---` block parsed as YAML. How a
// parse error is treated depends on the command's level: fatal for native (`.rawp`) commands, a
// warning plus a lenient `key: value` fallback for everything else (slash-commands §3, §9).
// A file of the workspace is the repository's, so every step here is linear or bounded: no
// event-loop block from one file (decision 712).
import { Lexer, parse as parseYaml } from 'yaml';
import type { CommandLevel } from './types';

export interface ParsedFrontmatter {
  frontmatter: Record<string, unknown>;
  body: string;
  /** Set when the YAML did not parse and the fallback was used (non-native levels only). */
  warning?: string;
}

/** Thrown for a native command whose frontmatter is not valid YAML, and at every level for frontmatter too big to parse. */
export class FrontmatterError extends Error {
  constructor(
    message: string,
    readonly path: string | undefined,
    /** Which of the two, and what the parser or the bound said (no path in it): shown to the user (decision 721). */
    readonly kind: 'invalid' | 'too_big' = 'invalid',
    readonly detail?: string,
  ) {
    super(message);
    this.name = 'FrontmatterError';
  }
}

/**
 * The largest frontmatter block we parse, in UTF-8 bytes. A real command's block is a few hundred
 * bytes; the bound keeps the YAML parser, which is superlinear in keys (64,000 `kN: v` lines took
 * 40 s), to blocks it parses in milliseconds.
 */
export const FRONTMATTER_MAX_BYTES = 64 * 1024;
/**
 * The most YAML tokens a block may hold. 64 KiB of one-character keys or `[a,a,…]` is still tens of
 * thousands of nodes (0.3–1.8 s to parse); counting the lexer's tokens up to this bound costs at
 * most a few ms, and 2,000 tokens is some 300 keys or list items (a real block: 10–100).
 */
export const FRONTMATTER_MAX_TOKENS = 2_000;

// `---` on the first line (an optional BOM before it), then the block, then a closing `---` line.
const OPENING = /^\uFEFF?---[ \t]*\r?\n/;
const CLOSING = /^---[ \t]*\r?$/;

/**
 * Splits off the frontmatter block; a file without a complete block is all body. One pass over the
 * lines: the opening line is looked for at the start only and each later line is looked at once
 * (the multiline regex it replaces rescanned the rest of the file from every `---` line: 700 KB of
 * BOM + `---` lines held the event loop 25 s).
 */
export function splitFrontmatter(content: string): { block: string | undefined; body: string } {
  const opening = OPENING.exec(content);
  if (!opening) return { block: undefined, body: content };
  const start = opening[0].length;
  for (let at = start; at <= content.length; ) {
    const nl = content.indexOf('\n', at);
    const end = nl === -1 ? content.length : nl;
    if (content.startsWith('---', at) && CLOSING.test(content.slice(at, end))) {
      // The line break before the closing line belongs to neither the block nor the body.
      let blockEnd = at;
      if (blockEnd > start && content[blockEnd - 1] === '\n') blockEnd--;
      if (blockEnd > start && content[blockEnd - 1] === '\r') blockEnd--;
      return { block: content.slice(start, blockEnd), body: nl === -1 ? '' : content.slice(nl + 1) };
    }
    if (nl === -1) break;
    at = nl + 1;
  }
  return { block: undefined, body: content };
}

/** Why `block` is too big to parse, or undefined when it is within both bounds. */
export function frontmatterTooBig(block: string): string | undefined {
  // Bytes are counted only when characters could exceed the bound (a character is 1–3 bytes).
  if (block.length * 3 > FRONTMATTER_MAX_BYTES && Buffer.byteLength(block) > FRONTMATTER_MAX_BYTES) {
    return `larger than ${FRONTMATTER_MAX_BYTES / 1024} KiB`;
  }
  let tokens = 0;
  for (const _token of new Lexer().lex(block)) {
    if (++tokens > FRONTMATTER_MAX_TOKENS) return `more than ${FRONTMATTER_MAX_TOKENS} YAML tokens`;
  }
  return undefined;
}

/**
 * Lenient `key: value` reading used when YAML fails: one pair per line, split at the first colon,
 * surrounding quotes removed. Lines without a colon (or with an empty key) are skipped.
 */
export function parseKeyValueFallback(block: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of block.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const key = line.slice(0, colon).trim();
    if (!key || key.startsWith('#')) continue;
    let value = line.slice(colon + 1).trim();
    if (value.length >= 2 && (value[0] === '"' || value[0] === "'") && value.endsWith(value[0])) value = value.slice(1, -1);
    out[key] = value;
  }
  return out;
}

function yamlMapping(block: string): Record<string, unknown> {
  // logLevel 'error': the parser's warnings (an unknown tag per `!t`) would otherwise go to the
  // process's stderr once per occurrence; the file's errors still throw.
  const value: unknown = parseYaml(block, { logLevel: 'error' });
  if (value === null || value === undefined) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw new Error('frontmatter must be a YAML mapping (key: value pairs)');
  return value as Record<string, unknown>;
}

/** The parser's first line, its line number counted in the file (the block starts on line 2), no trailing colon. */
function firstLine(message: string): string {
  const line = message.split('\n')[0] ?? message;
  return line.replace(/\bat line (\d+)/, (_, n: string) => `at line ${Number(n) + 1} of the file`).replace(/:\s*$/, '');
}

/**
 * Parses the frontmatter of `content`. For `level: 'native'` a YAML error throws FrontmatterError;
 * for other levels it returns the fallback parse with a `warning`. A block over the bounds throws
 * FrontmatterError at every level.
 */
export function parseFrontmatter(content: string, options: { level: CommandLevel; path?: string }): ParsedFrontmatter {
  const { block, body } = splitFrontmatter(content);
  if (block === undefined) return { frontmatter: {}, body };
  const tooBig = frontmatterTooBig(block);
  // At every level: the lenient fallback would hand the same oversized block on as values.
  if (tooBig) throw new FrontmatterError(`Frontmatter too big in ${options.path ?? 'command file'} (${tooBig}); the command is not loaded`, options.path, 'too_big', tooBig);
  try {
    return { frontmatter: yamlMapping(block), body };
  } catch (err) {
    const where = options.path ?? 'command file';
    const reason = firstLine(err instanceof Error ? err.message : String(err));
    if (options.level === 'native') throw new FrontmatterError(`Invalid frontmatter in ${where}: ${reason}`, options.path, 'invalid', reason);
    return {
      frontmatter: parseKeyValueFallback(block),
      body,
      warning: `Invalid frontmatter in ${where} (${reason}); read it as plain key: value lines instead`,
    };
  }
}
