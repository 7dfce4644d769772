// The VS Code FsBackend: the disk through the Node backend (same content-addressed versions, atomic
// writes, per-path locks) with the editor's open documents folded in:
//  - a dirty document's text IS the file for reads and versions (versionOfText, the same hash the
//    Node backend uses), so a person's unsaved typing changes the version and a guarded write
//    made from an older read fails with FS_STALE_VERSION — the agent never overwrites it unread;
//  - writes to an open document go through a WorkspaceEdit (the person can undo them); a document
//    that was clean is saved afterwards, a dirty one stays dirty (we never save someone's typing).
import * as vscode from 'vscode';
import { resolve } from 'node:path';
import { FsError, type Disposable, type FsBackend, type FsChange, type FsDirEntry, type FsStat, type FsTextFile, type FsWriteResult, type WriteGuard } from '../workspace/fsBackend';
import { NodeFsBackend, versionOfText } from '../workspace/nodeFsBackend';

export class VscodeFsBackend implements FsBackend {
  private readonly locks = new Map<string, Promise<unknown>>();

  constructor(private readonly disk: NodeFsBackend) {}

  get roots(): readonly string[] {
    return this.disk.roots;
  }

  async stat(path: string): Promise<FsStat | undefined> {
    const st = await this.disk.stat(path);
    const doc = this.dirtyDocument(path);
    if (!doc || (st && st.type !== 'file')) return st;
    const text = doc.getText();
    return { type: 'file', size: Buffer.byteLength(text, 'utf8'), mtimeMs: st?.mtimeMs ?? Date.now(), version: versionOfText(text) };
  }

  async readText(path: string): Promise<FsTextFile> {
    const doc = this.dirtyDocument(path);
    if (!doc) return this.disk.readText(path);
    await this.assertReadable(path);
    const text = doc.getText();
    return { text, version: versionOfText(text) };
  }

  list(dir: string): Promise<FsDirEntry[]> {
    return this.disk.list(dir);
  }

  writeText(path: string, text: string, guard: WriteGuard): Promise<FsWriteResult> {
    return this.updateText(path, guard, () => text);
  }

  async updateText(path: string, guard: WriteGuard, transform: (current: string) => string | Promise<string>): Promise<FsWriteResult> {
    const doc = this.openDocument(path);
    if (!doc) return this.disk.updateText(path, guard, transform);
    await this.assertReadable(path);
    return this.locked(doc.uri.fsPath, () => this.editDocument(doc, path, guard, transform));
  }

  delete(path: string): Promise<void> {
    return this.disk.delete(path);
  }

  watch(listener: (changes: FsChange[]) => void): Disposable {
    return this.disk.watch(listener);
  }

  private async editDocument(doc: vscode.TextDocument, path: string, guard: WriteGuard, transform: (current: string) => string | Promise<string>): Promise<FsWriteResult> {
    const wasDirty = doc.isDirty;
    // A clean document shows the disk: the disk's bytes and version are the truth.
    const current = wasDirty ? { text: doc.getText(), version: versionOfText(doc.getText()) } : await this.disk.readText(path);
    if (guard.kind === 'createIfAbsent') throw new FsError(`${path} already exists (it is open in the editor)`, 'FS_EXISTS');
    if (guard.kind === 'replaceIfVersion' && guard.version !== current.version) {
      throw new FsError(
        wasDirty
          ? `${path} has unsaved changes in the editor that were not read; read it again before editing`
          : `${path} changed since it was read; read it again before editing`,
        'FS_STALE_VERSION',
      );
    }
    const after = await transform(current.text);
    const edit = new vscode.WorkspaceEdit();
    const all = new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length));
    edit.replace(doc.uri, all, after);
    if (!(await vscode.workspace.applyEdit(edit))) throw new FsError(`the editor refused the edit of ${path}`, 'FS_IO');
    if (!wasDirty && !(await doc.save())) throw new FsError(`the editor could not save ${path}`, 'FS_IO');
    const version = wasDirty ? versionOfText(doc.getText()) : ((await this.disk.stat(path))?.version ?? versionOfText(doc.getText()));
    return { before: current.text, after: doc.getText(), version, created: false };
  }

  /**
   * The disk's path checks for an open document: outside the workspace and symlinks on the way are
   * refused, and so is a symlink as the file itself (the disk's stat lets that one through, but its
   * read and write refuse it, and the editor's text of such a file must not be a way around that).
   */
  private async assertReadable(path: string): Promise<void> {
    if ((await this.disk.stat(path))?.type === 'symlink') throw new FsError(`refusing to follow the symlink "${path}"`, 'FS_OUTSIDE_WORKSPACE');
  }

  private openDocument(path: string): vscode.TextDocument | undefined {
    const abs = resolve(path);
    return vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && !d.isClosed && resolve(d.uri.fsPath) === abs);
  }

  private dirtyDocument(path: string): vscode.TextDocument | undefined {
    const d = this.openDocument(path);
    return d?.isDirty ? d : undefined;
  }

  /** One edit per document at a time: check, transform and apply cannot interleave. */
  private locked<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.locks.get(key) ?? Promise.resolve();
    const run = prev.then(fn, fn);
    const tail = run.catch(() => undefined);
    this.locks.set(key, tail);
    void tail.then(() => {
      if (this.locks.get(key) === tail) this.locks.delete(key);
    });
    return run;
  }
}
