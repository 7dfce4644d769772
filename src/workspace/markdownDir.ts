// Reads the `*.md` files of one directory (a slash-command directory) the way the spec's
// loadFilesFromDir does (slash-commands §1 "file scanning"): not recursive, hidden files skipped,
// gitignored paths skipped. A directory that does not exist is simply empty. The .gitignore files
// are the repository's own, so they go through the linear-time GitignoreMatcher (decisions 540, 548),
// case-insensitive as the `ignore` package it replaces.
import { readdir, readFile, stat } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { GitignoreMatcher } from './gitignoreMatcher';
import { leavesRoot } from './leavesRoot';

export interface ScannedFile {
  /** File name without `.md`. */
  name: string;
  path: string;
  content: string;
}

export interface ScanResult {
  files: ScannedFile[];
  /** Files that matched but could not be read. */
  unreadable: { path: string; message: string }[];
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

interface IgnoreLayer {
  base: string;
  matcher: GitignoreMatcher;
}

/**
 * The `.gitignore` files that govern `dir`: those in `dir` and its ancestors up to `boundary`
 * (the workspace folder, the home directory or a plugin root) or up to the first directory that
 * holds `.git` (the repository root), whichever comes first.
 */
async function ignoreLayers(dir: string, boundary: string): Promise<IgnoreLayer[]> {
  const layers: IgnoreLayer[] = [];
  let current = dir;
  const inside = relative(boundary, dir);
  const bounded = !leavesRoot(inside);
  for (;;) {
    try {
      const text = await readFile(join(current, '.gitignore'), 'utf8');
      layers.push({ base: current, matcher: new GitignoreMatcher({ ignoreCase: true }).add(text) });
    } catch {
      // no .gitignore here
    }
    if (!bounded || current === boundary || (await exists(join(current, '.git')))) break;
    const parent = dirname(current);
    if (parent === current) break;
    current = parent;
  }
  return layers;
}

function isIgnored(layers: IgnoreLayer[], file: string): boolean {
  return layers.some((l) => {
    const rel = relative(l.base, file).split(sep).join('/');
    return rel !== '' && !leavesRoot(rel, '/') && l.matcher.ignores(rel);
  });
}

/** Loads `dir/*.md` (not recursive, no hidden files, .gitignore honoured). */
export async function scanMarkdownDir(dir: string, boundary: string): Promise<ScanResult> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return { files: [], unreadable: [] };
  }
  const candidates = names.filter((n) => n.endsWith('.md') && !n.startsWith('.') && n.length > 3).sort();
  const layers = candidates.length > 0 ? await ignoreLayers(dir, boundary) : [];
  const files: ScannedFile[] = [];
  const unreadable: ScanResult['unreadable'] = [];
  for (const n of candidates) {
    const path = join(dir, n);
    if (isIgnored(layers, path)) continue;
    try {
      const s = await stat(path);
      if (!s.isFile()) continue;
      files.push({ name: n.slice(0, -3), path, content: await readFile(path, 'utf8') });
    } catch (err) {
      unreadable.push({ path, message: err instanceof Error ? err.message : String(err) });
    }
  }
  return { files, unreadable };
}
