// Edit: one literal replacement (Claude Code's schema).
import { z } from 'zod';
import { preflightEdits, runEdits } from './edit';
import { defineTool } from './types';

export const EditInput = z.object({
  file_path: z.string().min(1).describe('The absolute path to the file to modify (or relative to the workspace)'),
  old_string: z.string().describe('The text to replace (must match exactly once unless replace_all)'),
  new_string: z.string().describe('The text to replace it with'),
  replace_all: z.boolean().optional().describe('Replace every occurrence of old_string (default false)'),
});

export const EditTool = defineTool({
  name: 'Edit',
  description: 'Replaces old_string with new_string in a file. The file must have been read in this session and be unchanged since.',
  category: 'filesystem',
  kind: 'write',
  requires_approval: true,
  schema: EditInput,
  affectedPaths: (i) => [i.file_path],
  preflight: (input, ctx) => preflightEdits(input.file_path, [{ old_string: input.old_string, new_string: input.new_string }], ctx),
  run: (input, ctx) => runEdits(input.file_path, [{ old_string: input.old_string, new_string: input.new_string, replace_all: input.replace_all }], ctx),
});
