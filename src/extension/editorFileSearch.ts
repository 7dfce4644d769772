// §16.1 file search in the editor (issue 13): the @ picker's list of files comes from VS Code
// (folderListing.ts: its file search, files.exclude, search.exclude, ignore files per
// search.useIgnoreFiles), stays live through the file backend's change feed (VS Code's watcher and
// document events — the one source of changes in the editor), and is ranked by our own fuzzy
// matcher (FileIndex / WorkspaceSearch). Changed settings re-list the folders: a file hidden by
// files.exclude comes back when the entry is removed, without a reload.
import * as vscode from 'vscode';
import type { PayloadOf } from '../protocol/frameTypes';
import type { FsChange } from '../workspace/fsBackend';
import { FileIndex, type Folder } from '../workspace/fileIndex';
import { WorkspaceSearch } from '../workspace/workspaceSearch';
import { listFolder, visibleAmong, type ListingMode } from './folderListing';
import { settings } from './settings';
import { openEditorPaths } from './openEditorPaths';
import type { VscodeFsBackend } from './vscodeFsBackend';
import type { FolderRoot } from './workspaceRoots';
import { inVcsFolder } from '../workspace/vcsFolders';

/** Settings whose change re-lists every folder. */
const LISTING_SETTINGS = ['files.exclude', 'search.exclude', 'search.useIgnoreFiles'];
const IGNORE_FILE = /(^|\/)\.(git|)ignore$|(^|\/)\.git\/info\/exclude$/;

/** One live index over the backend's folders in one listing mode. */
export class EditorFileIndex implements vscode.Disposable {
  private readonly subscriptions: vscode.Disposable[] = [];
  private chain: Promise<void> = Promise.resolve();
  private disposed = false;

  private constructor(
    readonly index: FileIndex,
    private readonly backend: VscodeFsBackend,
    private readonly mode: ListingMode,
  ) {
    const feed = backend.watch((changes) => this.enqueue(() => this.apply(changes)));
    this.subscriptions.push(
      { dispose: () => feed.dispose() },
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (LISTING_SETTINGS.some((s) => e.affectsConfiguration(s))) this.enqueue(() => this.relistAll());
      }),
    );
  }

  static async open(backend: VscodeFsBackend, mode: ListingMode): Promise<EditorFileIndex> {
    const lists = await Promise.all(
      backend.folders.map(async (f) => ({ root: f.root, paths: await listFolder(f, mode), statFile: (rel: string) => statIn(f, rel) })),
    );
    return new EditorFileIndex(await FileIndex.fromListed(lists), backend, mode);
  }

  /** Resolves once every change and re-listing handed in so far is applied (tests). */
  settled(): Promise<void> {
    return this.chain;
  }

  private enqueue(step: () => Promise<void>): void {
    const guarded = () => (this.disposed ? Promise.resolve() : step().catch(() => undefined));
    this.chain = this.chain.then(guarded, guarded);
  }

  private async apply(changes: readonly FsChange[]): Promise<void> {
    const created = new Map<Folder, string[]>();
    const relist = new Set<Folder>();
    for (const c of changes) {
      const at = this.index.locate(c.path);
      if (!at || at.rel === '') continue;
      if (IGNORE_FILE.test(at.rel)) relist.add(at.folder);
      if (inVcsFolder(at.rel)) continue;
      if (c.kind === 'deleted') {
        at.folder.index.apply([{ kind: 'remove', path: at.rel }]);
        at.folder.recency?.mtimes.delete(at.rel);
      } else if (c.kind === 'created') {
        created.set(at.folder, [...(created.get(at.folder) ?? []), at.rel]);
      } else if (at.folder.index.has(at.rel)) {
        // A change (a save, or typing in an open document) only makes the file recent. A change
        // to a path the index does not list is one the listing hides: no search per keystroke.
        at.folder.recency?.mtimes.set(at.rel, Date.now());
      }
    }
    for (const [folder, rels] of created) {
      const root = this.rootOf(folder);
      if (!root || relist.has(folder)) continue;
      const visible = await visibleAmong(root, rels, this.mode);
      const now = Date.now();
      folder.index.apply(visible.map((path) => ({ kind: 'addFile', path })));
      for (const p of visible) folder.recency?.mtimes.set(p, now);
    }
    for (const folder of relist) await this.relist(folder);
  }

  private async relistAll(): Promise<void> {
    for (const folder of this.index.folders) await this.relist(folder);
  }

  private async relist(folder: Folder): Promise<void> {
    const root = this.rootOf(folder);
    if (!root) return;
    const paths = await listFolder(root, this.mode);
    if (!this.disposed) await folder.index.replaceAll(paths);
  }

  private rootOf(folder: Folder): FolderRoot | undefined {
    return this.backend.folders.find((f) => f.root === folder.root);
  }

  dispose(): void {
    this.disposed = true;
    for (const s of this.subscriptions.splice(0)) s.dispose();
    this.index.dispose();
  }
}

