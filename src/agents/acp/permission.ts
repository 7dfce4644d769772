// ACP `session/request_permission` <-> the session's permission policy (§4.3.1, §17.3.1, issue 11
// item 4). The question is ours (the host's risk, timeout and rules store); this file maps the
// agent's options to the answers we may offer, and our verdict back to one of its option ids:
// allow once / for this session -> `allow_once` (our session rule answers the next ask itself),
// always -> `allow_always`, reject -> `reject_once`, always reject -> `reject_always`.
import type { PayloadOf } from '../../protocol/frameTypes';
import { riskOf, type PermissionQuestion, type PermissionVerdict } from '../../session/permissions';
import { summarizeInput } from '../../tools/permissions/gate';
import { describeScope, suggestScope } from '../../tools/permissions/scope';
import { displayPath, isInside } from '../../tools/paths';
import { isAbsolute, resolve } from 'node:path';
import { resolvesOutside } from '../../workspace/realLocation';
import { underRoot, type RootAlias } from '../../workspace/rootAliases';

export interface AcpPermissionOption {
  optionId: string;
  name: string;
  kind: string;
}

export type AcpPermissionOutcome = { outcome: 'cancelled' } | { outcome: 'selected'; optionId: string };

const KIND_HINT: Record<string, string> = {
  allow_once: 'Allow this call only',
  allow_always: 'Allow this and later calls like it',
  reject_once: 'Refuse this call',
  reject_always: 'Refuse this and later calls like it',
};

const byKind = (options: readonly AcpPermissionOption[], ...kinds: string[]): AcpPermissionOption | undefined => {
  for (const k of kinds) {
    const o = options.find((x) => x.kind === k);
    if (o) return o;
  }
  return undefined;
};

export function rejectOption(options: readonly AcpPermissionOption[]): AcpPermissionOption | undefined {
  return byKind(options, 'reject_once', 'reject_always');
}

export interface AcpCall {
  tool_name: string;
  title: string | undefined;
  input: Record<string, unknown>;
  /** Workspace-relative paths the call touches. */
  paths: string[];
  /** The call's invocation_id in our frames, when it has one. */
  invocation_id?: string;
}

/**
 * Our question for an ACP ask: longer answers only where the agent can honour them. ACP gives
 * absolute paths; rules see them workspace-relative, and one outside the workspace always asks.
 */
export function permissionQuestion(call: AcpCall, options: readonly AcpPermissionOption[], roots: readonly string[], aliases?: readonly RootAlias[]): PermissionQuestion {
  const command = call.tool_name === 'Bash' && typeof call.input.command === 'string' ? call.input.command : undefined;
  // A path under a root's other name (the agent was told the name the folder was opened by) is
  // the same path under the root (rootAliases.ts). Outside as written, or through a symlink on the
  // way (realLocation.ts): then no rule allows it.
  const placed = call.paths.map((p) => (isAbsolute(p) ? underRoot(resolve(p), roots, aliases) : p));
  const outsideWorkspace = placed.some((p) => (isAbsolute(p) && !isInside(roots, p)) || resolvesOutside(p, roots));
  const paths = placed.map((p) => (isAbsolute(p) ? displayPath(roots, p) : p));
  const cwd = command !== undefined ? commandFolder(call.input, roots, aliases) : undefined;
  const shape = { tool_name: call.tool_name, paths, ...(command !== undefined ? { command } : {}) };
  const scope = suggestScope(shape);
  const canAllow = byKind(options, 'allow_once', 'allow_always') !== undefined;
  return {
    call: { ...shape, ...(cwd ? { cwd } : {}), ...(outsideWorkspace ? { outsideWorkspace } : {}) },
    input: summarizeInput(call.input),
    scope,
    scopeText: describeScope(scope),
    // "For this session" is kept by our store and answered `allow_once` each time.
    offer: { session: canAllow, always: byKind(options, 'allow_always') !== undefined, rejectAlways: byKind(options, 'reject_always') !== undefined },
    question_text: `Allow ${call.tool_name}${call.title ? `: ${call.title}` : ''}?`,
    // A rule's allow is told on the call's result (session/permissions/ruleAllowedCalls.ts).
    ...(call.invocation_id ? { invocation_id: call.invocation_id } : {}),
  };
}

/** The ACP outcome for our verdict. */
export function outcomeFor(verdict: PermissionVerdict, options: readonly AcpPermissionOption[]): AcpPermissionOutcome {
  if (!verdict.allowed && verdict.via === 'cancelled') return { outcome: 'cancelled' };
  const option = verdict.allowed
    ? verdict.lifetime === 'always'
      ? byKind(options, 'allow_always', 'allow_once')
      : byKind(options, 'allow_once', 'allow_always')
    : verdict.lifetime === 'always'
      ? byKind(options, 'reject_always', 'reject_once')
      : rejectOption(options);
  // No option that says it: refusing is the only safe answer (§17.3.1).
  if (option) return { outcome: 'selected', optionId: option.optionId };
  const reject = rejectOption(options);
  return reject ? { outcome: 'selected', optionId: reject.optionId } : { outcome: 'cancelled' };
}

/**
 * A captured ask as it was put to the user (`rawp convert --from acp`): the agent's own options,
 * its option ids as values; the risk of allowing is the policy's for the call.
 */
export function capturedPermissionRequest(call: AcpCall, options: readonly AcpPermissionOption[], interaction_id: string): PayloadOf<'agent.interaction.request'> {
  const reject = rejectOption(options);
  const risk = riskOf({ tool_name: call.tool_name, paths: call.paths });
  return {
    interaction_id,
    interaction_type: 'PERMISSION',
    question_text: `Allow ${call.tool_name}${call.title ? `: ${call.title}` : ''}?`,
    timeout_sec: 0,
    options: options.map((o) => ({ value: o.optionId, label: o.name, description: KIND_HINT[o.kind] ?? o.kind, risk_level: o.kind.startsWith('reject') ? 'safe' : risk })),
    context: { tool_name: call.tool_name, tool_input: call.input, ...(call.paths.length ? { affected_paths: call.paths } : {}) },
    ...(reject ? { default_value: reject.optionId } : {}),
  };
}

/** Did the outcome allow the call? (for tests and logs) */
export function isAllowed(outcome: AcpPermissionOutcome, options: readonly AcpPermissionOption[]): boolean {
  if (outcome.outcome !== 'selected') return false;
  const kind = options.find((o) => o.optionId === outcome.optionId)?.kind;
  return kind === 'allow_once' || kind === 'allow_always';
}

/**
 * The folder a shell call runs in, when its input names one (Gemini CLI's `dir_path`, formerly
 * `directory`, relative to the workspace; `cwd` elsewhere): a Bash rule's words are taken from it
 * (decision 735). The workspace's first folder when it names none.
 */
function commandFolder(input: Record<string, unknown>, roots: readonly string[], aliases: readonly RootAlias[] | undefined): string | undefined {
  const named = [input.dir_path, input.directory, input.cwd].find((v): v is string => typeof v === 'string' && v.trim() !== '');
  if (named === undefined || roots.length === 0) return undefined;
  return underRoot(resolve(roots[0], named), roots, aliases);
}
