// Grep: a regular expression over the workspace's files, matched by a linear-time engine (RE2
// semantics, re2js) in a worker thread — no pattern can freeze the host (issue 12 finding 2).
// output_mode follows Claude Code: files_with_matches (default, a file list), content (matching
// lines, optionally numbered and with context), count (matches per file).
// Files up to GREP_MAX_FILE_BYTES are searched, in pieces (grepFile.ts); a file that is not read is
// named in the result, and the true count is said whenever the lines shown are not all the matches
// (grepReport.ts, decision 577).
import { basename, relative, sep } from 'node:path';
import { z } from 'zod';
import { errorOutcome } from './fsErrors';
import { GREP_MAX_FILE_BYTES, readForGrep, searchFileText, timesAhead, type AskPiece, type GrepQuery } from './grepFile';
import { linesAround, ShownLines } from './grepLines';
import { tallyLine, textPath, Unsearched, type Tally } from './grepReport';
import { listedPath, resolveToolPath } from './paths';
import { MAX_CONTEXT_LINES } from './search/contextRanges';
import { search, SearchAbortedError } from './search/searchClient';
import type { SearchQuery, SearchResponse } from './search/searchProtocol';
import { ToolError, defineTool, type ToolOutcome } from './types';
import { walkFiles } from './walk';
import { sizeBeforeRead } from './sizeBeforeRead';

