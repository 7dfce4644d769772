// How `claude` is found and started.
import { pathExists } from '../../workspace/localFiles';
import { dirname, join } from 'node:path';
import type { AgentModeName } from '../../protocol/common';

/**
 * The `claude` binary: an explicit path, then `RAWP_CLAUDE_PATH`, then the npm package next to
 * us (the devDependency in tests), then `claude` on PATH.
 */
export function resolveClaudeCommand(explicit?: string, env: NodeJS.ProcessEnv = process.env): string {
  if (explicit) return explicit;
  if (env.RAWP_CLAUDE_PATH) return env.RAWP_CLAUDE_PATH;
  try {
    const pkg = require.resolve('@anthropic-ai/claude-code/package.json');
    const bin = join(dirname(pkg), 'bin', 'claude.exe');
    if (pathExists(bin)) return bin;
  } catch {
    /* not installed as a package: fall through to PATH */
  }
  return 'claude';
}

/** Our mode -> Claude's permission mode. Review is read-only by the engine's tool policy (§6.3.2). */
export function permissionModeFor(mode: AgentModeName): 'plan' | 'default' {
  return mode === 'plan' ? 'plan' : 'default';
}

export interface LongLivedArgs {
  mode: AgentModeName;
  resumeSessionId?: string;
  model?: string;
  extraArgs?: string[];
  overrides?: TurnFlags;
}

/** §6.1.1 config_overrides Claude Code takes as flags: --json-schema (§11) and --max-turns. */
export interface TurnFlags {
  /** The schema as JSON text. */
  jsonSchema?: string;
  maxTurns?: number;
}

export function turnFlagArgs(f: TurnFlags | undefined): string[] {
  return [...(f?.jsonSchema ? ['--json-schema', f.jsonSchema] : []), ...(f?.maxTurns !== undefined ? ['--max-turns', String(f.maxTurns)] : [])];
}

export function turnFlagsOf(p: { json_schema?: Record<string, unknown>; max_turns?: number }): TurnFlags {
  return { ...(p.json_schema ? { jsonSchema: JSON.stringify(p.json_schema) } : {}), ...(p.max_turns !== undefined ? { maxTurns: p.max_turns } : {}) };
}

export function sameTurnFlags(a: TurnFlags | undefined, b: TurnFlags | undefined): boolean {
  return a?.jsonSchema === b?.jsonSchema && a?.maxTurns === b?.maxTurns;
}

/** The long-lived, multi-turn form with permission prompts over stdio. */
export function longLivedArgs(a: LongLivedArgs): string[] {
  const args = ['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose', '--include-partial-messages', '--permission-prompt-tool', 'stdio'];
  args.push('--permission-mode', permissionModeFor(a.mode));
  if (a.model) args.push('--model', a.model);
  if (a.resumeSessionId) args.push('--resume', a.resumeSessionId);
  return [...args, ...turnFlagArgs(a.overrides), ...(a.extraArgs ?? [])];
}

/** The §18 one-shot form: one process per prompt, the prompt on stdin, `--resume` from turn two. */
export function oneShotArgs(a: { mode: AgentModeName; resumeArgs: string[]; model?: string; extraArgs?: string[]; permissionMode?: string; overrides?: TurnFlags }): string[] {
  const args = ['-p', '--output-format', 'stream-json', '--verbose', '--include-partial-messages'];
  args.push('--permission-mode', a.permissionMode ?? permissionModeFor(a.mode));
  if (a.model) args.push('--model', a.model);
  return [...args, ...a.resumeArgs, ...turnFlagArgs(a.overrides), ...(a.extraArgs ?? [])];
}

/**
 * Environment defaults under the caller's own: background subagents would report after the
 * turn's `result` and start turns of their own, outside any prompt; in the foreground their
 * lines carry `parent_tool_use_id` and become §10 subagent frames inside the turn.
 */
export function claudeEnv(extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return { CLAUDE_CODE_DISABLE_BACKGROUND_TASKS: '1', ...extra };
}
