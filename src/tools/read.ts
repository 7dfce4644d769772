// Read: a line-numbered window of a text file (`cat -n` style), Claude Code's input schema. A
// successful read records present@version in the ledger; a missing file records absent. A file
// over MAX_READ_BYTES is refused before it is read, and records nothing (decision 539).
import { z } from 'zod';
import { FsError } from '../workspace/fsBackend';
import { errorOutcome } from './fsErrors';
import { lineWindowInTurns } from './lineWindow';
import { targetOf } from './paths';
import { sizeBeforeRead } from './sizeBeforeRead';
import { defineTool, type ToolOutcome } from './types';

export { lineWindow } from './lineWindow';

const DEFAULT_LIMIT = 2000;
const MAX_LINE = 2000;
/**
 * The largest file Read takes (32 MiB). FsBackend reads and decodes a file whole (its version is
 * the hash of all its bytes), so a 3-line window of 100 MB cost 300 MB of memory and a 0.8 s block.
 */
export const MAX_READ_BYTES = 32 * 1024 * 1024;

export const ReadInput = z.object({
  file_path: z.string().min(1).describe('The absolute path to the file to read (or relative to the workspace)'),
  offset: z.number().int().min(1).optional().describe('The line number to start reading from (1-based)'),
  limit: z.number().int().min(1).optional().describe('The number of lines to read (default 2000)'),
});

export const ReadTool = defineTool({
  name: 'Read',
  description: 'Reads a file from the workspace and returns it with line numbers. Reading a file is required before editing it.',
  category: 'filesystem',
  output_type: 'file_content',
  kind: 'read',
  requires_approval: false,
  schema: ReadInput,
  affectedPaths: (i) => [i.file_path],
  async run(input, ctx) {
    const target = targetOf(ctx.fs.roots, ctx.cwd, input.file_path, ctx.fs.rootAliases);
    try {
      // Its size first, from metadata: a file too big is never read (a symlink's size is the link's, so the text's length is checked too).
      const st = await sizeBeforeRead(ctx.fs, target.abs);
      if (st?.type === 'file' && st.size > MAX_READ_BYTES) return tooBig(target.displayPath, st.size);
      const file = await ctx.fs.readText(target.abs);
      // UTF-16 length ≤ UTF-8 bytes, so this never refuses a file under the limit.
      if (file.text.length > MAX_READ_BYTES) return tooBig(target.displayPath, file.text.length);
      const start = (input.offset ?? 1) - 1;
      const limit = input.limit ?? DEFAULT_LIMIT;
      const scan = file.text.length === 0 ? undefined : await lineWindowInTurns(file.text, start, limit);
      // A binary file is shown to nobody, a file that is not UTF-8 with � for its bad bytes: the
      // ledger keeps either, so no text write of it is asked about (decisions 602, 608).
      const notText = scan === 'binary' ? 'binary' : file.notUtf8 ? 'not-utf8' : undefined;
      ctx.fsEvents.observed(target, ctx.actor, { kind: 'present', version: file.version, ...(notText ? { notText } : {}) });
      if (scan === undefined) return { status: 'success', output: readNotes.empty(target.displayPath) };
      if (scan === 'binary') return { status: 'success', output: readNotes.binary(target.displayPath) };
      const { window, count } = scan;
      let cutLine = false;
      const body = window
        .map((l, i) => {
          if (l.length > MAX_LINE) {
            cutLine = true;
            l = l.slice(0, MAX_LINE) + '…';
          }
          return `${String(start + i + 1).padStart(6)}\t${l}`;
        })
        .join('\n');
      // A window the caller asked for is not truncation; our default cap is.
      const cutByDefault = input.limit === undefined && start + limit < count;
      const tail = cutByDefault ? `\n… [${count - start - limit} more lines; read on with offset ${start + limit + 1}]` : '';
      const encoding = notText === 'not-utf8' ? `\n${readNotes.notUtf8}` : '';
      const output = window.length === 0 ? readNotes.pastEnd(count, start + 1) + encoding : body + tail + encoding;
      return cutByDefault || cutLine ? { status: 'success', output, truncated: true } : { status: 'success', output };
    } catch (e) {
      if (e instanceof FsError && e.code === 'FS_NOT_FOUND') ctx.fsEvents.observed(target, ctx.actor, { kind: 'absent' });
      return errorOutcome(e);
    }
  },
});

/** What a successful Read says instead of lines. One place for the words, so a reader of the
 * output (the built-in agent's reply) can tell them from a file's lines (`readNote`). */
const readNotes = {
  empty: (shown: string) => `(file "${shown}" is empty)`,
  binary: (shown: string) => `(binary file "${shown}" not shown)`,
  pastEnd: (count: number, offset: number) => `(no lines: the file has ${count} lines, offset was ${offset})`,
  /** After the lines of a file that is not UTF-8, so the agent does not plan an Edit bound to fail. */
  notUtf8: '… [not UTF-8 text (another encoding such as Latin-1): each byte that is not UTF-8 is shown as �; Edit and Write refuse this file — change it with a tool that keeps its bytes]',
};

export type ReadNote = { kind: 'empty' } | { kind: 'binary' } | { kind: 'past-end'; lines: number; offset: number };

/** A successful Read's output that holds no file lines, read back; undefined for lines. */
export function readNote(output: string): ReadNote | undefined {
  if (!output.startsWith('(')) return undefined; // a line always starts with its padded number
  if (/^\(file ".*" is empty\)$/s.test(output)) return { kind: 'empty' };
  if (/^\(binary file ".*" not shown\)$/s.test(output)) return { kind: 'binary' };
  const past = /^\(no lines: the file has (\d+) lines, offset was (\d+)\)$/.exec(output);
  return past ? { kind: 'past-end', lines: Number(past[1]), offset: Number(past[2]) } : undefined;
}

/** The file lines a successful Read's output shows (its `… more lines` tail is not one). */
export function readLines(output: string): number {
  let n = 0;
  // Split on \n alone: a line's own \r or U+2028 would start a line for a /m regular expression.
  for (const line of output.split('\n')) if (/^ *\d+\t/.test(line)) n++;
  return n;
}

/** Refused, not read: says how big, the limit, and how to see a part of it instead. */
function tooBig(shown: string, size: number): ToolOutcome {
  const mb = (n: number) => `${(n / (1024 * 1024)).toFixed(1)} MB`;
  return {
    status: 'error',
    error_code: 'FILE_TOO_LARGE',
    output: `FILE_TOO_LARGE: "${shown}" is ${mb(size)}; Read takes files up to ${mb(MAX_READ_BYTES)}. Read a part of it with Bash (e.g. \`sed -n '1000,1100p' ${shellQuote(shown)}\`, \`head -n 100\`, \`tail -n 100\`) or find lines with \`grep -n PATTERN ${shellQuote(shown)}\`.`,
  };
}

function shellQuote(s: string): string {
  return /^[\w./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
