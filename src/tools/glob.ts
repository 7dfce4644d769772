// Glob: files matching a glob pattern, newest first like Claude Code. The glob is matched as an RE2
// expression in the search worker (src/workspace/globRegex.ts): linear time, off the event loop.
// Every match's time is read without its content (FsBackend.times, or a few stats at once:
// newestFirst.ts), a match whose time cannot be read comes last; at most MAX_RESULTS are returned,
// and `truncated` says that more matched.
import { relative, sep } from 'node:path';
import { z } from 'zod';
import { searchFailure } from './grep';
import { listedPath, resolveToolPath } from './paths';
import { newestFirst } from './newestFirst';
import { search } from './search/searchClient';
import { defineTool, ToolError } from './types';
import { walkFiles } from './walk';

const MAX_RESULTS = 100;

export const GlobInput = z.object({
  pattern: z.string().min(1).describe('The glob pattern to match files against, e.g. "**/*.ts"'),
  path: z.string().optional().describe('The directory to search in (default: the workspace folder)'),
});

export const GlobTool = defineTool({
  name: 'Glob',
  description: 'Finds files by glob pattern (e.g. "src/**/*.ts"), most recently modified first.',
  category: 'filesystem',
  output_type: 'file_list',
  kind: 'read',
  requires_approval: false,
  schema: GlobInput,
  affectedPaths: (i) => (i.path ? [i.path] : []),
  async run(input, ctx) {
    try {
      const base = resolveToolPath(ctx.cwd, input.path ?? ctx.cwd, ctx.fs.roots, ctx.fs.rootAliases);
      const all = await walkFiles(ctx.fs, base, ctx.signal);
      const r = await search({ op: 'glob', globs: [input.pattern], paths: all.map((f) => relative(base, f).split(sep).join('/')), orBasename: false }, ctx.signal);
      if (!r.ok) throw new ToolError(`invalid glob: ${r.message}`, r.syntax ? 'INVALID_INPUT' : 'TOOL_FAILED');
      const files = (r.indices ?? []).map((i) => all[i]);
      const list = (await newestFirst(ctx.fs, files, ctx.signal)).slice(0, MAX_RESULTS).map((f) => listedPath(ctx.fs.roots, f));
      // `truncated` is what tells "more than MAX_RESULTS matched" from "exactly the listed ones".
      if (files.length > MAX_RESULTS) return { status: 'success', output: list, truncated: true };
      return { status: 'success', output: list };
    } catch (e) {
      return searchFailure(e);
    }
  },
});
