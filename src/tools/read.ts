// Read: a line-numbered window of a text file (`cat -n` style), Claude Code's input schema. A
// successful read records present@version in the ledger; a missing file records absent.
import { z } from 'zod';
import { FsError } from '../workspace/fsBackend';
import { errorOutcome } from './fsErrors';
import { targetOf } from './paths';
import { defineTool } from './types';

const DEFAULT_LIMIT = 2000;
const MAX_LINE = 2000;

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
    const target = targetOf(ctx.fs.roots, ctx.cwd, input.file_path);
    try {
      const file = await ctx.fs.readText(target.abs);
      ctx.fsEvents.observed(target, ctx.actor, { kind: 'present', version: file.version });
      if (file.text.includes('\u0000')) return { status: 'success', output: `(binary file "${target.displayPath}" not shown)` };
      if (file.text.length === 0) return { status: 'success', output: `(file "${target.displayPath}" is empty)` };
      const start = (input.offset ?? 1) - 1;
      const limit = input.limit ?? DEFAULT_LIMIT;
      const { window, count } = lineWindow(file.text, start, limit);
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
      const output = window.length === 0 ? `(no lines: the file has ${count} lines, offset was ${start + 1})` : body + tail;
      return cutByDefault || cutLine ? { status: 'success', output, truncated: true } : { status: 'success', output };
    } catch (e) {
      if (e instanceof FsError && e.code === 'FS_NOT_FOUND') ctx.fsEvents.observed(target, ctx.actor, { kind: 'absent' });
      return errorOutcome(e);
    }
  },
});

/**
 * Lines [start, start + limit) of `text` (LF or CRLF endings; a final newline ends the last line)
 * and how many lines it has — without splitting all of it: a 20 MB file split whole made 400,000
 * strings on the host's event loop (and the GC after them) for a window of 2,000 (issue 12 finding 2).
 */
export function lineWindow(text: string, start: number, limit: number): { window: string[]; count: number } {
  const window: string[] = [];
  let count = 0;
  let from = 0;
  while (from < text.length) {
    const nl = text.indexOf('\n', from);
    const end = nl === -1 ? text.length : nl;
    if (count >= start && count < start + limit) window.push(text.slice(from, nl !== -1 && end > from && text[end - 1] === '\r' ? end - 1 : end));
    count++;
    if (nl === -1) break;
    from = nl + 1;
  }
  return { window, count };
}
