// The command line of one Codex turn. The prompt goes through stdin ("-"), so a prompt that starts
// with "-" is never read as a flag and no shell quoting is involved. The sandbox is set with
// `-c sandbox_mode=…` because `codex exec resume` has no `-s` flag.
import type { AgentModeName } from '../../protocol/common';

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
}

/** §18.1: the resume flag template; `{session_id}` is Codex's thread id. */
export const CODEX_RESUME_FLAG = 'resume {session_id}';

export function codexArgs(input: CodexArgsInput): string[] {
  const args = ['exec', '--json', '-c', `sandbox_mode="${sandboxForMode(input.mode)}"`];
  for (const c of input.config ?? []) args.push('-c', c);
  if (input.model) args.push('-m', input.model);
  if (input.skipGitRepoCheck) args.push('--skip-git-repo-check');
  args.push(...input.resumeArgs, '-');
  return args;
}
