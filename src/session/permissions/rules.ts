// The one permission rules store of a host (issue 11 item 4): every "allow / reject for this
// session" and "always allow / reject" answer, whichever agent asked — the built-in tools, Claude
// Code's can_use_tool, an ACP agent's allow_always — becomes a rule here, and every later ask of
// every agent is checked against it. Session rules live in memory and end with their session;
// "always" rules go through a persistence port the host provides (a JSON file, written by
// src/workspace). What a rule matches is a matcher the host injects (src/tools/permissions:
// globs, the Bash rule semantics); the store only keeps, finds, lists and revokes. An "always" rule
// holds in the workspace it was granted in (decision 708): the rules file is the user's, shared by
// every workspace, and `make test` allowed in one's own project must not run a cloned one's Makefile.
import { newId } from '../../protocol/build';

/** What an answer covers: one tool, optionally only paths matching a glob or one command. */
export type RuleScope = {
  tool_name: string;
  /** Workspace-relative glob every affected path must match. */
  path_glob?: string;
  /** A shell command as shown to the user (what it allows is the matcher's business). */
  command_prefix?: string;
};

/** What one call looks like to a rule. */
export interface CallShape {
  tool_name: string;
  /** Workspace-relative paths the call touches. */
  paths: string[];
  command?: string;
  /**
   * The folder a Bash command runs in, as the agent reports it (absolute): its shell may have moved
   * (Claude Code's persists after `cd`; Gemini's runs in `dir_path`). Absent: the workspace folder.
   */
  cwd?: string;
}

export type RuleLifetime = 'session' | 'always';

export type PermissionRule = RuleScope & {
  id: string;
  decision: 'allow' | 'reject';
  lifetime: RuleLifetime;
  /** The session a `session` rule belongs to. */
  session_id?: string;
  /**
   * The workspace an `always` rule holds in (the host's `workspace()`, a folder's real path); none:
   * every workspace (a rule written by hand, or saved before decision 708).
   */
  workspace?: string;
  /** The agent whose ask created it (`builtin`, `claude-code`, `acp:gemini`, …). */
  created_by: string;
  created_at: string;
};

export type RuleMatcher = (rule: RuleScope, call: CallShape) => boolean;

/** A session rule as it is journaled with its session (no id: a restored rule gets a new one). */
export type SessionRuleRecord = RuleScope & { decision: 'allow' | 'reject'; created_by: string; created_at: string };

/** One change to the kept rules. */
export type RuleChange = { add: PermissionRule } | { remove: string };

/**
 * Where "always" rules are kept. `load` returns only well-formed rules, and why it dropped others.
 * Several hosts may keep rules in one place (the editor and `rawp serve` share
 * ~/.config/rawp/permission-rules.json by default, and people edit it by hand), so a change is
 * made to what is kept *now* (decision 579): `update` reads the rules again, makes the one change
 * (an equal rule already kept is not added twice) and returns what it kept; `held`, this host's
 * rules, stands in when the kept ones cannot be read. `changed` says whether someone else changed
 * them since this host last read or wrote them.
 */
export interface RulePersistence {
  load(): { rules: PermissionRule[]; error?: string };
  update(change: RuleChange, held: readonly PermissionRule[]): { rules: PermissionRule[]; error?: string };
  changed?(): boolean;
}

/**
 * The matcher when the host injects none: the same tool, and the exact command or paths under the
 * glob's folder (`dir/**`, `**`). Hosts use src/tools/permissions' ruleMatches.
 */
export const exactRuleMatcher: RuleMatcher = (rule, call) => {
  if (rule.tool_name !== call.tool_name) return false;
  if (rule.command_prefix !== undefined) return call.command === rule.command_prefix;
  if (rule.path_glob !== undefined) {
    const dir = rule.path_glob === '**' ? '' : rule.path_glob.endsWith('/**') ? rule.path_glob.slice(0, -2) : undefined;
    return call.paths.length > 0 && call.paths.every((p) => (dir === undefined ? p === rule.path_glob : p.startsWith(dir)));
  }
  return true;
};

export interface PermissionRulesOptions {
  matches?: RuleMatcher;
  /** The host's workspace (a folder's real path): an "always" rule is saved for it and found only
   *  there (decision 708). Undefined, or none given: saved for every workspace. */
  workspace?: () => string | undefined;
  persistence?: RulePersistence;
  now?: () => Date;
  /** Told once per new problem with the kept rules (a file that could not be read, rules skipped). */
  onProblem?: (message: string) => void;
}

export class PermissionRules {
  private always: PermissionRule[] | undefined;
  private readonly sessionRules: PermissionRule[] = [];
  private readonly listeners = new Set<() => void>();
  /** Why persisted rules could not all be read (shown to the user by the host). */
  loadError?: string;

  constructor(private readonly options: PermissionRulesOptions = {}) {}

  /** Every rule: the saved ones, then those of live sessions, oldest first. */
  list(): PermissionRule[] {
    return [...this.saved(), ...this.sessionRules].map((r) => ({ ...r }));
  }

  /** The rule covering this call in this session; a reject rule wins over an allow rule. */
  find(call: CallShape, session_id: string): PermissionRule | undefined {
    const matches = this.options.matches ?? exactRuleMatcher;
    const here = this.options.workspace?.();
    const saved = this.saved().filter((r) => r.workspace === undefined || r.workspace === here);
    const candidates = [...this.sessionRules.filter((r) => r.session_id === session_id), ...saved].filter((r) => matches(r, call));
    const found = candidates.find((r) => r.decision === 'reject') ?? candidates[0];
    return found ? { ...found } : undefined;
  }

