// The workspace file index: one FolderIndex per workspace folder, filled from git or a walk,
// kept live by a change feed (FsBackend.watch, or the Node watcher in nodeWatcher.ts), with lazily
// loaded modification times for "recently modified" (the empty query of §16.1.1).
//
//   const index = await FileIndex.open({ roots: ['/repo'] });
//   index.attach((listener) => backend.watch(listener));   // or watchTree(root, …)
//   … searchFiles(index, request) …
//   index.dispose();
//
// Change batches: created paths are lstat-ed first (file? directory? symlink escaping the
// workspace?) and then applied in one synchronous step. A change to an ignore file re-lists the
// folder in the background. The ignore checks of a batch read and compile the rules of each folder
// they reach in steps and run between event-loop turns that all of them share: a batch touches
// many folders, and each folder's rules may cost tens of milliseconds (decision 733).
import { promises as fsp, realpathSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { rootNames } from './rootNames';
import { knownMtimes, type RecencyState } from './recency';
import { isVcsFolder } from './vcsFolders';
import type { Disposable, FsChange } from './fsBackend';
import { FolderIndex, type FolderChange, type FolderIndexOptions } from './folderIndex';
import { IgnoreRules, IGNORE_FILES } from './ignoreRules';
import { isCaseSensitiveFs, isInside, listFiles } from './listFiles';
import { leavesRoot } from './leavesRoot';

export interface FileIndexOptions extends FolderIndexOptions {
  /** Absolute paths of the workspace folders; the first is the session's own ("project"). */
  roots: readonly string[];
  /** Default: probed on the first root. */
  caseSensitive?: boolean;
  /** Extra globs to hide (VS Code `files.exclude` + `search.exclude`). */
  extraExcludes?: readonly string[];
  /** false: list ignored files too (used for scope `global`). */
  useIgnoreFiles?: boolean;
  /** The setting "include ignored files" (decision 363): ignore files hide nothing; git still lists. */
  includeIgnored?: boolean;
  /** Do not use git (tests). */
  noGit?: boolean;
}

export interface Folder {
  root: string;
  rootReal: string;
  /** Name used to prefix paths when there are several folders. */
  name: string;
  index: FolderIndex;
  rules: IgnoreRules;
  /** `editor`: listed and kept live by the editor (VS Code's file search and watcher). */
  source: 'git' | 'walk' | 'memory' | 'editor';
  /** Modification times for "recently modified" (recency.ts): undefined until first needed. */
  recency?: RecencyState;
  /** Size and mtime of a path, where the folder is not on the local disk (the editor's file system API). */
  statFile?: (rel: string) => Promise<{ size: number; mtimeMs: number } | undefined>;
}

/** A folder listed by someone else (the editor): its root path string, paths, and how to stat them. */
export interface ListedFolder {
  root: string;
  paths: readonly string[];
  statFile: (rel: string) => Promise<{ size: number; mtimeMs: number } | undefined>;
}

export class FileIndex {
  private readonly subscriptions: Disposable[] = [];
  private disposed = false;
  /** Resolves when every change handed to `applyChanges` so far is applied. */
  private pending: Promise<void> = Promise.resolve();
  /** Folders whose ignore files changed in the current batch (re-listed after it). */
  private relists = new Set<Folder>();

  private constructor(
    readonly folders: Folder[],
    readonly options: FileIndexOptions,
  ) {}

  static async open(options: FileIndexOptions): Promise<FileIndex> {
    if (options.roots.length === 0) throw new Error('FileIndex needs at least one workspace folder');
    const caseSensitive = options.caseSensitive ?? isCaseSensitiveFs(options.roots[0]);
    const opts = { ...options, caseSensitive };
    const names = rootNames(options.roots);
    const folders = await Promise.all(
      options.roots.map(async (root, i): Promise<Folder> => {
        const listing = await listFiles(root, { caseSensitive, extraExcludes: options.extraExcludes, useIgnoreFiles: options.useIgnoreFiles, noGit: options.noGit, includeIgnored: options.includeIgnored });
        return {
          root,
          rootReal: realpathSync(root),
          name: names[i],
          index: await FolderIndex.create(listing.paths, options),
          rules: new IgnoreRules(root, { caseSensitive, extraExcludes: options.extraExcludes, useIgnoreFiles: options.useIgnoreFiles !== false && !options.includeIgnored }),
          source: listing.source,
        };
      }),
    );
    return new FileIndex(folders, opts);
  }

  /** An index over given path lists (benchmarks, tests): no disk behind it. */
  static fromPaths(lists: readonly { name: string; paths: readonly string[] }[], options: FolderIndexOptions = {}): FileIndex {
    const folders = lists.map(
      (l): Folder => ({
        root: `/${l.name}`,
        rootReal: `/${l.name}`,
        name: l.name,
        index: new FolderIndex(l.paths, options),
        rules: new IgnoreRules(`/${l.name}`, { caseSensitive: true, useIgnoreFiles: false }),
        source: 'memory',
      }),
    );
    return new FileIndex(folders, { roots: folders.map((f) => f.root), ...options });
  }

  /**
   * The same, built the way the product builds (each folder's snapshot in slices of a few ms, so a
   * 460k-path folder never blocks the event loop for long): what the benchmark measures.
   */
  static async fromPathsAsync(lists: readonly { name: string; paths: readonly string[] }[], options: FolderIndexOptions = {}): Promise<FileIndex> {
    const folders = await Promise.all(
      lists.map(
        async (l): Promise<Folder> => ({
          root: `/${l.name}`,
          rootReal: `/${l.name}`,
          name: l.name,
          index: await FolderIndex.create(l.paths, options),
          rules: new IgnoreRules(`/${l.name}`, { caseSensitive: true, useIgnoreFiles: false }),
          source: 'memory',
        }),
      ),
    );
    return new FileIndex(folders, { roots: folders.map((f) => f.root), ...options });
  }

  /** An index over folders the editor lists and keeps live itself (src/extension, issue 13), built in the background. */
  static async fromListed(lists: readonly ListedFolder[], options: FolderIndexOptions = {}): Promise<FileIndex> {
    const names = rootNames(lists.map((l) => l.root));
    const folders = await Promise.all(
      lists.map(
        async (l, i): Promise<Folder> => ({
          root: l.root,
          rootReal: l.root,
          name: names[i],
          index: await FolderIndex.create(l.paths, options),
          rules: new IgnoreRules(l.root, { caseSensitive: true, useIgnoreFiles: false }),
          source: 'editor',
          statFile: l.statFile,
        }),
      ),
    );
    return new FileIndex(folders, { roots: folders.map((f) => f.root), ...options });
  }

  /** Subscribes to a change feed (`FsBackend.watch` has exactly this shape). */
  attach(subscribe: (listener: (changes: FsChange[]) => void) => Disposable): void {
    this.subscriptions.push(subscribe((changes) => void this.applyChanges(changes)));
  }

  /** Resolves once all changes handed in so far are applied (tests, and callers that just wrote). */
  settled(): Promise<void> {
    return this.pending;
  }

  /** The folder an absolute path belongs to, with its relative path. */
  locate(path: string): { folder: Folder; rel: string } | undefined {
    for (const folder of this.folders) {
      const abs = isAbsolute(path) ? path : join(folder.root, path);
      for (const base of [folder.root, folder.rootReal]) {
        const rel = relative(base, abs);
        if (rel && !leavesRoot(rel)) return { folder, rel: rel.split(sep).join('/') };
      }
    }
    return undefined;
  }

  /** Applies a watcher batch. Ordered: batches apply in the order they arrive. */
  applyChanges(changes: readonly FsChange[]): Promise<void> {
    const run = async (): Promise<void> => {
      if (this.disposed) return;
      const perFolder = new Map<Folder, FolderChange[]>();
      const push = (f: Folder, c: FolderChange): void => {
        const list = perFolder.get(f);
        if (list) list.push(c);
        else perFolder.set(f, [c]);
      };
      // Look at the disk first (async), then apply everything in one synchronous step.
      const looked = await Promise.all(
        changes.map(async (change) => {
          const at = this.locate(change.path);
          if (!at) return undefined;
          const parts = at.rel.split('/');
          if (parts.some(isVcsFolder)) {
            if (at.rel.endsWith('.git/info/exclude')) this.relists.add(at.folder);
            return undefined;
          }
          if ((IGNORE_FILES as readonly string[]).includes(parts[parts.length - 1])) this.relists.add(at.folder);
          if (change.kind === 'deleted') return { at, changes: [{ kind: 'remove', path: at.rel }] as FolderChange[] };
          return { at, changes: await this.inspect(at.folder, at.rel, change.kind === 'created') };
        }),
      );
      const now = Date.now();
      for (const item of looked) {
        if (!item) continue;
        for (const c of item.changes) {
          push(item.at.folder, c);
          if (c.kind === 'addFile') item.at.folder.recency?.mtimes.set(c.path, now);
          else item.at.folder.recency?.mtimes.delete(c.path);
        }
      }
      for (const [folder, list] of perFolder) folder.index.apply(list);
      if (this.relists.size) {
        const folders = [...this.relists];
        this.relists.clear();
        await Promise.all(folders.map((f) => this.relist(f)));
      }
    };
    // A failing batch (e.g. a re-list that cannot read the folder) must not break the chain or
    // surface as an unhandled rejection: the index keeps what it has and later batches still apply.
    const guarded = (): Promise<void> => run().catch(() => undefined);
    this.pending = this.pending.then(guarded, guarded);
    return this.pending;
  }

  /** What a created/changed path means for the index. */
  private async inspect(folder: Folder, rel: string, created: boolean): Promise<FolderChange[]> {
    const abs = join(folder.root, rel);
    let st;
    try {
      st = await fsp.lstat(abs);
    } catch {
      return [{ kind: 'remove', path: rel }]; // gone again before we looked
    }
    if (st.isDirectory()) {
      if (!created || (await folder.rules.dirIgnoredInTurns(rel))) return [];
      // A directory moved in: list it (walk with the same rules).
      const listing = await listFiles(abs, { caseSensitive: this.options.caseSensitive ?? true, noGit: true, useIgnoreFiles: this.options.useIgnoreFiles, includeIgnored: this.options.includeIgnored, extraExcludes: [] });
      const added: FolderChange[] = [];
      for (const p of listing.paths) if (!(await folder.rules.fileIgnoredInTurns(`${rel}/${p}`))) added.push({ kind: 'addFile', path: `${rel}/${p}` });
      return added;
    }
    if (await folder.rules.fileIgnoredInTurns(rel)) return [];
    if (st.isSymbolicLink()) {
      try {
        const target = await fsp.realpath(abs);
        if (!isInside(folder.rootReal, target) || !(await fsp.stat(target)).isFile()) return [{ kind: 'remove', path: rel }];
      } catch {
        return [{ kind: 'remove', path: rel }];
      }
    } else if (!st.isFile()) {
      return [];
    }
    return folder.index.has(rel) && !created ? [] : [{ kind: 'addFile', path: rel }];
  }

  private async relist(folder: Folder): Promise<void> {
    if (folder.source === 'memory' || folder.source === 'editor') return;
    folder.rules.reset();
    const listing = await listFiles(folder.root, {
      caseSensitive: this.options.caseSensitive ?? true,
      extraExcludes: this.options.extraExcludes,
      useIgnoreFiles: this.options.useIgnoreFiles,
      noGit: this.options.noGit,
      includeIgnored: this.options.includeIgnored,
    });
    if (!this.disposed) await folder.index.replaceAll(listing.paths);
  }

  /**
   * Modification times of a folder's paths known so far (recency.ts): the first call starts
   * stat-ing every path in the background; each call waits for that at most `waitMs`, after
   * stat-ing `first` (the files the user has open).
   */
  recency(folder: Folder, options: { waitMs: number; first?: readonly string[]; statTimeoutMs?: number }): Promise<{ mtimes: Map<string, number>; complete: boolean }> {
    const state = (folder.recency ??= { mtimes: new Map(), complete: false });
    const stat = async (p: string) => (folder.statFile ? (await folder.statFile(p))?.mtimeMs : (await fsp.stat(join(folder.root, p))).mtimeMs);
    return knownMtimes(state, () => folder.index.allPaths(), stat, options);
  }

  dispose(): void {
    this.disposed = true;
    for (const s of this.subscriptions.splice(0)) s.dispose();
    for (const f of this.folders) f.index.dispose();
  }
}

