// "Always" permission rules on disk (the persistence port of src/session/permissions/rules.ts):
// one JSON file whose place the host chooses (the extension's global storage, or
// ~/.config/rawp/permission-rules.json for `rawp serve`), written atomically with mode 0600. A
// file that cannot be read is reported and left where it is; only a host about to write rules
// moves it aside first, so it is never overwritten (a reader — `rawp run`, a host at start —
// moved a file a person was halfway through editing, and every host lost its rules, the headless
// trial of 2026-12-05); a rule that does not
// fit is dropped and reported. Files written before rules had a decision and an author (every
// rule was a built-in tool's "always allow") read as such. Several hosts share the file (the
// editor, every `rawp serve`, a person editing it): a change is made to the file as it is at that
// moment, and a host reads it again when it changed (decision 579).
import { statSync } from 'node:fs';
import { z } from 'zod';
import { sameSavedRule, type PermissionRule, type RuleChange, type RulePersistence } from '../session/permissions';
import { describeIssues } from '../protocol/parse';
import { readTextOrUndefined } from './localFiles';
import { moveAside, replacePrivateFile } from './privateFiles';

const StoredRule = z.looseObject({
  id: z.string().min(1),
  tool_name: z.string().min(1),
  path_glob: z.string().optional(),
  command_prefix: z.string().optional(),
  decision: z.enum(['allow', 'reject']).default('allow'),
  lifetime: z.literal('always').default('always'),
  created_by: z.string().min(1).default('builtin'),
  created_at: z.string(),
  /** The workspace the rule holds in (decision 708); left out: every workspace. */
  workspace: z.string().min(1).optional(),
});
const RulesFile = z.looseObject({ rules: z.array(z.unknown()) });

export function permissionRulesFile(file: string, now: () => Date = () => new Date()): RulePersistence {
  // What the file was when this host last read or wrote it (changed() compares).
  let seen = stampOf(file);
  const read = (forWrite: boolean): { rules: PermissionRule[]; error?: string; unreadable?: true } => {
    seen = stampOf(file);
    const text = readTextOrUndefined(file);
    if (text === undefined) return { rules: [] };
    let data: z.infer<typeof RulesFile>;
    try {
      data = RulesFile.parse(JSON.parse(text));
    } catch (e) {
      const why = e instanceof z.ZodError ? describeIssues(e) : (e as Error).message;
      if (!forWrite) return { rules: [], error: `permission rules in ${file} could not be read (${why}); they are not used until the file is fixed, and it is left as it is`, unreadable: true };
      const aside = `${file}.corrupt-${now().getTime()}`;
      // When it cannot be moved it stays where it is, and we still start empty.
      moveAside(file, aside);
      seen = stampOf(file);
      return { rules: [], error: `permission rules in ${file} could not be read (${why}); kept as ${aside}`, unreadable: true };
    }
    const rules: PermissionRule[] = [];
    const bad: string[] = [];
    data.rules.forEach((r, i) => {
      const parsed = StoredRule.safeParse(r);
      if (!parsed.success) return bad.push(`rule ${i + 1}: ${describeIssues(parsed.error)}`);
      const { id, tool_name, path_glob, command_prefix, decision, lifetime, created_by, created_at, workspace } = parsed.data;
      rules.push({ id, tool_name, ...(path_glob !== undefined ? { path_glob } : {}), ...(command_prefix !== undefined ? { command_prefix } : {}), decision, lifetime, ...(workspace !== undefined ? { workspace } : {}), created_by, created_at });
    });
    return bad.length ? { rules, error: `permission rules in ${file}: skipped ${bad.join('; ')}` } : { rules };
  };
  return {
    load() {
      const { rules, error } = read(false);
      return error === undefined ? { rules } : { rules, error };
    },
    update(change: RuleChange, held: readonly PermissionRule[]) {
      const current = read(true);
      const rules = current.unreadable ? held.map((r) => ({ ...r })) : current.rules;
      const next = 'add' in change ? (rules.some((r) => sameSavedRule(r, change.add)) ? rules : [...rules, change.add]) : rules.filter((r) => r.id !== change.remove);
      replacePrivateFile(file, JSON.stringify({ version: 2, rules: next }, null, 2) + '\n');
      seen = stampOf(file);
      return current.error === undefined ? { rules: next } : { rules: next, error: current.error };
    },
    changed() {
      return stampOf(file) !== seen;
    },
  };
}

/** Which version of the file is there (an atomic replace gives it a new inode); '' when there is none. */
function stampOf(file: string): string {
  try {
    const st = statSync(file, { bigint: true });
    return `${st.ino}:${st.size}:${st.mtimeNs}`;
  } catch {
    return '';
  }
}
