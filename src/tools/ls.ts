// LS: the entries of one directory (directories end in "/").
import picomatch from 'picomatch';
import { join } from 'node:path';
import { z } from 'zod';
import { errorOutcome } from './fsErrors';
import { displayPath, resolveToolPath } from './paths';
import { defineTool } from './types';

const MAX_ENTRIES = 1000;

export const LSInput = z.object({
  path: z.string().min(1).describe('The absolute path to the directory to list (or relative to the workspace)'),
  ignore: z.array(z.string()).optional().describe('Glob patterns of names to leave out'),
});

export const LSTool = defineTool({
  name: 'LS',
  description: 'Lists the files and directories in a directory.',
  category: 'filesystem',
  output_type: 'file_list',
  kind: 'read',
  requires_approval: false,
  schema: LSInput,
  affectedPaths: (i) => [i.path],
  async run(input, ctx) {
    try {
      const dir = resolveToolPath(ctx.cwd, input.path);
      const skip = input.ignore?.length ? picomatch(input.ignore, { dot: true }) : () => false;
      const entries = (await ctx.fs.list(dir)).filter((e) => !skip(e.name));
      const list = entries.map((e) => {
        const p = displayPath(ctx.fs.roots, join(dir, e.name));
        return e.type === 'directory' ? p + '/' : p;
      });
      if (list.length > MAX_ENTRIES) return { status: 'success', output: list.slice(0, MAX_ENTRIES), truncated: true };
      return { status: 'success', output: list };
    } catch (e) {
      return errorOutcome(e);
    }
  },
});
