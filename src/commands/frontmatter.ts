// Frontmatter of a command file (slash-commands §3): a leading `---` block parsed as YAML. How a
// parse error is treated depends on the command's level: fatal for native (`.rawp`) commands, a
// warning plus a lenient `key: value` fallback for everything else (slash-commands §3, §9).
import { parse as parseYaml } from 'yaml';
import type { CommandLevel } from './types';

export interface ParsedFrontmatter {
  frontmatter: Record<string, unknown>;
  body: string;
  /** Set when the YAML did not parse and the fallback was used (non-native levels only). */
  warning?: string;
}

/** Thrown for a native command whose frontmatter is not valid YAML. */
export class FrontmatterError extends Error {
  constructor(
    message: string,
    readonly path: string | undefined,
  ) {
    super(message);
    this.name = 'FrontmatterError';
  }
}

// `---` on the first line (an optional BOM before it), then the block, then a closing `---` line.
const BLOCK = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n?^---[ \t]*(?:\r?\n|$)/m;

/** Splits off the frontmatter block; a file without a complete block is all body. */
export function splitFrontmatter(content: string): { block: string | undefined; body: string } {
  const m = BLOCK.exec(content);
  if (!m || m.index !== 0) return { block: undefined, body: content };
  return { block: m[1], body: content.slice(m[0].length) };
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
  const value: unknown = parseYaml(block);
  if (value === null || value === undefined) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw new Error('frontmatter must be a YAML mapping (key: value pairs)');
  return value as Record<string, unknown>;
}

function firstLine(message: string): string {
  return message.split('\n')[0] ?? message;
}

/**
 * Parses the frontmatter of `content`. For `level: 'native'` a YAML error throws FrontmatterError;
 * for other levels it returns the fallback parse with a `warning`.
 */
export function parseFrontmatter(content: string, options: { level: CommandLevel; path?: string }): ParsedFrontmatter {
  const { block, body } = splitFrontmatter(content);
  if (block === undefined) return { frontmatter: {}, body };
  try {
    return { frontmatter: yamlMapping(block), body };
  } catch (err) {
    const where = options.path ?? 'command file';
    const reason = firstLine(err instanceof Error ? err.message : String(err));
    if (options.level === 'native') throw new FrontmatterError(`Invalid frontmatter in ${where}: ${reason}`, options.path);
    return {
      frontmatter: parseKeyValueFallback(block),
      body,
      warning: `Invalid frontmatter in ${where} (${reason}); read it as plain key: value lines instead`,
    };
  }
}
