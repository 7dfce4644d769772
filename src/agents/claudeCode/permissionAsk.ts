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
  /** The folder the CLI's shell is in for this call (our PreToolUse hook's `cwd`): a Bash rule's words are taken from it. */
  cwd?: string;
}

/** The most hook folders kept waiting for their ask (a call Claude Code runs unasked never takes its own). */
const MAX_WAITING_FOLDERS = 256;

/**
 * The shell's folder of each call, from our PreToolUse hook (which comes before the call's
 * `can_use_tool`, and whose input carries `cwd`; `can_use_tool`'s does not). Claude Code's shell
 * stays where a `cd` left it (inside the project), which it runs unasked: a rule's words were taken
 * from the workspace folder while the command ran elsewhere (decision 735).
 */
export class HookFolders {
  private readonly waiting = new Map<string, string>();

  saw(tool_use_id: string, cwd: string): void {
    this.waiting.set(tool_use_id, cwd);
    if (this.waiting.size > MAX_WAITING_FOLDERS) this.waiting.delete(this.waiting.keys().next().value as string);
  }

  take(tool_use_id: string | undefined): string | undefined {
    if (tool_use_id === undefined) return undefined;
    const cwd = this.waiting.get(tool_use_id);
    this.waiting.delete(tool_use_id);
    return cwd;
  }
}

export function permissionAskOf(request_id: string, req: CanUseTool, metadata: Metadata | undefined, workspacePath: string | readonly string[] | undefined, cwd?: string): PermissionAsk {
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
  if (cwd) ask.cwd = cwd;
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
