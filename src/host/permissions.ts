// The host's one permission broker (issue 11 item 4): the policy from the host's settings, the
// rules store with "always" rules in the host's rules file and the tools' rule matcher (globs,
// Bash rule semantics). Every session of the host gets this broker, so a rule granted through
// any agent is listed once and applies to every agent.
import { PermissionBroker, PermissionRules, standardPermissionPolicy } from '../session/permissions';
import { ruleMatches } from '../tools/permissions/rules';
import { permissionRulesFile } from '../workspace/permissionRulesFile';

export interface HostPermissionOptions {
  /** Where "always" rules are kept (JSON). */
  rulesFile: string;
  /** How long a permission ask waits (setting rawp.permissions.timeoutSeconds; default 300). */
  timeoutSec?: number;
  /** After a cancel, how long an agent gets to end its turn before it is stopped (default 5 s). */
  cancelGraceMs?: number;
  /** The rules file could not be read (moved aside) or had rules that were skipped: tell the person. */
  onRulesProblem?: (message: string) => void;
}

export function hostPermissionBroker(o: HostPermissionOptions): PermissionBroker {
  return new PermissionBroker(
    standardPermissionPolicy({ timeoutSec: o.timeoutSec, cancelGraceMs: o.cancelGraceMs }),
    new PermissionRules({ matches: ruleMatches, persistence: permissionRulesFile(o.rulesFile), ...(o.onRulesProblem ? { onProblem: o.onRulesProblem } : {}) }),
  );
}
