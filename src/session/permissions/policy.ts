// The permission policy of a host (issue 11 item 4): per ask, its risk level, how long it waits
// and what silence means; and how long an agent gets to end a cancelled turn before it is stopped.
// One policy for every agent, configured by the host (settings, `rawp serve`), instead of each
// adapter's own timeouts and risk table. Adapters only map the native ask to a question and our
// answer back to the native one.
import type { RiskLevelName } from '../../protocol/common';
import type { CallShape } from './rules';
import { isDangerousCommand } from './dangerousCommand';

export interface PermissionCall extends CallShape {
  /** A path of the call lies outside the workspace: always asks, never granted for longer (§4.3.1). */
  outsideWorkspace?: boolean;
}

export interface PermissionTerms {
  risk_level: RiskLevelName;
  /** How long the ask waits for a master (§17.3.1); then it is rejected. */
  timeout_sec: number;
  /** What a timeout, a dismissal or an answer we cannot read means: always a rejection (§17.3.1). */
  default_answer: 'reject';
}

export interface PermissionPolicy {
  terms(call: PermissionCall): PermissionTerms;
  /** After a cancel, how long the agent gets to end its turn before its process is stopped. */
  readonly cancelGraceMs: number;
}

export const DEFAULT_PERMISSION_TIMEOUT_SEC = 300;
export const DEFAULT_CANCEL_GRACE_MS = 5000;

/** Tools that only read, or only keep the agent's own task list: safe to allow. */
const READ_ONLY = new Set(['Read', 'NotebookRead', 'Glob', 'Grep', 'LS', 'Search', 'WebSearch', 'WebFetch', 'TodoRead', 'TodoWrite', 'TaskList', 'TaskGet', 'Think']);

/**
 * §4.3.1 risk of one call, by what the tool does (decision 371):
 * - `safe`: reads only (Read, Glob, Grep, LS, web reads) or the agent's own task list;
 * - `moderate`: changes files inside the workspace (Write, Edit, MultiEdit, NotebookEdit — the
 *   person sees the diff and can undo it), a shell command not known to destroy, any other tool;
 * - `dangerous`: any path outside the workspace folders, or a destructive shell command
 *   (dangerousCommand.ts: rm -rf, force pushes, disk writes …).
 * Editing a workspace file is never dangerous; adapters must pass workspace-relative paths (an
 * absolute path is what marks a call outside the workspace).
 */
export function riskOf(call: PermissionCall): RiskLevelName {
  if (call.outsideWorkspace) return 'dangerous';
  if (call.command !== undefined) return isDangerousCommand(call.command) ? 'dangerous' : 'moderate';
  return READ_ONLY.has(call.tool_name) ? 'safe' : 'moderate';
}

export function standardPermissionPolicy(o: { timeoutSec?: number; cancelGraceMs?: number } = {}): PermissionPolicy {
  const timeout_sec = o.timeoutSec !== undefined && Number.isFinite(o.timeoutSec) && o.timeoutSec >= 0 ? o.timeoutSec : DEFAULT_PERMISSION_TIMEOUT_SEC;
  const cancelGraceMs = o.cancelGraceMs !== undefined && Number.isFinite(o.cancelGraceMs) && o.cancelGraceMs >= 0 ? o.cancelGraceMs : DEFAULT_CANCEL_GRACE_MS;
  return { terms: (call) => ({ risk_level: riskOf(call), timeout_sec, default_answer: 'reject' }), cancelGraceMs };
}