/** The most files a folder walk gives Grep (walk.ts's own default); a walk that reaches it is said. */
const WALK_LIMIT = 50_000;

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
      const ask = async (req: SearchQuery | (() => Promise<SearchQuery>)): Promise<SearchResponse & { ok: true }> => {
        const r = await search(req, ctx.signal);
        if (!r.ok) throw new ToolError(r.syntax ? `invalid regular expression: ${r.message}` : r.message, r.syntax ? 'INVALID_INPUT' : 'TOOL_FAILED');
        return r;
      };
      const options = { ignoreCase: input['-i'] === true, multiline: input.multiline === true };
      // Compile first, so a bad pattern fails before any file is read; the answer also says whether
      // the pattern can span lines (then each file goes to the worker whole, not in pieces).
      const probe = await ask({ op: 'grep', pattern: input.pattern, options, mode: 'files_with_matches', text: '' });
      const wholeText = probe.grep?.wholeText !== false;
      const base = resolveToolPath(ctx.cwd, input.path ?? ctx.cwd, ctx.fs.roots, ctx.fs.rootAliases);
      const st = await sizeBeforeRead(ctx.fs, base);
      if (!st) throw new ToolError(`"${input.path}" does not exist`, 'FS_NOT_FOUND');
      let paths = st.type === 'file' ? [base] : await walkFiles(ctx.fs, base, ctx.signal, WALK_LIMIT);
      const unsearched = new Unsearched();
      if (paths.length >= WALK_LIMIT) unsearched.walkCut = WALK_LIMIT;
      const includeGlob = input.include ?? input.glob;
      if (includeGlob) {
        const rels = paths.map((f) => relative(base, f).split(sep).join('/') || basename(f));
        const { indices } = await ask({ op: 'glob', globs: [includeGlob], paths: rels, orBasename: true });
        paths = (indices ?? []).map((i) => paths[i]);
      }
      const mode = input.output_mode ?? 'files_with_matches';
      const limit = input.head_limit ?? Infinity;
      const askedBefore = input['-B'] ?? input['-C'] ?? 0;
      const askedAfter = input['-A'] ?? input['-C'] ?? 0;
      const before = Math.min(askedBefore, MAX_CONTEXT_LINES);
      const after = Math.min(askedAfter, MAX_CONTEXT_LINES);
      const query: GrepQuery = { pattern: input.pattern, options, mode };
      const piece: AskPiece = async (q) => (await ask(q)).grep!;
      const maxChars = ctx.settings.maxOutputChars;
      const out = new ShownLines(maxChars, mode === 'content' ? limit : Infinity);
      const matched: string[] = [];
      let total = 0;
      let files = 0;
      let shownMatches = 0;
      let cut = false;
      const timeOf = timesAhead(ctx.fs, paths, ctx.signal);
      for (let i = 0; i < paths.length; i++) {
        const f = paths[i];
        if (ctx.signal.aborted) break;
        const shown = listedPath(ctx.fs.roots, f);
        // The one file asked for was looked up already (its size, from metadata): not again.
        const got = await readForGrep(ctx.fs, f, st.type === 'file' ? st : await timeOf(i));
        if ('skipped' in got) {
          if (got.skipped === 'unreadable' && got.error && st.type === 'file') throw got.error; // the one file asked for
          if (got.skipped === 'too_big') unsearched.tooBig(shown, got.size);
          else unsearched.cannotRead(shown, got.why);
          continue;
        }
        const { text } = got;
        if (mode === 'files_with_matches') {
          if ((await searchFileText(text, query, 0, wholeText, piece)).count === 0) continue;
          if (matched.length >= limit) {
            cut = true;
            break;
          }
          matched.push(shown);
          continue;
        }
        if (mode === 'count') {
          const { count } = await searchFileText(text, query, 0, wholeText, piece);
          if (count === 0) continue;
          total += count;
          files++;
          out.push(`${textPath(shown)}:${count}`);
          if (files >= limit) break;
          continue;
        }
        // Content. More matching lines than head_limit leaves room for: a cut is certain, and the
        // rest of the file is not searched (decision 538: head_limit stops the work).
        const room = out.positionsWanted;
        const headRoom = limit - out.lines.length;
        const hits = await searchFileText(text, query, room, wholeText, piece, (h) => !h.binary && h.count > headRoom);
        if (hits.count === 0) continue;
        total += hits.count;
        files++;
        if (hits.binary) {
          out.push(`${textPath(shown)}: binary file matches (${hits.count} ${hits.count === 1 ? 'line' : 'lines'}, not shown)`);
        } else {
          const prefix = `${textPath(shown)}:`;
          for (const l of linesAround(text, hits.lines, hits.starts, before, after)) {
            const head = input['-n'] ? `${prefix}${l.line + 1}:` : prefix;
            // Never more of a line than can be shown: a 10 MB line costs what fits.
            const kept = out.lines.length;
            out.push(head + text.slice(l.start, Math.min(l.end, l.start + out.charsLeft - head.length + 1)));
            if (l.match && out.lines.length > kept) shownMatches++;
            if (out.cut) break;
          }
        }
        if (out.cut === 'limit') break; // decision 538: no further file is read
      }
      if (ctx.signal.aborted) return { status: 'cancelled', output: 'search cancelled' };
      const notes = unsearched.notes(GREP_MAX_FILE_BYTES);
      const tally = (t: Partial<Tally>): string => tallyLine(mode, { total, files, atLeast: false, maxChars, notSearched: unsearched.count, walkCut: unsearched.walkCut, ...t });
      if (mode === 'files_with_matches') {
        if (notes.length === 0) return { status: 'success', output: matched, hints: { fileList: true }, ...(cut ? { truncated: true } : {}) };
        const list = new ShownLines(maxChars);
        for (const m of matched) if (!list.push(textPath(m))) break;
        const output = [...list.lines, tally({ total: matched.length, atLeast: cut, cut: list.cut === 'chars' ? 'chars' : undefined }), ...notes].join('\n');
        return { status: 'success', output, ...(cut || list.cut ? { truncated: true } : {}) };
      }
      const stopped = out.cut === 'limit';
      const body = out.lines.length === 0 && notes.length === 0 ? ['(no matches)'] : out.lines;
      // The count is said whenever the lines are not one per match, or something was not searched.
      const counted = out.cut === undefined && (mode !== 'content' || out.lines.length === total);
      const trailer = counted && notes.length === 0 ? [] : [tally(mode === 'content' ? { atLeast: stopped, shown: shownMatches, cut: out.cut, headLimit: limit } : { cut: out.cut })];
      const output = [...body, ...trailer, ...notes].join('\n') + (mode === 'content' ? contextNote(askedBefore, askedAfter) : '');
      return { status: 'success', output, ...(out.cut || cut ? { truncated: true } : {}) };
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
