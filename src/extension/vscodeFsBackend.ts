// The VS Code FsBackend (issue 13): every workspace folder, of any URI scheme, through
// `vscode.workspace.fs` (stat, readDirectory, readFile, writeFile, delete), with the editor's open
// documents folded in:
//  - a dirty document's text IS the file for reads and versions (versionOfTextAsync, the hash the Node
//    backend uses), so a person's unsaved typing changes the version and a guarded write made from
//    an older read fails with FS_STALE_VERSION — the agent never overwrites it unread;
//  - writes to an open document go through a WorkspaceEdit (the person can undo them); a document
//    that was clean is saved afterwards, a dirty one stays dirty (we never save someone's typing).
// Versions are content-addressed like the Node backend's (same bytes, same version), so the
// ledger's verdicts are the same on both (test/vscode/contract/fsBackendContract.ts). The same
// refusals as the hardened Node backend: a symlink anywhere on the way (VS Code's stat marks it),
// paths outside the folders, and edits of files that are not UTF-8 (FS_NOT_TEXT).
// Times for Glob's order read no content (decision 587, vscodeTimes.ts).
// Changes come from VS Code's own watcher and document events (no Node watcher in the editor):
// they feed `watch()` and drop cached versions (docs/decisions/221).
import * as vscode from 'vscode';
import { notTextError, textFileOf } from '../workspace/textOnlyWrites';
import { isAbsolute, posix, resolve } from 'node:path';
import { changedMeanwhileError, FsError, notFoundError, staleVersionError, unreadFileError, type Disposable, type FsBackend, type FsChange, type FsDirEntry, type FsEntryType, type FsStat, type FsTextFile, type FsTime, type FsVersion, type FsWriteResult, type WriteGuard, type WriteOptions } from '../workspace/fsBackend';
import { encodeUtf8InTurns, nextTurn } from '../workspace/bytesInTurns';
import { versionOfBytesAsync, versionOfText, versionOfTextAsync, VersionCache } from '../workspace/fileVersion';
import { editLineEnding, lineEndingOf, withBom, withLineEnding } from '../workspace/lineEndings';
import { PathLocks } from '../workspace/pathLocks';
import { realNamesOf, underRoot, type RootAlias } from '../workspace/rootAliases';
import { TEMP_MARK } from '../workspace/atomicWrite';
import { folderRoots, locateIn, pathOfUri, type FolderRoot } from './workspaceRoots';
import { toFsError } from './vscodeFsErrors';
import { vscodeTextPrefix, type TextPrefix } from './vscodeTextPrefix';
import { vscodeTimes } from './vscodeTimes';

export interface VscodeFsBackendOptions {
  /** Absolute `file:` paths outside the folders (the user's setting; symlinks stay refused). */
  allowOutsideRoots?: boolean;
}

/** Texts above this size yield the event loop between the steps of an update. */
const YIELD_ABOVE_CHARS = 1_000_000;

interface Target {
  abs: string;
  uri: vscode.Uri;
  /** The folder's URI, or undefined for an allowed outside path (walked from '/'). */
  base: vscode.Uri | undefined;
  rel: string;
}

