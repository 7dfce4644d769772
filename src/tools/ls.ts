// LS: the entries of one directory (directories end in "/"). `ignore` globs are matched in the
// linear-time search worker (src/workspace/globRegex.ts), like Glob's.
import { join } from 'node:path';
import { z } from 'zod';
import { searchFailure } from './grep';
import { listedPath, resolveToolPath } from './paths';
import { search } from './search/searchClient';
import { defineTool, ToolError } from './types';

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
      const dir = resolveToolPath(ctx.cwd, input.path, ctx.fs.roots, ctx.fs.rootAliases);
      let entries = await ctx.fs.list(dir);
      if (input.ignore?.length) {
        const r = await search({ op: 'glob', globs: input.ignore, paths: entries.map((e) => e.name), orBasename: false }, ctx.signal);
        if (!r.ok) throw new ToolError(`invalid ignore glob: ${r.message}`, r.syntax ? 'INVALID_INPUT' : 'TOOL_FAILED');
        const skipped = new Set(r.indices);
        entries = entries.filter((_e, i) => !skipped.has(i));
      }
      const list = entries.map((e) => {
        const p = listedPath(ctx.fs.roots, join(dir, e.name));
        return e.type === 'directory' ? p + '/' : p;
      });
      if (list.length > MAX_ENTRIES) return { status: 'success', output: list.slice(0, MAX_ENTRIES), truncated: true };
      return { status: 'success', output: list };
    } catch (e) {
      return searchFailure(e);
    }
  },
});
