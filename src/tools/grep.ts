// Grep: a JavaScript regular expression over the workspace's files (no ripgrep needed).
// output_mode follows Claude Code: files_with_matches (default, a file list), content (matching
// lines, optionally numbered and with context), count (matches per file).
import picomatch from 'picomatch';
import { basename, relative, sep } from 'node:path';
import { z } from 'zod';
import { errorOutcome } from './fsErrors';
import { displayPath, resolveToolPath } from './paths';
import { truncateText } from './truncate';
import { ToolError, defineTool } from './types';
import { walkFiles } from './walk';

const MAX_FILE_BYTES = 2_000_000;

export const GrepInput = z.object({
  pattern: z.string().min(1).describe('The regular expression to search for'),
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
      let re: RegExp;
      try {
        re = new RegExp(input.pattern, 'g' + (input['-i'] ? 'i' : '') + (input.multiline ? 'ms' : 'm'));
      } catch (e) {
        throw new ToolError(`invalid regular expression: ${(e as Error).message}`, 'INVALID_INPUT');
      }
      const base = resolveToolPath(ctx.cwd, input.path ?? ctx.cwd);
      const st = await ctx.fs.stat(base);
      if (!st) throw new ToolError(`"${input.path}" does not exist`, 'FS_NOT_FOUND');
      const files = st.type === 'file' ? [base] : await walkFiles(ctx.fs, base, ctx.signal);
      const includeGlob = input.include ?? input.glob;
      const inc = includeGlob ? picomatch(includeGlob, { dot: true }) : undefined;
      const mode = input.output_mode ?? 'files_with_matches';
      const limit = input.head_limit ?? Infinity;
      const before = input['-B'] ?? input['-C'] ?? 0;
      const after = input['-A'] ?? input['-C'] ?? 0;
      const matched: string[] = [];
      const lines: string[] = [];
      const counts: string[] = [];
      let cut = false;
      for (const f of files) {
        if (ctx.signal.aborted) break;
        const rel = relative(base, f).split(sep).join('/') || basename(f);
        if (inc && !inc(rel) && !inc(basename(f))) continue;
        const s = await ctx.fs.stat(f);
        if (!s || s.size > MAX_FILE_BYTES) continue;
        const text = (await ctx.fs.readText(f)).text;
        if (text.includes('\u0000')) continue;
        re.lastIndex = 0;
        if (!re.test(text)) continue;
        const shown = displayPath(ctx.fs.roots, f);
        if (mode === 'files_with_matches') {
          if (matched.length >= limit) {
            cut = true;
            break;
          }
          matched.push(shown);
          continue;
        }
        const fileLines = text.replace(/\r\n/g, '\n').split('\n');
        if (mode === 'count') {
          re.lastIndex = 0;
          counts.push(`${shown}:${text.match(re)?.length ?? 0}`);
          if (counts.length >= limit) break;
          continue;
        }
        const lineRe = new RegExp(input.pattern, input['-i'] ? 'i' : '');
        const keep = new Set<number>();
        fileLines.forEach((l, i) => {
          if (lineRe.test(l)) for (let j = Math.max(0, i - before); j <= Math.min(fileLines.length - 1, i + after); j++) keep.add(j);
        });
        for (const i of [...keep].sort((a, b) => a - b)) {
          if (lines.length >= limit) {
            cut = true;
            break;
          }
          lines.push(input['-n'] ? `${shown}:${i + 1}:${fileLines[i]}` : `${shown}:${fileLines[i]}`);
        }
      }
      if (mode === 'files_with_matches') return { status: 'success', output: matched, hints: { fileList: true }, ...(cut ? { truncated: true } : {}) };
      const body = mode === 'count' ? counts.join('\n') : lines.join('\n');
      const t = truncateText(body || '(no matches)', ctx.settings.maxOutputChars);
      return { status: 'success', output: t.text, ...(t.truncated || cut ? { truncated: true } : {}) };
    } catch (e) {
      return errorOutcome(e);
    }
  },
});