export class VscodeFsBackend implements FsBackend, Disposable {
  readonly roots: readonly string[];
  /** The real paths of `file:` folders opened through a symlink, taken as the same paths (decision 723). */
  readonly rootAliases: readonly RootAlias[];
  readonly folders: readonly FolderRoot[];
  /** One write per path at a time: check, transform and apply cannot interleave. */
  private readonly locks = new PathLocks();
  private readonly versions = new VersionCache();
  private readonly listeners = new Set<(changes: FsChange[]) => void>();
  private readonly subscriptions: vscode.Disposable[] = [];
  private pending: FsChange[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    folderUris: readonly vscode.Uri[],
    private readonly options: VscodeFsBackendOptions = {},
  ) {
    if (folderUris.length === 0) throw new Error('VscodeFsBackend needs at least one workspace folder');
    this.folders = folderRoots(folderUris);
    this.roots = this.folders.map((f) => f.root);
    this.rootAliases = realNamesOf(this.folders.filter((f) => f.uri.scheme === 'file').map((f) => f.root));
    // One source of changes: VS Code's watcher on every folder (any scheme: a provider's
    // onDidChangeFile reaches it) and the documents' events (unsaved typing changes versions).
    for (const f of this.folders) {
      const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(f.uri, '**'));
      this.subscriptions.push(
        w,
        w.onDidCreate((u) => this.changed('created', u)),
        w.onDidChange((u) => this.changed('changed', u)),
        w.onDidDelete((u) => this.changed('deleted', u)),
      );
    }
    this.subscriptions.push(vscode.workspace.onDidChangeTextDocument((e) => e.contentChanges.length > 0 && this.changed('changed', e.document.uri)));
  }

  /** The path string of a URI inside the folders (for the index and tests), else undefined. */
  pathOf(uri: vscode.Uri): string | undefined {
    return pathOfUri(this.folders, uri);
  }

  /** The URI of a path inside the folders. Throws FS_OUTSIDE_WORKSPACE like every call. */
  uriOf(path: string): vscode.Uri {
    return this.target(path).uri;
  }

  // Reads and stats of a file wait for our own write of it (the path lock): `workspace.fs.writeFile`
  // truncates the file and then writes it, so a read in between saw zero bytes or a part, and
  // hashed them as the file's version (decision 535).
  async stat(path: string): Promise<FsStat | undefined> {
    const t = this.target(path);
    return this.locks.run(t.uri.toString(), () => this.statNow(t));
  }

  private async statNow(t: Target): Promise<FsStat | undefined> {
    let st: vscode.FileStat | undefined;
    try {
      st = await this.checked(t, true);
    } catch (e) {
      if (e instanceof FsError && e.code === 'FS_NOT_FOUND') return undefined;
      throw e;
    }
    if (!st) return undefined;
    const type = entryType(st.type);
    const doc = this.dirtyDocument(t.uri);
    if (doc && type === 'file') {
      const text = doc.getText();
      return { type, size: Buffer.byteLength(text, 'utf8'), mtimeMs: st.mtime, version: await versionOfTextAsync(text) };
    }
    let version: FsVersion;
    if (type === 'file') version = await this.fileVersion(t, st);
    else if (type === 'symlink') version = versionOfText(`symlink:${st.size}:${st.mtime}`);
    else version = `d:${st.mtime}:${st.ctime}` as FsVersion;
    return { type, size: st.size, mtimeMs: st.mtime, version };
  }

  /** Types and times without content (decision 587): no path lock, nothing is read (vscodeTimes.ts). */
  async times(paths: readonly string[], signal?: AbortSignal): Promise<(FsTime | undefined)[]> {
    const targets = paths.map((p) => this.target(p)); // outside paths refused before any stat
    return vscodeTimes(targets, (dir) => this.checked(this.target(dir), false), signal);
  }

  async readText(path: string): Promise<FsTextFile> {
    const t = this.target(path);
    return this.locks.run(t.uri.toString(), () => this.readTextNow(t));
  }

  private async readTextNow(t: Target): Promise<FsTextFile> {
    const st = await this.checked(t, false);
    if (!st) throw notFoundError(t.abs);
    if (st.type & vscode.FileType.Directory) throw new FsError(`"${t.abs}" is a directory`, 'FS_IS_DIRECTORY');
    const doc = this.dirtyDocument(t.uri);
    if (doc) {
      const text = doc.getText();
      return { text, version: await versionOfTextAsync(text) };
    }
    const bytes = await this.readBytes(t);
    // Hashed in turns (bytesInTurns.ts), not in the decode's block.
    const text = decode(bytes);
    return textFileOf(bytes, text, await versionOfBytesAsync(bytes));
  }

  /** The start of a file's text: no further than `limit` on the disk, a virtual folder's file whole up to 16 MiB (vscodeTextPrefix.ts). */
  async readTextPrefix(path: string, limit: number): Promise<TextPrefix> {
    const t = this.target(path);
    return this.locks.run(t.uri.toString(), () => vscodeTextPrefix(t, limit, { checked: () => this.checked(t, false), dirty: () => this.dirtyDocument(t.uri), whole: () => this.readBytes(t) }));
  }

  async list(dir: string): Promise<FsDirEntry[]> {
    const t = this.target(dir);
    const st = await this.checked(t, false);
    if (!st) throw notFoundError(t.abs);
    let entries: [string, vscode.FileType][];
    try {
      entries = await vscode.workspace.fs.readDirectory(t.uri);
    } catch (e) {
      throw toFsError(e, t.abs);
    }
    return entries
      .filter(([name]) => !name.includes(TEMP_MARK))
      .map(([name, type]): FsDirEntry => ({ name, type: entryType(type) }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  writeText(path: string, text: string, guard: WriteGuard, options: WriteOptions = {}): Promise<FsWriteResult> {
    return this.update(path, guard, () => text, false, options.exact === true, true);
  }

  updateText(path: string, guard: WriteGuard, transform: (current: string) => string | Promise<string>): Promise<FsWriteResult> {
    return this.update(path, guard, transform, true);
  }

  async delete(path: string): Promise<void> {
    const t = this.target(path);
    await this.locks.run(t.uri.toString(), async () => {
      const st = await this.checked(t, true);
      if (!st) throw notFoundError(t.abs);
      if (st.type & vscode.FileType.SymbolicLink) throw new FsError(`refusing to delete through the symlink "${t.abs}"`, 'FS_OUTSIDE_WORKSPACE');
      if (st.type & vscode.FileType.Directory) throw new FsError(`"${t.abs}" is a directory`, 'FS_IS_DIRECTORY');
      try {
        await vscode.workspace.fs.delete(t.uri, { recursive: false, useTrash: false });
      } catch (e) {
        throw toFsError(e, t.abs);
      }
      this.versions.forget(t.uri.toString());
    });
  }

  watch(listener: (changes: FsChange[]) => void): Disposable {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const s of this.subscriptions.splice(0)) s.dispose();
    this.listeners.clear();
  }

  // ---------------------------------------------------------------------------------------------

  private changed(kind: FsChange['kind'], uri: vscode.Uri): void {
    this.versions.forget(uri.toString());
    const path = this.pathOf(uri);
    if (!path || path.includes(TEMP_MARK) || this.listeners.size === 0) return;
    this.pending.push({ kind, path });
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      const batch: FsChange[] = [];
      for (const c of this.pending.splice(0)) {
        const i = batch.findIndex((b) => b.path === c.path);
        if (i >= 0) batch.splice(i, 1);
        batch.push(c); // the last word about a path wins (created then deleted = deleted)
      }
      for (const l of this.listeners) l(batch);
    }, 25);
  }

  private async update(path: string, guard: WriteGuard, transform: (current: string) => string | Promise<string>, mustExist: boolean, exact = false, wholeFile = false): Promise<FsWriteResult> {
    const t = this.target(path);
    return this.locks.run(t.uri.toString(), async () => {
      const st = await this.checked(t, true);
      if (st && st.type & vscode.FileType.SymbolicLink) throw new FsError(`refusing to write through the symlink "${t.abs}"`, 'FS_OUTSIDE_WORKSPACE');
      if (st && st.type & vscode.FileType.Directory) throw new FsError(`"${t.abs}" is a directory`, 'FS_IS_DIRECTORY');
      const doc = this.openDocument(t.uri);
      const wasDirty = doc?.isDirty === true;
      const beforeBytes = st ? await this.readBytes(t) : undefined;
      // A clean document shows the disk: the disk's bytes and version are the truth.
      const exists = beforeBytes !== undefined || wasDirty;
      const currentText = wasDirty ? doc!.getText() : beforeBytes ? decode(beforeBytes) : '';
      const currentVersion = wasDirty ? await versionOfTextAsync(currentText) : beforeBytes ? await versionOfBytesAsync(beforeBytes) : undefined;
      if (guard.kind === 'replaceIfVersion' && currentVersion !== guard.version) {
        if (wasDirty && currentVersion !== undefined) throw new FsError(`"${t.abs}" has unsaved changes in the editor that were not read; read it again before editing`, 'FS_STALE_VERSION');
        throw staleVersionError(t.abs, currentVersion === undefined);
      }
      if (guard.kind === 'createIfAbsent' && (exists || doc)) throw unreadFileError(t.abs);
      if (mustExist && !exists) throw notFoundError(t.abs);
      // Only text is written over (textOnlyWrites.ts); an exact write (a checkpoint restore)
      // replaces the bytes wholesale: nothing is decoded.
      const notText = beforeBytes && !exact ? notTextError(t.abs, beforeBytes) : undefined;
      if (notText) throw notText;
      // Big files: each linear step gets its own event-loop turn, and hashing and encoding are
      // sliced into turns (as in the Node backend), so a 20 MB edit never holds the extension
      // host's loop for the whole of it.
      const big = currentText.length > YIELD_ABOVE_CHARS;
      if (big) await nextTurn();
      // A whole-file write keeps the file's byte order mark (as the Node backend does).
      const produced = withBom(await transform(currentText), wholeFile && !exact && currentText.startsWith('\ufeff'));
      this.versions.forget(t.uri.toString());
      if (doc) return this.editDocument(doc, t, wasDirty, currentText, produced, exact);
      if (big) await nextTurn();
      // Keep the file's own line-ending style: text written over a CRLF file stays CRLF. An edit
      // of a file of mixed endings kept each line's own, and is written as it is (decision 704).
      const style = beforeBytes && !exact ? (wholeFile ? lineEndingOf(currentText) : editLineEnding(currentText)) : undefined;
      if (big) await nextTurn();
      const after = withLineEnding(produced, style);
      if (big) await nextTurn();
      const afterBytes = await encodeUtf8InTurns(after);
      // Another program wrote the file since our stat (decision 595): writing now would drop its
      // bytes. workspace.fs has no compare-and-swap; this narrows the window to one stat's time.
      if (st && !sameFileState(st, await this.statOrUndefined(t.uri, t.abs))) {
        throw changedMeanwhileError(t.abs);
      }
      try {
        await vscode.workspace.fs.writeFile(t.uri, afterBytes); // creates missing parent folders
      } catch (e) {
        throw toFsError(e, t.abs);
      }
      return { before: currentText, after, version: await versionOfBytesAsync(afterBytes), created: !beforeBytes };
    });
  }

  /**
   * Through the editor, so the person can undo it. `exact` (a checkpoint restore): the document
   * takes the text's own line breaks and is saved even when it was dirty — the person chose to
   * restore over their typing, which stays in the undo history — so the disk has the restored bytes.
   */
  private async editDocument(doc: vscode.TextDocument, t: Target, wasDirty: boolean, before: string, after: string, exact = false): Promise<FsWriteResult> {
    const edit = new vscode.WorkspaceEdit();
    const edits = [vscode.TextEdit.replace(new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), after)];
    const style = exact ? lineEndingOf(after) : undefined;
    if (style) edits.push(vscode.TextEdit.setEndOfLine(style === 'crlf' ? vscode.EndOfLine.CRLF : vscode.EndOfLine.LF));
    edit.set(doc.uri, edits);
    if (!(await vscode.workspace.applyEdit(edit))) throw new FsError(`the editor refused the edit of ${t.abs}`, 'FS_IO');
    if ((!wasDirty || exact) && !(await doc.save())) throw new FsError(`the editor could not save ${t.abs}`, 'FS_IO');
    if (exact) wasDirty = false;
    const text = doc.getText();
    const version = wasDirty ? await versionOfTextAsync(text) : await versionOfBytesAsync(await this.readBytes(t));
    return { before, after: text, version, created: false };
  }

  /**
   * Resolves a path to its folder and URI, refusing what leaves the folders (`..`, absolute paths
   * elsewhere — unless the user allows outside paths, which are `file:` only).
   */
  private target(path: string): Target {
    if (typeof path !== 'string' || path.length === 0 || path.includes('\0')) throw new FsError(`invalid path ${JSON.stringify(path)}`, 'FS_OUTSIDE_WORKSPACE');
    const abs = underRoot(isAbsolute(path) ? resolve(path) : resolve(this.roots[0], path), this.roots, this.rootAliases);
    const at = locateIn(this.folders, abs);
    if (!at) {
      if (!this.options.allowOutsideRoots) throw new FsError(`"${path}" is outside the workspace (${this.roots.join(', ')})`, 'FS_OUTSIDE_WORKSPACE');
      return { abs, uri: vscode.Uri.file(abs), base: undefined, rel: abs.replace(/^\/+/, '') };
    }
    const base = at.folder.uri;
    const uri = at.rel === '' ? base : base.scheme === 'file' ? vscode.Uri.file(abs) : base.with({ path: posix.join(base.path, at.rel) });
    return { abs, uri, base, rel: at.rel };
  }

  /**
   * Walks from the folder down to the target with VS Code's stat: any symlink on the way is
   * refused (it could point anywhere), the target itself only when `leafMayBeLink` is false.
   * Returns the target's stat, or undefined when it (or a folder on the way) does not exist.
   */
  private async checked(t: Target, leafMayBeLink: boolean): Promise<vscode.FileStat | undefined> {
    const parts = t.rel.split('/').filter(Boolean);
    let cur = t.base ?? vscode.Uri.file('/');
    if (parts.length === 0) return this.statOrUndefined(cur, t.abs);
    for (let i = 0; i < parts.length; i++) {
      cur = vscode.Uri.joinPath(cur, parts[i]);
      const st = await this.statOrUndefined(cur, t.abs);
      if (!st) return undefined;
      const last = i === parts.length - 1;
      if (st.type & vscode.FileType.SymbolicLink && !(leafMayBeLink && last)) {
        throw new FsError(`"${t.abs}" goes through the symlink "${cur.path}"; symlinks are refused because they can point outside the workspace`, 'FS_OUTSIDE_WORKSPACE');
      }
      if (last) return st;
      if (!(st.type & vscode.FileType.Directory)) return undefined;
    }
    return undefined;
  }

  private async statOrUndefined(uri: vscode.Uri, abs: string): Promise<vscode.FileStat | undefined> {
    try {
      return await vscode.workspace.fs.stat(uri);
    } catch (e) {
      const err = toFsError(e, abs);
      if (err.code === 'FS_NOT_FOUND') return undefined;
      throw err;
    }
  }

  private async readBytes(t: Target): Promise<Uint8Array> {
    try {
      return await vscode.workspace.fs.readFile(t.uri);
    } catch (e) {
      throw toFsError(e, t.abs);
    }
  }

  /** A file's version, cached until VS Code reports a change, its stat moves, or it was still settling when hashed. */
  private async fileVersion(t: Target, st: vscode.FileStat): Promise<FsVersion> {
    return this.versions.versionOf(t.uri.toString(), `${st.size}:${st.mtime}:${st.ctime}`, Math.max(st.mtime, st.ctime), () => this.readBytes(t));
  }

  private openDocument(uri: vscode.Uri): vscode.TextDocument | undefined {
    const id = uri.toString();
    return vscode.workspace.textDocuments.find((d) => !d.isClosed && (d.uri.scheme === 'file' && uri.scheme === 'file' ? d.uri.fsPath === uri.fsPath : d.uri.toString() === id));
  }

  private dirtyDocument(uri: vscode.Uri): vscode.TextDocument | undefined {
    const d = this.openDocument(uri);
    return d?.isDirty ? d : undefined;
  }
}

function entryType(type: vscode.FileType): FsEntryType {
  if (type & vscode.FileType.SymbolicLink) return 'symlink';
  if (type & vscode.FileType.File) return 'file';
  if (type & vscode.FileType.Directory) return 'directory';
  return 'other';
}

const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
/** UTF-8 with the BOM kept in the text, so a rewrite keeps it too (as the Node backend does). */
function decode(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

/** The same file state by what workspace.fs.stat tells (its times are whole milliseconds). */
function sameFileState(a: vscode.FileStat, b: vscode.FileStat | undefined): boolean {
  return b !== undefined && a.mtime === b.mtime && a.ctime === b.ctime && a.size === b.size && a.type === b.type;
}
