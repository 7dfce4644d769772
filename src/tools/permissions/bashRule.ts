// What a session or saved Bash rule allows (issue 12 finding 8, docs/decisions/180-bash-rule-scope.md).
// A rule is shown to the user as the command they saw, every argument included; it then allows
// exactly that command. Only a command that reads (`ls`, `cat`, `rg`, `git log` …, READERS, named
// bare, not by a path) also allows more plain arguments: file names and words inside the workspace
// (decision 706: an added word turned `git stash` into `git stash clear`, `tee log` into a write
// outside, `cat a` into a read outside, and no list of such words is whole). Never a compound
// command, never an added option (`-delete`, `-I ./evil.sh`, `--pre ./evil.sh`: options that run a
// program are too many to list, decision 670), never a word with quotes or expansions, never an
// absolute or `..` path, and — where the host knows its workspace — never a word that names a path
// leading out through a symlink (`cat notes/link` with `notes/link` → `~/.ssh/id_rsa`, decision 710).

import { hostPhrase } from '../../protocol/hostPhrases';

/** Shell syntax that chains, substitutes or redirects, in sh or in the shells a user may set
 *  (`(…)` substitutes in fish, runs a subshell in sh): a call containing it always asks. */
const SHELL_CONTROL = /[;&|`<>()\n\r]|\$\(/;

/** Programs that run code given as arguments or wrap another command: exact match only. */
const INTERPRETERS = new Set([
  'sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'fish', 'csh', 'tcsh', 'busybox',
  'python', 'python2', 'python3', 'pypy', 'pypy3', 'node', 'nodejs', 'deno', 'bun', 'perl', 'ruby', 'php', 'lua', 'luajit', 'tclsh', 'wish', 'Rscript', 'julia', 'osascript', 'pwsh', 'powershell', 'java', 'jshell', 'groovy', 'scala', 'swift',
  'awk', 'gawk', 'mawk', 'nawk', 'sed', 'gsed', 'ed', 'ex', 'vi', 'vim', 'nvim', 'emacs',
  'env', 'xargs', 'parallel', 'sudo', 'doas', 'su', 'runuser', 'nohup', 'timeout', 'nice', 'ionice', 'time', 'watch', 'exec', 'eval', 'command', 'builtin', 'setsid', 'stdbuf', 'chroot', 'unshare', 'nsenter', 'strace', 'ltrace', 'gdb', 'script', 'ssh', 'tmux', 'screen',
  'npx', 'bunx', 'pnpx', 'dlx', 'docker', 'podman', 'kubectl',
  'source', '.', 'trap', 'alias',
]);

/**
 * Programs that only read what their plain arguments name (no option is ever added: checkBashRule
 * refuses those first): a rule for one of them also allows it with more such arguments.
 */
const READERS = new Set([
  'ls', 'cat', 'head', 'tail', 'wc', 'nl', 'grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack', 'find', 'fd', 'tree', 'file', 'stat', 'du',
  'diff', 'cmp', 'md5sum', 'sha1sum', 'sha256sum', 'sha512sum', 'b2sum', 'cksum', 'realpath', 'readlink', 'basename', 'dirname', 'echo',
]);
/** git's subcommands that only read: `git log` allows `git log src`, `git stash` allows nothing more. */
const GIT_READERS = new Set(['status', 'log', 'diff', 'show', 'blame', 'ls-files', 'grep', 'shortlog', 'describe']);

/** Splits a command into shell words (quotes kept as written, so `"a b"` stays one word). */
export function shellWords(command: string): string[] {
  const words: string[] = [];
  let cur = '';
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    if (quote) {
      cur += c;
      if (c === '\\' && quote === '"' && i + 1 < command.length) cur += command[++i];
      else if (c === quote) quote = undefined;
    } else if (c === ' ' || c === '\t') {
      if (cur) words.push(cur);
      cur = '';
    } else {
      cur += c;
      if (c === '"' || c === "'") quote = c;
      else if (c === '\\' && i + 1 < command.length) cur += command[++i];
    }
  }
  if (cur) words.push(cur);
  return words;
}

/** The word as the shell runs it: quotes taken away, backslash escapes resolved (`'/usr/bin/node'`, `p\ython3`). */
function unquoted(word: string): string {
  let out = '';
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < word.length; i++) {
    const c = word[i];
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else out += c;
    } else if (c === '\\' && i + 1 < word.length) out += word[++i];
    else if (c === '"') quote = quote === '"' ? undefined : '"';
    else if (c === "'" && quote === undefined) quote = "'";
    else out += c;
  }
  return out;
}

/** The name of the program a command's first word runs: a quoted or escaped one too (the review of decision 654). */
function programName(first: string): string {
  const word = unquoted(first);
  return word.slice(word.lastIndexOf('/') + 1);
}

/** The program a command's first word runs, by family. */
function programOf(first: string): string {
  const name = programName(first);
  // python3.12, pip3.11, node20 …: the interpreter family counts (a loop: no regex on user input).
  let end = name.length;
  while (end > 1 && /[0-9.]/.test(name[end - 1])) end--;
  return name.slice(0, end);
}

/** Does the rule (its shell words) name a command that only reads, so more plain arguments may follow? */
function readsOnly(rule: readonly string[]): boolean {
  // By its bare name only: `./cat` or `bin/cat` is a script that may do anything with more words.
  if (unquoted(rule[0]).includes('/')) return false;
  const program = programName(rule[0]);
  if (program === 'git') return rule.length >= 2 && GIT_READERS.has(rule[1]);
  return READERS.has(program);
}

/** True when `word` (a plain word: options are refused before) could mean more than it shows: an
 *  expansion or quoting (anything at run time), or a path out of the workspace (absolute, `..`). */
function isUnplain(word: string): boolean {
  if (/[$'"\\*?[{~=]/.test(word)) return true;
  return word.startsWith('/') || word.split('/').includes('..');
}

export interface BashRuleCheck {
  allowed: boolean;
  /** Why not, for logs and tests. */
  reason?: 'compound' | 'prefix' | 'interpreter' | 'exact' | 'option' | 'unplain' | 'outside';
}

/**
 * Does the rule shown as `ruleCommand` allow `command`? `staysInside`: does an added plain word,
 * taken as a path from the workspace folder, really lie inside it (symlinks followed)? Without it
 * only the words' look is checked.
 */
export function checkBashRule(ruleCommand: string, command: string, staysInside?: (word: string) => boolean): BashRuleCheck {
  const cmd = command.trim();
  if (SHELL_CONTROL.test(cmd)) return { allowed: false, reason: 'compound' };
  const rule = shellWords(ruleCommand.trim());
  const words = shellWords(cmd);
  if (rule.length === 0 || words.length < rule.length) return { allowed: false, reason: 'prefix' };
  for (let i = 0; i < rule.length; i++) if (rule[i] !== words[i]) return { allowed: false, reason: 'prefix' };
  const extra = words.slice(rule.length);
  if (extra.length === 0) return { allowed: true };
  if (INTERPRETERS.has(programOf(words[0]))) return { allowed: false, reason: 'interpreter' };
  if (!readsOnly(rule)) return { allowed: false, reason: 'exact' };
  // Any added option: a program's options may name a program to run (`tar -I ./x.sh`, `sort
  // --compress-program`, `git log --ext-diff`), a file to write or a mode to destroy, and no list
  // holds them all (the adversarial review of 2026-12-06, decision 670).
  if (extra.some((w) => w.startsWith('-'))) return { allowed: false, reason: 'option' };
  if (extra.some(isUnplain)) return { allowed: false, reason: 'unplain' };
  if (staysInside && !extra.every(staysInside)) return { allowed: false, reason: 'outside' };
  return { allowed: true };
}

/** Does a rule for this command also allow it with more plain arguments (a command that only reads)? */
export function ruleTakesMoreArguments(ruleCommand: string): boolean {
  const rule = shellWords(ruleCommand.trim());
  return rule.length > 0 && !INTERPRETERS.has(programOf(rule[0])) && readsOnly(rule);
}

export function bashRuleMatches(ruleCommand: string, command: string, staysInside?: (word: string) => boolean): boolean {
  return checkBashRule(ruleCommand, command, staysInside).allowed;
}

/** The rule "allow for this session" / "always allow" suggests for `command`: all of it, as shown. */
export function bashRuleFor(command: string): string {
  return shellWords(command.trim()).join(' ');
}

/** How the prompt describes the rule: exactly what it will allow. */
export function describeBashRule(ruleCommand: string): string {
  const rule = shellWords(ruleCommand);
  const first = rule[0] ?? '';
  if (INTERPRETERS.has(programOf(first))) return hostPhrase('rule.bash_exact', [ruleCommand, programName(first)]);
  return hostPhrase(rule.length > 0 && readsOnly(rule) ? 'rule.bash_prefix' : 'rule.bash_only', [ruleCommand]);
}
