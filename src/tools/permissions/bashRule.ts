// What a session or saved Bash rule allows (issue 12 finding 8, docs/decisions/180-bash-rule-scope.md).
// A rule is shown to the user as the command they saw, every argument included; it then allows
// exactly that command, or that command followed by more plain arguments — never a compound
// command, never an added option (`-delete`, `-I ./evil.sh`, `--use-compress-program …`,
// `--ext-diff`: options that run a program are too many to list, decision 670), never extra words
// that make it destructive (`rm`, `push`, …) and never anything more after an interpreter or a
// command runner (`python3 -c …`, `sh -c …`, `xargs …`, `env …`): those allow the exact command only.

import { hostPhrase } from '../../protocol/hostPhrases';

/** Shell syntax that chains, substitutes or redirects: a call containing it always asks. */
const SHELL_CONTROL = /[;&|`<>\n\r]|\$\(/;

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
 * Words that, added after the allowed prefix, would change what the command may destroy or run.
 * Options are not listed: checkBashRule refuses every added option first (decision 670).
 */
const DESTRUCTIVE = new Set([
  'rm', 'rmdir', 'unlink', 'shred', 'mv', 'dd', 'chmod', 'chown', 'chgrp', 'truncate', 'mkfs', 'kill', 'pkill', 'killall', 'reboot', 'shutdown',
  'push', 'reset', 'clean', 'checkout', 'restore', 'rebase', 'filter-branch', 'gc', 'prune', 'publish', 'unpublish', 'exec', 'run-script', 'x', 'dlx',
]);

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

/** True when `word` (a plain word: options are refused before) would make a widened rule destructive. */
function isDestructive(word: string): boolean {
  if (DESTRUCTIVE.has(word)) return true;
  // Expansions and quoting can turn into anything at run time.
  return /[$'"\\*?[{~=]/.test(word);
}

export interface BashRuleCheck {
  allowed: boolean;
  /** Why not, for logs and tests. */
  reason?: 'compound' | 'prefix' | 'interpreter' | 'option' | 'destructive';
}

/** Does the rule shown as `ruleCommand` allow `command`? */
export function checkBashRule(ruleCommand: string, command: string): BashRuleCheck {
  const cmd = command.trim();
  if (SHELL_CONTROL.test(cmd)) return { allowed: false, reason: 'compound' };
  const rule = shellWords(ruleCommand.trim());
  const words = shellWords(cmd);
  if (rule.length === 0 || words.length < rule.length) return { allowed: false, reason: 'prefix' };
  for (let i = 0; i < rule.length; i++) if (rule[i] !== words[i]) return { allowed: false, reason: 'prefix' };
  const extra = words.slice(rule.length);
  if (extra.length === 0) return { allowed: true };
  if (INTERPRETERS.has(programOf(words[0]))) return { allowed: false, reason: 'interpreter' };
  // Any added option: a program's options may name a program to run (`tar -I ./x.sh`, `sort
  // --compress-program`, `git log --ext-diff`), a file to write or a mode to destroy, and no list
  // holds them all (the adversarial review of 2026-12-06, decision 670).
  if (extra.some((w) => w.startsWith('-'))) return { allowed: false, reason: 'option' };
  if (extra.some(isDestructive)) return { allowed: false, reason: 'destructive' };
  return { allowed: true };
}

export function bashRuleMatches(ruleCommand: string, command: string): boolean {
  return checkBashRule(ruleCommand, command).allowed;
}

/** The rule "allow for this session" / "always allow" suggests for `command`: all of it, as shown. */
export function bashRuleFor(command: string): string {
  return shellWords(command.trim()).join(' ');
}

/** How the prompt describes the rule: exactly what it will allow. */
export function describeBashRule(ruleCommand: string): string {
  const first = shellWords(ruleCommand)[0] ?? '';
  if (INTERPRETERS.has(programOf(first))) return hostPhrase('rule.bash_exact', [ruleCommand, programName(first)]);
  return hostPhrase('rule.bash_prefix', [ruleCommand]);
}
