// The host's one permission broker (issue 11 item 4): the policy from the host's settings, the
// rules store with "always" rules in the host's rules file and the tools' rule matcher (globs,
// Bash rule semantics). Every session of the host gets this broker, so a rule granted through
// any agent is listed once and applies to every agent.
import { PermissionBroker, PermissionRules, standardPermissionPolicy } from '../session/permissions';
import { ruleMatches } from '../tools/permissions/rules';
import { permissionRulesFile } from '../workspace/permissionRulesFile';
import { realLocation } from '../workspace/realLocation';
import { isAbsolute } from 'node:path';

export interface HostPermissionOptions {
  /** Where "always" rules are kept (JSON). */
  rulesFile: string;
  /** How long a permission ask waits (setting rawp.permissions.timeoutSeconds; default 300). */
  timeoutSec?: number;
  /** After a cancel, how long an agent gets to end its turn before it is stopped (default 5 s). */
  cancelGraceMs?: number;
  /** The rules file could not be read (moved aside) or had rules that were skipped: tell the person. */
  onRulesProblem?: (message: string) => void;
  /**
   * The host's workspace folder (the first, in a multi-root editor window): "always" rules are saved
   * for it and found only there (decision 708). Read at each ask: an editor's folders change.
   */
  workspace?: () => string | undefined;
}

export function hostPermissionBroker(o: HostPermissionOptions): PermissionBroker {
  const workspace = o.workspace ? workspaceKey(o.workspace) : undefined;
  // A Bash rule's added words are paths from the folder Bash runs in (decision 710); a virtual
  // folder has no local path to follow, and its words are only checked by their look.
  const localRoots = (): string[] => {
    const key = workspace?.();
    return key && isAbsolute(key) ? [key] : [];
  };
  return new PermissionBroker(
    standardPermissionPolicy({ timeoutSec: o.timeoutSec, cancelGraceMs: o.cancelGraceMs }),
    new PermissionRules({ matches: (rule, call) => ruleMatches(rule, call, localRoots()), persistence: permissionRulesFile(o.rulesFile), ...(o.onRulesProblem ? { onProblem: o.onRulesProblem } : {}), ...(workspace ? { workspace } : {}) }),
  );
}

/** The workspace as rules name it: its folder's real path (a symlinked path names the same one); a
 *  virtual folder's URI as it is. */
function workspaceKey(folder: () => string | undefined): () => string | undefined {
  let last: { folder: string; key: string } | undefined;
  return () => {
    const f = folder();
    if (!f) return undefined;
    if (last?.folder !== f) last = { folder: f, key: isAbsolute(f) ? realLocation(f) : f };
    return last.key;
  };
}
