// The files of one workspace folder as VS Code's own search sees them (issue 13, §16.1): what the
// @ picker lists. `files.exclude` and `search.exclude` (the folder's effective settings, entries set
// to true) hide files, and `.gitignore`/`.ignore` files do where `search.useIgnoreFiles` is on —
// what Quick Open shows.
//  - `file:` folders: `workspace.findFiles` (VS Code's file search, ripgrep) with files.exclude
//    applied by VS Code and search.exclude passed as the exclude glob; `findFiles` itself ignores
//    .gitignore in stable VS Code (only the proposed findFiles2 has useIgnoreFiles), so ignore
//    files are applied on its results with the same rules as the Node listing (ignoreRules.ts).
//  - any other scheme: VS Code searches those only through a FileSearchProvider, a proposed API
//    that extensions' file systems rarely have (findFiles waits for one forever), so the folder is
//    walked through `workspace.fs` with the same exclude globs (docs/decisions/222).
// Symlinks are not listed (the file backend refuses to read through them anyway): the walk skips
// them, and what findFiles finds under a symlinked folder is left out (symlinkedDirs.ts).
import * as vscode from 'vscode';
import { IgnoreRules } from '../workspace/ignoreRules';
import { withoutSymlinkedDirs } from '../workspace/symlinkedDirs';
import type { FolderRoot } from './workspaceRoots';
import { inVcsFolder } from '../workspace/vcsFolders';

export interface ListingMode {
  /** false: every file, excludes and ignore files not applied (the `global` search scope). */
  excludes: boolean;
  /** rawp.search.includeIgnored (decision 363): ignore files hide nothing; the exclude globs still apply. */
  includeIgnored?: boolean;
}

/** Bounds of the walk for folders VS Code cannot search: a huge or looping tree cannot freeze the host. */
const MAX_WALK_FILES = 200_000;
const MAX_WALK_DEPTH = 64;

/** The folder's exclude globs from `files.exclude` and `search.exclude` (entries set to true). */
export function excludeGlobs(folder: vscode.Uri): { files: string[]; search: string[] } {
  const on = (section: string, key: string) => {
    const v = vscode.workspace.getConfiguration(section, folder).get<Record<string, unknown>>(key) ?? {};
    // `{ "when": "$(basename).ts" }` entries depend on sibling files: not applied (VS Code applies
    // them in its explorer; the picker errs on showing the file).
    return Object.entries(v).filter(([glob, value]) => value === true && glob.trim().length > 0).map(([glob]) => glob);
  };
  return { files: on('files', 'exclude'), search: on('search', 'exclude') };
}

export function useIgnoreFiles(folder: vscode.Uri): boolean {
  return vscode.workspace.getConfiguration('search', folder).get<boolean>('useIgnoreFiles') ?? true;
}

/**
 * The rules a path of this folder is checked against. `withGlobs`: the exclude globs too (the walk,
 * and paths findFiles cannot be asked about); without: only ignore files (on findFiles' results,
 * which VS Code already filtered by the globs).
 */
export function folderRules(f: FolderRoot, mode: ListingMode, withGlobs = f.uri.scheme !== 'file'): IgnoreRules {
  if (!mode.excludes) return new IgnoreRules(f.root, { caseSensitive: true, useIgnoreFiles: false });
  const g = excludeGlobs(f.uri);
  return new IgnoreRules(f.root, {
    caseSensitive: process.platform === 'linux',
    extraExcludes: withGlobs ? [...g.files, ...g.search] : [],
    // Ignore files are read from the disk: only for file: folders.
    useIgnoreFiles: f.uri.scheme === 'file' && useIgnoreFiles(f.uri) && mode.includeIgnored !== true,
  });
}

/** Every visible file of the folder, `/`-separated and relative to it. */
export async function listFolder(f: FolderRoot, mode: ListingMode, token?: vscode.CancellationToken): Promise<string[]> {
  const rules = folderRules(f, mode);
  if (f.uri.scheme === 'file') return findInFolder(f, '**/*', mode, rules, token);
  return walk(f, '', rules, token);
}

