// "Always" permission rules on disk (the persistence port of src/session/permissions/rules.ts):
// one JSON file whose place the host chooses (the extension's global storage, or
// ~/.config/rawp/permission-rules.json for `rawp serve`), written atomically with mode 0600. A
// file that cannot be read is moved aside and reported, never overwritten; a rule that does not
// fit is dropped and reported. Files written before rules had a decision and an author (every
// rule was a built-in tool's "always allow") read as such.
import { z } from 'zod';
import type { PermissionRule, RulePersistence } from '../session/permissions';
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
});
const RulesFile = z.looseObject({ rules: z.array(z.unknown()) });

export function permissionRulesFile(file: string, now: () => Date = () => new Date()): RulePersistence {
  return {
    load() {
      const text = readTextOrUndefined(file);
      if (text === undefined) return { rules: [] };
      let data: z.infer<typeof RulesFile>;
      try {
        data = RulesFile.parse(JSON.parse(text));
      } catch (e) {
        const aside = `${file}.corrupt-${now().getTime()}`;
        // When it cannot be moved it stays where it is, and we still start empty.
        moveAside(file, aside);
        const why = e instanceof z.ZodError ? describeIssues(e) : (e as Error).message;
        return { rules: [], error: `permission rules in ${file} could not be read (${why}); kept as ${aside}` };
      }
      const rules: PermissionRule[] = [];
      const bad: string[] = [];
      data.rules.forEach((r, i) => {
        const parsed = StoredRule.safeParse(r);
        if (!parsed.success) return bad.push(`rule ${i + 1}: ${describeIssues(parsed.error)}`);
        const { id, tool_name, path_glob, command_prefix, decision, lifetime, created_by, created_at } = parsed.data;
        rules.push({ id, tool_name, ...(path_glob !== undefined ? { path_glob } : {}), ...(command_prefix !== undefined ? { command_prefix } : {}), decision, lifetime, created_by, created_at });
      });
      return bad.length ? { rules, error: `permission rules in ${file}: skipped ${bad.join('; ')}` } : { rules };
    },
    save(rules) {
      replacePrivateFile(file, JSON.stringify({ version: 2, rules }, null, 2) + '\n');
    },
  };
}
