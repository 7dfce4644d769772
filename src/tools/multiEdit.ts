// MultiEdit: several replacements applied in order, all or nothing (Claude Code's schema).
import { z } from 'zod';
import { preflightEdits, runEdits } from './edit';
import { defineTool } from './types';

export const MultiEditInput = z.object({
  file_path: z.string().min(1).describe('The absolute path to the file to modify (or relative to the workspace)'),
  edits: z
    .array(
      z.object({
        old_string: z.string().describe('The text to replace'),
        new_string: z.string().describe('The text to replace it with'),
        replace_all: z.boolean().optional().describe('Replace every occurrence (default false)'),
      }),
    )
    .min(1)
    .describe('Edits applied in sequence; if any fails, none is applied'),
});

export const MultiEditTool = defineTool({
  name: 'MultiEdit',
  description: 'Applies several edits to one file atomically: all succeed or the file is left untouched.',
  category: 'filesystem',
  kind: 'write',
  requires_approval: true,
  schema: MultiEditInput,
  affectedPaths: (i) => [i.file_path],
  preflight: (input, ctx) => preflightEdits(input.file_path, input.edits, ctx),
  run: (input, ctx) => runEdits(input.file_path, input.edits, ctx),
});
