// Walks files under a directory through the FsBackend (so symlinks and outside paths stay refused),
// skipping `.git` and what the workspace root's .gitignore ignores. Used by Glob and Grep.
// The .gitignore is the repository's own text, so it is matched in linear time (decision 540:
// the `ignore` package's backtracking regexes froze the host for seconds on a `x/**/**/…/z` rule).
import { join, relative, sep } from 'node:path';
import type { FsBackend } from '../workspace/fsBackend';
import { GitignoreMatcher } from '../workspace/gitignoreMatcher';

const ALWAYS_SKIP = new Set(['.git', 'node_modules']);

async function gitignoreOf(fs: FsBackend, root: string): Promise<GitignoreMatcher> {
  // Case-insensitive, as `ignore()` was by default: the same files stay hidden as before.
  const ig = new GitignoreMatcher({ ignoreCase: true });
  try {
    ig.add((await fs.readText(join(root, '.gitignore'))).text);
  } catch {
    // no .gitignore: nothing extra to skip
  }
  return ig;
}

/** Absolute paths of the files under `dir`, depth first, in name order. Stops early when `signal` aborts. */
export async function walkFiles(fs: FsBackend, dir: string, signal?: AbortSignal, maxFiles = 50_000): Promise<string[]> {
  const root = fs.roots.find((r) => dir === r || dir.startsWith(r + sep)) ?? dir;
  const ig = await gitignoreOf(fs, root);
  const out: string[] = [];
  const visit = async (d: string): Promise<void> => {
    if (signal?.aborted || out.length >= maxFiles) return;
    for (const e of await fs.list(d)) {
      const abs = join(d, e.name);
      const rel = relative(root, abs).split(sep).join('/');
      if (e.type === 'directory') {
        if (ALWAYS_SKIP.has(e.name) || (rel && ig.ignores(rel + '/'))) continue;
        await visit(abs);
      } else if (e.type === 'file') {
        if (rel && ig.ignores(rel)) continue;
        out.push(abs);
      }
    }
  };
  await visit(dir);
  return out;
}