  /** Adds a rule (or returns the same one already there). */
  add(scope: RuleScope, how: { decision: 'allow' | 'reject'; lifetime: RuleLifetime; session_id: string; created_by: string }): PermissionRule {
    const list = how.lifetime === 'always' ? this.saved() : this.sessionRules;
    const workspace = how.lifetime === 'always' ? this.savesFor() : undefined;
    const rule: PermissionRule = {
      id: newId(),
      tool_name: scope.tool_name,
      ...(scope.path_glob !== undefined ? { path_glob: scope.path_glob } : {}),
      ...(scope.command_prefix !== undefined ? { command_prefix: scope.command_prefix } : {}),
      decision: how.decision,
      lifetime: how.lifetime,
      ...(how.lifetime === 'session' ? { session_id: how.session_id } : {}),
      ...(workspace !== undefined ? { workspace } : {}),
      created_by: how.created_by,
      created_at: (this.options.now?.() ?? new Date()).toISOString(),
    };
    const isSame = (r: PermissionRule) => (how.lifetime === 'always' ? sameSavedRule(r, rule) : sameScope(r, rule) && r.decision === rule.decision && r.session_id === rule.session_id);
    const same = list.find(isSame);
    if (same) return { ...same };
    const persistence = how.lifetime === 'always' ? this.options.persistence : undefined;
    if (persistence) {
      // Another host may have kept the same rule a moment ago: what is kept is the answer.
      const kept = this.keep(persistence.update({ add: rule }, list));
      this.changed();
      return { ...(kept.find(isSame) ?? rule) };
    }
    list.push(rule);
    this.changed();
    return { ...rule };
  }

  /** The workspace a rule saved now holds in (decision 708); undefined: every workspace. */
  savesFor(): string | undefined {
    return this.options.workspace?.();
  }

  /** Removes a rule; false when no rule has this id. */
  revoke(id: string): boolean {
    const saved = this.saved();
    const i = saved.findIndex((r) => r.id === id);
    if (i >= 0) {
      const persistence = this.options.persistence;
      if (persistence) this.keep(persistence.update({ remove: id }, saved));
      else saved.splice(i, 1);
      this.changed();
      return true;
    }
    const j = this.sessionRules.findIndex((r) => r.id === id);
    if (j < 0) return false;
    this.sessionRules.splice(j, 1);
    this.changed();
    return true;
  }

  /**
   * A session's own rules, as the host journals them so they survive a restart with the session
   * (src/host/sessionRules.ts, docs/decisions/126).
   */
  of(session_id: string): SessionRuleRecord[] {
    return this.sessionRules
      .filter((r) => r.session_id === session_id)
      .map((r) => ({
        tool_name: r.tool_name,
        ...(r.path_glob !== undefined ? { path_glob: r.path_glob } : {}),
        ...(r.command_prefix !== undefined ? { command_prefix: r.command_prefix } : {}),
        decision: r.decision,
        created_by: r.created_by,
        created_at: r.created_at,
      }));
  }

  /** A restored session gets its rules back (before anyone can prompt it). */
  restore(session_id: string, records: readonly SessionRuleRecord[]): void {
    for (const r of records) {
      if (this.sessionRules.some((x) => x.session_id === session_id && sameScope(x, r) && x.decision === r.decision)) continue;
      this.sessionRules.push({ id: newId(), ...r, lifetime: 'session', session_id });
    }
    if (records.length > 0) this.changed();
  }

  /** The session ended: its session rules go. */
  forgetSession(session_id: string): void {
    const before = this.sessionRules.length;
    for (let i = this.sessionRules.length - 1; i >= 0; i--) if (this.sessionRules[i].session_id === session_id) this.sessionRules.splice(i, 1);
    if (this.sessionRules.length !== before) this.changed();
  }

  /** Called after every change (the view refreshes its list). */
  onChange(listener: () => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** The always rules, read again when someone else changed where they are kept. */
  private saved(): PermissionRule[] {
    const persistence = this.options.persistence;
    if (this.always && !persistence?.changed?.()) return this.always;
    return this.keep(persistence?.load() ?? { rules: [] });
  }

  private keep(loaded: { rules: PermissionRule[]; error?: string }): PermissionRule[] {
    if (loaded.error && loaded.error !== this.loadError) {
      this.loadError = loaded.error;
      this.options.onProblem?.(loaded.error);
    }
    return (this.always = loaded.rules.filter((r) => r.lifetime === 'always'));
  }

  private changed(): void {
    for (const l of [...this.listeners]) l();
  }
}

/** The same scope: tool, path glob and command (a rule's effect is this and its decision). */
export function sameScope(a: RuleScope, b: RuleScope): boolean {
  return a.tool_name === b.tool_name && a.path_glob === b.path_glob && a.command_prefix === b.command_prefix;
}

/** Two saved rules that do the same: the same scope, decision and workspace (decision 708). */
export function sameSavedRule(a: PermissionRule, b: PermissionRule): boolean {
  return sameScope(a, b) && a.decision === b.decision && a.workspace === b.workspace;
}
