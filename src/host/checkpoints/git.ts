// The real `git` binary (decision 330; run by gitRunner.ts since decision 562), isolated from
// everything of the user's:
// - the environment is built from scratch: no inherited GIT_* variable (GIT_DIR, GIT_INDEX_FILE,
//   GIT_OBJECT_DIRECTORY … set by a hook or a terminal would point us at the user's repository);
// - GIT_DIR is our shadow repository in the host's state folder and GIT_WORK_TREE the workspace, so
//   the user's `.git` is never opened (git never adds a `.git` entry of the work tree either);
// - no system or global config (GIT_CONFIG_NOSYSTEM, GIT_CONFIG_GLOBAL=/dev/null): the user's
//   aliases, hooks path, fsmonitor, filters and credential helpers do not exist for us; the shadow
//   repository's own config is written by us only (shadowRepo.ts);
// - only plumbing commands that run no hooks (ls-files, update-index, write-tree, ls-tree, diff-tree,
//   cat-file, update-ref) — and attributes are neutralised in info/attributes (no filters, no
//   line-ending conversion), so a blob holds the file's very bytes.
import { GitRunner } from './gitRunner';

export interface GitTarget {
  /** The shadow repository (a bare-layout folder we own). */
  gitDir: string;
  /** The folder whose files are checkpointed. */
  workTree: string;
}

/** The few variables git needs, none of the user's git settings. */
export function isolatedGitEnv(target: GitTarget, base: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {
    GIT_DIR: target.gitDir,
    GIT_WORK_TREE: target.workTree,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    // Paths we pass are file names, never patterns (a file called `*.ts` is one file).
    GIT_LITERAL_PATHSPECS: '1',
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    // Plain, stable output whatever the user's locale.
    LC_ALL: 'C',
    // A HOME of its own: nothing of ~/.gitconfig or ~/.config/git is read even by older gits.
    HOME: target.gitDir,
    XDG_CONFIG_HOME: target.gitDir,
  };
  for (const key of ['PATH', 'SystemRoot', 'TMPDIR', 'TEMP', 'TMP']) {
    const v = base[key];
    if (typeof v === 'string') env[key] = v;
  }
  return env;
}

/** A git runner bound to one shadow repository and work tree. */
export function shadowGit(target: GitTarget, opts: { binary?: string; timeoutMs?: number } = {}): GitRunner {
  return new GitRunner({
    cwd: target.workTree,
    env: isolatedGitEnv(target),
    ...(opts.binary ? { binary: opts.binary } : {}),
    maxProcesses: 4,
    // No git call may hang a turn: stopped when it has been silent this long.
    timeoutMs: opts.timeoutMs ?? 60_000,
  });
}

/** The tree of an empty folder (git knows it without storing it). */
export const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
