// Grep: a regular expression over the workspace's files, matched by a linear-time engine (RE2
// semantics, re2js) in a worker thread — no pattern can freeze the host (issue 12 finding 2).
// output_mode follows Claude Code: files_with_matches (default, a file list), content (matching
// lines, optionally numbered and with context), count (matches per file).
import { basename, relative, sep } from 'node:path';
import { z } from 'zod';
import { errorOutcome } from './fsErrors';
import { displayPath, resolveToolPath } from './paths';
import { truncateText } from './truncate';
import { contextRanges, MAX_CONTEXT_LINES } from './search/contextRanges';
import { search, SearchAbortedError } from './search/searchClient';
import type { SearchQuery, SearchResponse } from './search/searchProtocol';
import { ToolError, defineTool, type ToolOutcome } from './types';
import { walkFiles } from './walk';

const MAX_FILE_BYTES = 2_000_000;

export const GrepInput = z.object({
  pattern: z.string().min(1).describe('The regular expression to search for (RE2 syntax: no look-arounds or back-references)'),
  path: z.string().optional().describe('File or directory to search in (default: the workspace folder)'),
  include: z.string().optional().describe('Glob of files to search, e.g. "*.ts" or "src/**/*.{ts,tsx}"'),
  glob: z.string().optional().describe('Alias of include (Claude Code)'),
  output_mode: z.enum(['content', 'files_with_matches', 'count']).optional().describe('default files_with_matches'),
  '-i': z.boolean().optional().describe('Case insensitive'),
  '-n': z.boolean().optional().describe('Show line numbers (content mode)'),
  '-A': z.number().int().min(0).optional().describe('Lines of context after each match (content mode)'),
  '-B': z.number().int().min(0).optional().describe('Lines of context before each match (content mode)'),
  '-C': z.number().int().min(0).optional().describe('Lines of context around each match (content mode)'),
  multiline: z.boolean().optional().describe('Let . match newlines and patterns span lines'),
  head_limit: z.number().int().min(1).optional().describe('Only the first N results'),
});

export const GrepTool = defineTool({
  name: 'Grep',
  description: 'Searches file contents with a regular expression; lists matching files, matching lines or counts.',
  category: 'search',
  kind: 'read',
  requires_approval: false,
  schema: GrepInput,
  affectedPaths: (i) => (i.path ? [i.path] : []),
  async run(input, ctx) {
    try {
      const ask = async (req: SearchQuery): Promise<SearchResponse & { ok: true }> => {
        const r = await search(req, ctx.signal);
        if (!r.ok) throw new ToolError(r.syntax ? `invalid regular expression: ${r.message}` : r.message, r.syntax ? 'INVALID_INPUT' : 'TOOL_FAILED');
        return r;
      };
      const options = { ignoreCase: input['-i'] === true, multiline: input.multiline === true };
      // Compile first, so a bad pattern fails before any file is read.
      await ask({ op: 'grep', pattern: input.pattern, options, mode: 'files_with_matches', text: '' });
      const base = resolveToolPath(ctx.cwd, input.path ?? ctx.cwd);
      const st = await ctx.fs.stat(base);
      if (!st) throw new ToolError(`"${input.path}" does not exist`, 'FS_NOT_FOUND');
      let files = st.type === 'file' ? [base] : await walkFiles(ctx.fs, base, ctx.signal);
      const includeGlob = input.include ?? input.glob;
      if (includeGlob) {
        const rels = files.map((f) => relative(base, f).split(sep).join('/') || basename(f));
        const { indices } = await ask({ op: 'glob', globs: [includeGlob], paths: rels, orBasename: true });
        files = (indices ?? []).map((i) => files[i]);
      }
      const mode = input.output_mode ?? 'files_with_matches';
      const limit = input.head_limit ?? Infinity;
      const askedBefore = input['-B'] ?? input['-C'] ?? 0;
      const askedAfter = input['-A'] ?? input['-C'] ?? 0;
      const before = Math.min(askedBefore, MAX_CONTEXT_LINES);
      const after = Math.min(askedAfter, MAX_CONTEXT_LINES);
      const matched: string[] = [];
      const lines: string[] = [];
      const counts: string[] = [];
      let cut = false;
      for (const f of files) {
        if (ctx.signal.aborted) break;
        const s = await ctx.fs.stat(f);
        if (!s || s.size > MAX_FILE_BYTES) continue;
        const raw = (await ctx.fs.readText(f)).text;
        if (raw.includes('\u0000')) continue;
        const text = raw.includes('\r\n') ? raw.replace(/\r\n/g, '\n') : raw;
        const { grep } = await ask({ op: 'grep', pattern: input.pattern, options, mode, text });
        if (!grep?.matched) continue;
        const shown = displayPath(ctx.fs.roots, f);
        if (mode === 'files_with_matches') {
          if (matched.length >= limit) {
            cut = true;
            break;
          }
          matched.push(shown);
          continue;
        }
        if (mode === 'count') {
          counts.push(`${shown}:${grep.count ?? 0}`);
          if (counts.length >= limit) break;
          continue;
        }
        const fileLines = text.split('\n');
        // Stops at head_limit: `cut` only when a line was left unshown, and then no more files are read.
        for (const [from, to] of contextRanges(grep.lines ?? [], before, after, fileLines.length)) {
          const last = Math.min(to, from + (limit - lines.length) - 1);
          for (let i = from; i <= last; i++) lines.push(input['-n'] ? `${shown}:${i + 1}:${fileLines[i]}` : `${shown}:${fileLines[i]}`);
          if (last < to) {
            cut = true;
            break;
          }
        }
        if (cut) break;
      }
      if (ctx.signal.aborted) return { status: 'cancelled', output: 'search cancelled' };
      if (mode === 'files_with_matches') return { status: 'success', output: matched, hints: { fileList: true }, ...(cut ? { truncated: true } : {}) };
      const body = mode === 'count' ? counts.join('\n') : lines.join('\n');
      const t = truncateText(body || '(no matches)', ctx.settings.maxOutputChars);
      const output = mode === 'content' ? t.text + contextNote(askedBefore, askedAfter) : t.text;
      return { status: 'success', output, ...(t.truncated || cut ? { truncated: true } : {}) };
    } catch (e) {
      return searchFailure(e);
    }
  },
});

/** Says so when more context was asked than Grep shows (decision 538). */
function contextNote(before: number, after: number): string {
  if (before <= MAX_CONTEXT_LINES && after <= MAX_CONTEXT_LINES) return '';
  return `\n(context lowered to at most ${MAX_CONTEXT_LINES} lines before and after each match; ${before} before and ${after} after were asked — to see more of a file, Read it with an offset)`;
}

/** A cancelled search is a cancelled call; a stopped one (too long) an error with that reason. */
export function searchFailure(e: unknown): ToolOutcome {
  if (e instanceof SearchAbortedError) return e.message === 'cancelled' ? { status: 'cancelled', output: 'search cancelled' } : { status: 'error', output: `TOOL_FAILED: ${e.message}`, error_code: 'TOOL_FAILED' };
  return errorOutcome(e);
}
