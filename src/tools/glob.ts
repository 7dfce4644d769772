// Glob: files matching a glob pattern (picomatch), newest first like Claude Code.
import picomatch from 'picomatch';
import { relative, sep } from 'node:path';
import { z } from 'zod';
import { errorOutcome } from './fsErrors';
import { displayPath, resolveToolPath } from './paths';
import { defineTool } from './types';
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
      const base = resolveToolPath(ctx.cwd, input.path ?? ctx.cwd);
      const isMatch = picomatch(input.pattern, { dot: true });
      const files = (await walkFiles(ctx.fs, base, ctx.signal)).filter((f) => isMatch(relative(base, f).split(sep).join('/')));
      const withTime = await Promise.all(files.map(async (f) => ({ f, t: (await ctx.fs.stat(f))?.mtimeMs ?? 0 })));
      withTime.sort((a, b) => b.t - a.t || (a.f < b.f ? -1 : 1));
      const list = withTime.map((x) => displayPath(ctx.fs.roots, x.f));
      if (list.length > MAX_RESULTS) return { status: 'success', output: list.slice(0, MAX_RESULTS), truncated: true };
      return { status: 'success', output: list };
    } catch (e) {
      return errorOutcome(e);
    }
  },
});
