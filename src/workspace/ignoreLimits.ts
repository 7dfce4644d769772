// How much of a repository's ignore files we read and compile (decision 711). `.gitignore`,
// `.ignore` and `.git/info/exclude` come with the repository, so their size is the attacker's
// choice: 1,600 rules of `*a…*a b` (640 KB) blocked the event loop 10 s at 1 GB (the union of all
// rules compiles in superlinear time, and every `*` is a thread that stays alive along a name),
// and a `.gitignore` linked to /dev/zero never ended. The bounds sit above real files (Chromium's
// root and third_party/.gitignore, which a path under third_party/ gets both of: 15 KB, ~590 rules,
// ~55 wildcards not leading, 29 KiB by the measure below; GitHub's VisualStudio template: 7 KB,
// ~270 rules, ~35 such wildcards; the longest rule in these is 80 characters) and far below the
// review's, which take every bound out of reach of a single event-loop block of ~100 ms.
import { MAX_EXCLUDE_PATTERN_LENGTH } from './excludeGlobs';
import { visibleName } from '../protocol/visibleName';

/** Bytes read of one ignore file: the rest is left out (git itself skips files of 100 MiB). */
export const MAX_IGNORE_FILE_BYTES = 1024 * 1024;
/** A rule longer than this (as a master's exclude_patterns, excludeGlobs.ts) is left out alone. */
export const MAX_IGNORE_RULE_LENGTH = MAX_EXCLUDE_PATTERN_LENGTH;

/**
 * What the rules that apply to one path may cost together (the ignore files of its folder and of
 * the folders above): past any bound, the later rules are left out. Each measure is one cost:
 * - rules: every rule adds a branch that each path is tried against;
 * - size: characters of the rules plus RULE_OVERHEAD each, what compiling them costs (RE2JS:
 *   ~1.5 µs a character and ~50 µs a rule, so 32 KiB ≈ 50–65 ms of the folder's first check);
 * - wildcards: loops (`*`, `**`) other than a rule's leading `*` (those share one loop, see
 *   ruleChunks.ts): each may stay alive along a whole name, so a path costs ~0.4 µs more per loop.
 */
export interface RuleBudget {
  rules: number;
  size: number;
  wildcards: number;
}

export const MAX_IGNORE_RULES = 1024;
export const MAX_IGNORE_RULES_SIZE = 32 * 1024;
export const MAX_IGNORE_WILDCARDS = 128;
export const RULE_OVERHEAD = 24;
export const IGNORE_RULE_BUDGET: Readonly<RuleBudget> = Object.freeze({ rules: MAX_IGNORE_RULES, size: MAX_IGNORE_RULES_SIZE, wildcards: MAX_IGNORE_WILDCARDS });

/** The budget left after `spent` (what the ignore files of the folders above took). */
export function budgetLeft(spent: readonly RuleBudget[]): RuleBudget {
  const left = { ...IGNORE_RULE_BUDGET };
  for (const s of spent) {
    left.rules -= s.rules;
    left.size -= s.size;
    left.wildcards -= s.wildcards;
  }
  return left;
}

/** Where the notices of rules or files left out go: a host may hand its logger. */
export type IgnoreWarningSink = (message: string) => void;

// Without a host's logger the notice still reaches the user: `rawp search`/`serve` print process
// warnings on stderr, VS Code's extension host writes them to its log.
// The message names a repository's file: its control and bidi characters are shown, not passed
// to the operator's terminal (decision 583).
const processWarning: IgnoreWarningSink = (message) => process.emitWarning(visibleName(message), { code: 'RAWP_IGNORE_RULES' });
let sink = processWarning;
/** A listing is made again after every change of an ignore file: each notice is given once. */
const told = new Set<string>();
const MAX_TOLD = 1000;

export function warnIgnore(message: string): void {
  if (told.has(message)) return;
  if (told.size >= MAX_TOLD) told.clear();
  told.add(message);
  sink(message);
}

/** Sends the notices to `next` (undefined: process warnings again); returns the previous sink. */
export function setIgnoreWarningSink(next: IgnoreWarningSink | undefined): IgnoreWarningSink {
  const previous = sink;
  sink = next ?? processWarning;
  return previous;
}
