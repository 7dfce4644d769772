// "Always allow" rules, persisted as JSON in a file whose location the host chooses (e.g. the
// extension's global storage, or ~/.config/rawp for the CLI). A rule allows one tool on paths
// matching a glob (workspace-relative, picomatch) or, for Bash, commands starting with a prefix.
// Rules are listed and revoked through this API; a corrupt file is kept aside, never overwritten.
import { randomUUID } from 'node:crypto';
import { readTextOrUndefined } from '../../workspace/localFiles';
import { moveAside, replacePrivateFile } from '../../workspace/privateFiles';
import picomatch from 'picomatch';
import { bashRuleMatches } from './bashRule';

export interface PermissionRule {
  id: string;
  tool_name: string;
  /** Workspace-relative glob every affected path must match. */
  path_glob?: string;
  /** Bash: the command as shown to the user; what it allows is bashRule.ts's bashRuleMatches. */
  command_prefix?: string;
  created_at: string;
}

export type RuleScope = Pick<PermissionRule, 'tool_name' | 'path_glob' | 'command_prefix'>;

/** What one call looks like to a rule. */
export interface CallShape {
  tool_name: string;
  /** Workspace-relative paths the call touches. */
  paths: string[];
  command?: string;
}

export function ruleMatches(rule: RuleScope, call: CallShape): boolean {
  if (rule.tool_name !== call.tool_name) return false;
  if (rule.command_prefix !== undefined) {
    // Compound commands always ask; extra words never add destruction (issue 12 finding 8).
    return call.command !== undefined && bashRuleMatches(rule.command_prefix, call.command);
  }
  if (rule.path_glob !== undefined) {
    if (call.paths.length === 0) return false;
    const isMatch = picomatch(rule.path_glob, { dot: true });
    return call.paths.every((p) => isMatch(p));
  }
  return true;
}

export class PermissionRuleStore {
  private rules: PermissionRule[] | undefined;
  /** Set when the file could not be read as rules; the file was moved aside to this path. */
  loadError?: string;

  constructor(
    readonly file: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  list(): PermissionRule[] {
    return this.load().map((r) => ({ ...r }));
  }

  add(scope: RuleScope): PermissionRule {
    const rules = this.load();
    const same = rules.find((r) => r.tool_name === scope.tool_name && r.path_glob === scope.path_glob && r.command_prefix === scope.command_prefix);
    if (same) return { ...same };
    const rule: PermissionRule = { id: randomUUID(), ...scope, created_at: this.now().toISOString() };
    for (const k of ['path_glob', 'command_prefix'] as const) if (rule[k] === undefined) delete rule[k];
    rules.push(rule);
    this.save(rules);
    return { ...rule };
  }

  /** Removes a rule; false when no rule has this id. */
  revoke(id: string): boolean {
    const rules = this.load();
    const i = rules.findIndex((r) => r.id === id);
    if (i < 0) return false;
    rules.splice(i, 1);
    this.save(rules);
    return true;
  }

  find(call: CallShape): PermissionRule | undefined {
    return this.load().find((r) => ruleMatches(r, call));
  }

  private load(): PermissionRule[] {
    if (this.rules) return this.rules;
    const text = readTextOrUndefined(this.file);
    if (text === undefined) return (this.rules = []);
    try {
      const data = JSON.parse(text) as { rules?: unknown };
      if (!Array.isArray(data.rules)) throw new Error('no "rules" array');
      this.rules = data.rules.filter(
        (r): r is PermissionRule => typeof r === 'object' && r !== null && typeof (r as PermissionRule).id === 'string' && typeof (r as PermissionRule).tool_name === 'string',
      );
    } catch (e) {
      const aside = `${this.file}.corrupt-${this.now().getTime()}`;
      // When it cannot be moved it stays where it is, and we still start empty.
      moveAside(this.file, aside);
      this.loadError = `permission rules in ${this.file} could not be read (${(e as Error).message}); kept as ${aside}`;
      this.rules = [];
    }
    return this.rules;
  }

  private save(rules: PermissionRule[]): void {
    replacePrivateFile(this.file, JSON.stringify({ version: 1, rules }, null, 2) + '\n');
  }
}