async function statIn(f: FolderRoot, rel: string): Promise<{ size: number; mtimeMs: number } | undefined> {
  try {
    const st = await vscode.workspace.fs.stat(vscode.Uri.joinPath(f.uri, rel));
    return { size: st.size, mtimeMs: st.mtime };
  } catch {
    return undefined;
  }
}

/**
 * The editor's §16.1 search: opened on first use over the current backend's folders, opened again
 * when the backend changes (workspace folders added or removed).
 */
export class EditorFileSearch implements vscode.Disposable {
  private current?: { backend: VscodeFsBackend; search: Promise<{ search: WorkspaceSearch; index: EditorFileIndex; global?: Promise<EditorFileIndex> }> };

  private readonly settingWatch: vscode.Disposable;

  constructor(private readonly backend: () => VscodeFsBackend) {
    // "Include ignored files" changed: the next search opens the index again with the new listing.
    this.settingWatch = vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('rawp.search.includeIgnored')) this.disposeCurrent();
    });
  }

  /** Is an index open, or being opened, for the current folders? */
  get isOpen(): boolean {
    return this.current !== undefined && this.current.backend === this.backend();
  }

  /** The open index (tests wait on `settled()`), opening it if needed. */
  async index(): Promise<EditorFileIndex> {
    return (await this.open()).index;
  }

  private open() {
    const backend = this.backend();
    if (this.current?.backend !== backend) {
      this.disposeCurrent();
      const opened = EditorFileIndex.open(backend, { excludes: true, includeIgnored: settings.includeIgnored() }).then((index) => {
        const state: { search: WorkspaceSearch; index: EditorFileIndex; global?: Promise<EditorFileIndex> } = {
          index,
          search: new WorkspaceSearch(index.index, {
            folders: true,
            openFiles: openEditorPaths,
            openGlobal: async () => (await (state.global ??= EditorFileIndex.open(backend, { excludes: false }))).index,
          }),
        };
        return state;
      });
      this.current = { backend, search: opened };
      opened.catch(() => {
        if (this.current?.search === opened) this.current = undefined;
      });
    }
    return this.current!.search;
  }

  /** `lane`: the master that sent it (decision 558: only its own newer searches stop this one). */
  readonly run = async (query: PayloadOf<'control.file.search'>, signal: AbortSignal, lane?: string): Promise<PayloadOf<'session.file.candidates'>> => {
    const token = { cancelled: signal.aborted };
    signal.addEventListener('abort', () => (token.cancelled = true), { once: true });
    const body = await (await this.open()).search.run(query, token, lane);
    return { query_id: query.query_id, candidates: body?.candidates ?? [], total_count: body?.total_count ?? 0, truncated: body?.truncated ?? false };
  };

  private disposeCurrent(): void {
    const old = this.current;
    this.current = undefined;
    void old?.search.then((s) => {
      s.index.dispose();
      void s.global?.then((g) => g.dispose());
    }, () => undefined);
  }

  dispose(): void {
    this.settingWatch.dispose();
    this.disposeCurrent();
  }
}