/**
 * Which of `rels` (files, or folders moved in: everything under them) the listing would show —
 * the same verdicts as a full listing, for paths a watcher reported.
 */
export async function visibleAmong(f: FolderRoot, rels: readonly string[], mode: ListingMode): Promise<string[]> {
  if (rels.length === 0) return [];
  const out: string[] = [];
  let rest = rels;
  if (f.uri.scheme === 'file') {
    // One findFiles per slice of plain paths: `{a,a/**,b,b/**}`. A name with glob characters
    // cannot be put in a glob safely; those few are checked with the rules below.
    const plain = rels.filter((r) => !/[[\]{}()*?!,\\]/.test(r));
    rest = rels.filter((r) => !plain.includes(r));
    for (let i = 0; i < plain.length; i += 100) {
      const slice = plain.slice(i, i + 100);
      out.push(...(await findInFolder(f, `{${slice.flatMap((r) => [r, `${r}/**`]).join(',')}}`, mode, folderRules(f, mode, false))));
    }
    if (rest.length === 0) return out;
  }
  const rules = folderRules(f, mode, true);
  for (const rel of rest) {
    if (rules.fileIgnored(rel)) continue;
    let st: vscode.FileStat;
    try {
      st = await vscode.workspace.fs.stat(vscode.Uri.joinPath(f.uri, rel));
    } catch {
      continue; // gone again
    }
    if (st.type & vscode.FileType.SymbolicLink) continue;
    if (st.type & vscode.FileType.File) out.push(rel);
    else if (st.type & vscode.FileType.Directory && !rules.dirIgnored(rel)) out.push(...(await walk(f, rel, rules)));
  }
  return out;
}

async function findInFolder(f: FolderRoot, pattern: string, mode: ListingMode, rules: IgnoreRules, token?: vscode.CancellationToken): Promise<string[]> {
  const search = mode.excludes ? excludeGlobs(f.uri).search : [];
  // undefined: VS Code applies files.exclude; null: nothing is excluded (scope `global`). A glob
  // here would not stop files.exclude from applying (measured in code-server), so `.git/` is
  // dropped below instead.
  const exclude = !mode.excludes ? null : search.length ? `{${search.join(',')}}` : undefined;
  const uris = await vscode.workspace.findFiles(new vscode.RelativePattern(f.uri, pattern), exclude, undefined, token);
  const base = f.uri.path.endsWith('/') ? f.uri.path : f.uri.path + '/';
  const out: string[] = [];
  for (const u of uris) {
    if (!u.path.startsWith(base)) continue;
    const rel = u.path.slice(base.length);
    if (mode.excludes && rules.fileIgnored(rel)) continue;
    // The repository's own database is no file anyone references, and its config may hold
    // credentials: never listed, also in scope `global` (the Node listing drops it too; decision 636).
    if (inVcsFolder(rel)) continue;
    out.push(rel);
  }
  return withoutSymlinkedDirs(f.root, out);
}

async function walk(f: FolderRoot, start: string, rules: IgnoreRules, token?: vscode.CancellationToken): Promise<string[]> {
  const out: string[] = [];
  const queue: { rel: string; depth: number }[] = [{ rel: start, depth: 0 }];
  while (queue.length > 0 && out.length < MAX_WALK_FILES && !token?.isCancellationRequested) {
    const dir = queue.shift()!;
    let entries: [string, vscode.FileType][];
    try {
      entries = await vscode.workspace.fs.readDirectory(dir.rel ? vscode.Uri.joinPath(f.uri, dir.rel) : f.uri);
    } catch {
      continue; // unreadable: skipped, like a walk on disk
    }
    for (const [name, type] of entries) {
      const rel = dir.rel ? `${dir.rel}/${name}` : name;
      if (type & vscode.FileType.SymbolicLink) continue;
      if (type & vscode.FileType.Directory) {
        if (dir.depth < MAX_WALK_DEPTH && !rules.dirIgnored(rel)) queue.push({ rel, depth: dir.depth + 1 });
      } else if (type & vscode.FileType.File && !rules.fileIgnored(rel)) {
        out.push(rel);
      }
    }
  }
  return out;
}
