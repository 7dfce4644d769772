// Edit: one literal replacement (Claude Code's schema).
import { z } from 'zod';
import { preflightEdits, runEdits } from './edit';
import type { EditSpec } from './ledger/match';
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
  // The preflight tries the very edit the run makes (decision 606): one spec for both.
  preflight: (input, ctx) => preflightEdits(input.file_path, [editSpecOf(input)], ctx),
  run: (input, ctx) => runEdits(input.file_path, [editSpecOf(input)], ctx),
});

function editSpecOf(input: { old_string: string; new_string: string; replace_all?: boolean }): EditSpec {
  return { old_string: input.old_string, new_string: input.new_string, replace_all: input.replace_all };
}
