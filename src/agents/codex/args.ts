// The command line of one Codex turn. The prompt goes through stdin ("-"), so a prompt that starts
// with "-" is never read as a flag and no shell quoting is involved. The sandbox is set with
// `-c sandbox_mode=…` because `codex exec resume` has no `-s` flag.
import type { AgentModeName } from '../../protocol/common';
import { CODEX_APPLY_PATCH, CODEX_BASH, CODEX_WEB_SEARCH } from './catalog';

export type CodexSandbox = 'read-only' | 'workspace-write' | 'danger-full-access';

/** §6.3.2: plan and review may only read; default mode may write inside the workspace. */
export function sandboxForMode(mode: AgentModeName): CodexSandbox {
  return mode === 'default' ? 'workspace-write' : 'read-only';
}

export interface CodexArgsInput {
  mode: AgentModeName;
  /** `['resume', <thread_id>]` from the resume_flag, empty on the first turn. */
  resumeArgs: string[];
  model?: string;
  /** Extra `-c key=value` overrides, given as "key=value". */
  config?: string[];
  /** Run outside a git repository (Codex refuses by default). */
  skipGitRepoCheck?: boolean;
  /** §11: a JSON Schema file for the final answer (`--output-schema`). */
  outputSchemaFile?: string;
  /** §6.1.1 attached images: `--image=<FILE>` each (the `=` form, so `-` is never taken as one). */
  images?: readonly string[];
  /** This turn's config_overrides.allowed_tools / denied_tools, kept at the source (`toolListConfig`). */
  tools?: { allowed_tools?: readonly string[]; denied_tools?: readonly string[] };
}

/** §18.1: the resume flag template; `{session_id}` is Codex's thread id. */
export const CODEX_RESUME_FLAG = 'resume {session_id}';

/**
 * §6.3.2-1 at the source: plan and review forbid the shell, and Codex runs its own tools, so the
 * engine could only refuse a command on the wire after Codex had run it. In those modes Codex gets
 * no shell tool at all (`features.shell_tool`, `features.unified_exec`), and the read-only sandbox
 * refuses its patches (docs/decisions/207-codex-modes-at-the-source.md).
 */
export function modeConfig(mode: AgentModeName): string[] {
  return mode === 'default' ? [] : ['-c', 'features.shell_tool=false', '-c', 'features.unified_exec=false'];
}

/**
 * A turn's tool lists at the source (decision 614): Codex runs its tools itself, so the engine's
 * refusal came after the command had run — a headless trial's `--denied-tools Bash` reported the
 * denial of a command that ran. A denied Bash gets no shell tool, a denied apply_patch a read-only
 * sandbox (which also keeps the shell from writing), a denied WebSearch no search. Its plan updates
 * (TodoWrite) change nothing outside it and are still refused on the wire.
 */
/** Does this turn's tool lists leave `name` out (denied, or not among the allowed)? */
export function toolDenied(tools: CodexArgsInput['tools'] = {}, name: string): boolean {
  return tools.denied_tools?.includes(name) === true || (tools.allowed_tools !== undefined && !tools.allowed_tools.includes(name));
}

export function toolListConfig(tools: CodexArgsInput['tools'] = {}): { config: string[]; readOnly: boolean } {
  const denied = (name: string) => toolDenied(tools, name);
  const config: string[] = [];
  if (denied(CODEX_BASH)) config.push('-c', 'features.shell_tool=false', '-c', 'features.unified_exec=false');
  if (denied(CODEX_WEB_SEARCH)) config.push('-c', 'tools.web_search=false');
  return { config, readOnly: denied(CODEX_APPLY_PATCH) };
}

export function codexArgs(input: CodexArgsInput): string[] {
  const lists = toolListConfig(input.tools);
  const sandbox = lists.readOnly ? 'read-only' : sandboxForMode(input.mode);
  // A setting given twice (plan mode and a denied Bash both turn the shell off) is the same value: harmless.
  const args = ['exec', '--json', '-c', `sandbox_mode="${sandbox}"`, ...modeConfig(input.mode), ...lists.config];
  for (const c of input.config ?? []) args.push('-c', c);
  if (input.model) args.push('-m', input.model);
  if (input.skipGitRepoCheck) args.push('--skip-git-repo-check');
  if (input.outputSchemaFile) args.push('--output-schema', input.outputSchemaFile);
  // After `resume <id>`: there `--image` is the resume subcommand's own option.
  args.push(...input.resumeArgs, ...(input.images ?? []).map((p) => `--image=${p}`), '-');
  return args;
}
