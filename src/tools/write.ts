// Write: creates or replaces a whole file. The ledger decides the guard (writeIntent): a file read
// in this session is replaced only if unchanged; anything else may only be created, never
// overwritten unread. The result is a diff computed from the backend's before/after.
import { z } from 'zod';
import { DiffUnavailableError, writeChanged, writeDiffOutput } from './diff';
import { errorOutcome } from './fsErrors';
import { targetOf } from './paths';
import { refuseDoomedWrite } from './preflightGuard';
import { withLinkNote } from './hardLinkNote';
import { defineTool } from './types';

export const WriteInput = z.object({
  file_path: z.string().min(1).describe('The absolute path to the file to write (or relative to the workspace)'),
  content: z.string().describe('The content to write to the file'),
});

export const WriteTool = defineTool({
  name: 'Write',
  description: 'Writes a file. A new file needs no read; an existing file must have been read in this session and be unchanged since.',
  category: 'filesystem',
  kind: 'write',
  requires_approval: true,
  schema: WriteInput,
  affectedPaths: (i) => [i.file_path],
  // A write the ledger's guard will refuse (an unread existing file, one changed since it was read) is refused before the prompt.
  preflight: async (input, ctx) => {
    const target = targetOf(ctx.fs.roots, ctx.cwd, input.file_path, ctx.fs.rootAliases);
    await refuseDoomedWrite(target, ctx.fsEvents.writeIntent(target, ctx.actor), ctx);
  },
  async run(input, ctx) {
    const target = targetOf(ctx.fs.roots, ctx.cwd, input.file_path, ctx.fs.rootAliases);
    try {
      const guard = ctx.fsEvents.writeIntent(target, ctx.actor);
      const r = await ctx.fs.writeText(target.abs, input.content, guard);
      ctx.fsEvents.observed(target, ctx.actor, { kind: 'present', version: r.version });
      // Changed or not is read first: the diff may move the result's bytes to its worker.
      const changed = writeChanged(r);
      try {
        return { status: 'success', output: withLinkNote(await writeDiffOutput(target.displayPath, r), r), hints: { changed } };
      } catch (e) {
        // The file is written; only the picture of the change is missing, and the result says so.
        if (e instanceof DiffUnavailableError) return { status: 'success', output: `Wrote ${target.displayPath} (${e.writtenBytes} bytes); its diff is not available: ${e.message}.`, hints: { changed } };
        throw e;
      }
    } catch (e) {
      return errorOutcome(e);
    }
  },
});
