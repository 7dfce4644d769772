// `.ignore` files listed by git, as a filter: git knows nothing of `.ignore` (a ripgrep/fd
// convention), so its rules are applied to git's listing afterwards. They all apply to one
// listing, so together they get one budget (decision 711), spent from the root down, and at most
// MAX_DOT_IGNORE_FILES of them are read. The listing reads and compiles them and tries paths in
// steps between event-loop turns (decision 733); the synchronous filter is the same steps run at once.
import { join } from 'node:path';
import { GitignoreMatcher } from './gitignoreMatcher';
import { readIgnoreFile } from './ignoreFileRead';
import { budgetLeft, warnIgnore } from './ignoreLimits';
import { runToEnd } from './runSteps';
import { runInSharedSlices } from './sharedSlices';

/** `.ignore` files read for one git listing (the nearest the root first). */
export const MAX_DOT_IGNORE_FILES = 256;

/** Whether a path is hidden, a step after each rule test (each may compile the smaller groups of a group it matched). */
export type SteppedFilter = (rel: string) => Generator<void, boolean, void>;

/** The `.ignore` files among git's `paths`, as a filter; undefined when there are none to apply. */
export function dotIgnoreFilter(root: string, paths: readonly string[], caseSensitive: boolean): ((rel: string) => boolean) | undefined {
  const steps = runToEnd(dotIgnoreSteps(root, paths, caseSensitive));
  return steps && ((rel) => runToEnd(steps(rel)));
}

/** The same, its files read and its rules compiled between event-loop turns, as a filter of steps. */
export function dotIgnoreFilterInTurns(root: string, paths: readonly string[], caseSensitive: boolean): Promise<SteppedFilter | undefined> {
  return runInSharedSlices(dotIgnoreSteps(root, paths, caseSensitive));
}

/** The filter, a step for each file read, each few rules parsed and each group of rules compiled. */
function* dotIgnoreSteps(root: string, paths: readonly string[], caseSensitive: boolean): Generator<void, SteppedFilter | undefined, void> {
  const depth = (p: string) => p.split('/').length;
  const found = paths.filter((p) => p === '.ignore' || p.endsWith('/.ignore')).sort((a, b) => depth(a) - depth(b) || a.length - b.length);
  if (found.length > MAX_DOT_IGNORE_FILES) warnIgnore(`${root}: ${found.length} .ignore files, only the ${MAX_DOT_IGNORE_FILES} nearest the root are read`);
  const dirs: { dir: string; rules: GitignoreMatcher }[] = [];
  for (const p of found.slice(0, MAX_DOT_IGNORE_FILES)) {
    const budget = budgetLeft(dirs.map((d) => d.rules.spent));
    if (budget.rules <= 0 || budget.size <= 0) {
      warnIgnore(`${join(root, p)} and further .ignore files not read: the rules of this repository's .ignore files reached their bound`);
      break;
    }
    const text = readIgnoreFile(join(root, p));
    yield;
    if (!text) continue;
    const dir = p.slice(0, Math.max(0, p.length - '.ignore'.length - 1));
    const rules = new GitignoreMatcher({ ignoreCase: !caseSensitive, budget });
    yield* rules.addSteps(text, join(root, p));
    dirs.push({ dir, rules });
  }
  for (const { rules } of dirs) while (rules.warmStep()) yield;
  if (dirs.length === 0) return undefined;
  dirs.sort((a, b) => a.dir.length - b.dir.length);
  return function* hidden(rel) {
    let verdict = false;
    let tried = false;
    for (const { dir, rules } of dirs) {
      if (dir !== '' && !rel.startsWith(dir + '/')) continue;
      const sub = dir === '' ? rel : rel.slice(dir.length + 1);
      // A rule may name a directory on the way down: test each ancestor as a directory too.
      const parts = sub.split('/');
      for (let k = 1; k <= parts.length; k++) {
        const piece = parts.slice(0, k).join('/') + (k < parts.length ? '/' : '');
        if (tried) yield;
        tried = true;
        const r = rules.test(piece);
        if (r.ignored) verdict = true;
        else if (r.unignored && k === parts.length) verdict = false;
      }
    }
    return verdict;
  };
}
