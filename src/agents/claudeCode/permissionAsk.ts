// A `can_use_tool` control request as the adapter's permission ask (§17.3.1): the tool, its
// input, the files it touches (§4.3.1 `context.affected_paths`), the CLI's own description and
// its `permission_suggestions` (what "allow for this session" would add in Claude's own terms: an
// `addRules` one names our rule's scope; none is handed back, decision 698).
import type { Metadata } from '../../protocol/envelope';
import type { CanUseTool } from './streamJson';
import { displayPath } from './toolOutput';
import { resolvesOutside } from '../../workspace/realLocation';
import { z } from 'zod';

export interface PermissionAsk {
  request_id: string;
  tool_name: string;
  input: Record<string, unknown>;
  tool_use_id?: string;
  /** What the CLI says the call does ("a.txt", "print hello"). */
  description?: string;
  /** `permission_suggestions` as the CLI sent them (read for the rule's scope, permission.ts). */
  suggestions: unknown[];
  decision_reason?: string;
  /** Files the call touches (workspace-relative where possible). */
  affected_paths: string[];
  /** A file it touches really lies outside the workspace (through a symlink): no rule allows it. */
  escapes?: true;
  /** The subagent context of the call, when a subagent makes it. */
  metadata?: Metadata;
}

export function permissionAskOf(request_id: string, req: CanUseTool, metadata: Metadata | undefined, workspacePath: string | readonly string[] | undefined): PermissionAsk {
  const ask: PermissionAsk = {
    request_id,
    tool_name: req.tool_name,
    input: req.input,
    suggestions: req.permission_suggestions,
    affected_paths: affectedPaths(req.input, workspacePath),
  };
  const roots = workspacePath === undefined ? [] : typeof workspacePath === 'string' ? [workspacePath] : workspacePath;
  if (inputPaths(req.input).some((p) => resolvesOutside(p, roots))) ask.escapes = true;
  if (req.tool_use_id) ask.tool_use_id = req.tool_use_id;
  if (req.description) ask.description = req.description;
  if (req.decision_reason) ask.decision_reason = req.decision_reason;
  if (metadata) ask.metadata = metadata;
  return ask;
}

const PathInput = z.looseObject({
  file_path: z.string().optional().catch(undefined),
  notebook_path: z.string().optional().catch(undefined),
  path: z.string().optional().catch(undefined),
  edits: z.array(z.looseObject({ file_path: z.string().optional().catch(undefined) }).catch({})).optional().catch(undefined),
});

/** Files a tool call touches, for `context.affected_paths` (§4.3.1). */
export function affectedPaths(input: Record<string, unknown>, workspacePath: string | readonly string[] | undefined): string[] {
  return [...new Set(inputPaths(input).map((p) => displayPath(p, workspacePath)))];
}

/** The paths a tool's input names, as written. */
function inputPaths(input: Record<string, unknown>): string[] {
  const i = PathInput.parse(input);
  return [i.file_path, i.notebook_path, i.path, ...(i.edits ?? []).map((e) => e.file_path)].filter((p): p is string => !!p);
}
