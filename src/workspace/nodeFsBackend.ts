// The Node FsBackend: plain `node:fs` behind the FsBackend contract.
//
// Versions are content-addressed (fileVersion.ts), so a change inside one mtime tick still gives a
// new version. Every write for one path runs in a per-path critical section (pathLocks.ts), so
// "check guard -> transform -> write" cannot interleave with another write of ours. Paths are
// checked against the roots with no symlink on the way (rootGuard.ts); the parent directory is
// pinned for the whole operation (pinnedDir.ts); and bytes are put in place through a temp file
// and a rename, or a link() when the file must not exist yet (atomicWrite.ts). A prefix is read
// from the same checked open, never more than asked (prefixRead.ts). Times for an order
// (Glob's newest first) come without any of that per file: one pinned folder, an lstat per entry
// (entryTimes.ts).
import { notTextError, textFileOf } from './textOnlyWrites';
import { promises as fsp } from 'node:fs';
import { basename, dirname } from 'node:path';
import { atomicWrite, TEMP_MARK } from './atomicWrite';
import { encodeUtf8InTurns, nextTurn } from './bytesInTurns';
import { entryTimes, entryType } from './entryTimes';
import { versionOfBytesAsync, versionOfText, VersionCache } from './fileVersion';
import {
  changedMeanwhileError,
  FsError,
  notFoundError,
  staleVersionError,
  unreadFileError,
  type Disposable,
  type FsBackend,
  type FsChange,
  type FsDirEntry,
  type FsStat,
  type FsTextFile,
  type FsTime,
  type FsVersion,
  type FsWriteResult,
  type WriteGuard,
  type WriteOptions,
} from './fsBackend';
import { editLineEnding, lineEndingOfBytesInTurns, startsWithBom, withBom, withLineEnding } from './lineEndings';
import { fileSignature, lstatOrUndefined, toFsError } from './nodeFsErrors';
import { watchTree } from './nodeWatcher';
import { PathLocks } from './pathLocks';
import { HANDLE_PINNING, pinDirectory, readFileIn, type PinnedDir } from './pinnedDir';
import { readPrefixIn } from './prefixRead';
import type { TextPrefix } from './localFiles';
import type { RootAlias } from './rootAliases';
import { RootGuard } from './rootGuard';

export interface NodeFsBackendOptions {
  /**
   * Allow absolute paths outside the roots (symlinks stay refused). Off by default: the tool layer
   * only turns it on when the user's settings allow it, and then asks a `dangerous` permission first.
   */
  allowOutsideRoots?: boolean;
  /** `watch` sets its recursive watch up in a worker thread (nodeWatcher.ts `inWorker`; `rawp serve`). */
  watchInWorker?: boolean;
  /**
   * Other names of the first root, taken as the same folder (rootAliases.ts): `rawp run/serve
   * --workspace` given through a symlink runs in the real folder, and a path typed by the link's
   * name is still inside (decision 729).
   */
  otherNames?: readonly string[];
}

/** Files above this size yield the event loop between the steps of an update. */
const YIELD_ABOVE_BYTES = 1_000_000;

export class NodeFsBackend implements FsBackend {
  readonly roots: readonly string[];
  private readonly locks = new PathLocks();
  private readonly versions = new VersionCache();
  private readonly guard: RootGuard;
  private readonly allowOutside: boolean;
  private readonly watchInWorker: boolean;

  constructor(roots: readonly string[], options: NodeFsBackendOptions = {}) {
    if (roots.length === 0) throw new Error('NodeFsBackend needs at least one root');
    this.allowOutside = options.allowOutsideRoots === true;
    this.watchInWorker = options.watchInWorker === true;
    // Real paths, so that a root reached through a symlink (e.g. /tmp on macOS) still contains its files.
    this.guard = new RootGuard(roots, this.allowOutside, options.otherNames);
    this.roots = this.guard.roots;
  }

  async stat(path: string): Promise<FsStat | undefined> {
    const abs = await this.resolveChecked(path, { leafMayBeLink: true });
    return this.inParent(abs, async (dir, leaf) => {
      const st = await lstatOrUndefined(dir.child(leaf));
      if (!st) return undefined;
      const type = entryType(st);
      let version: FsVersion;
      if (type === 'file') version = await this.fileVersion(abs, dir, leaf);
      else if (type === 'symlink') version = versionOfText('symlink:' + (await fsp.readlink(dir.child(leaf))));
      else version = (`d:${st.ino}:${st.mtimeMs}`) as FsVersion;
      return { type, size: st.size, mtimeMs: st.mtimeMs, version };
    }).catch((e: unknown) => {
      if (e instanceof FsError && e.code === 'FS_NOT_FOUND') return undefined;
      throw e;
    });
  }

  /** Types and times without content (decision 587): each folder pinned once, an lstat per entry. */
  times(paths: readonly string[], signal?: AbortSignal): Promise<(FsTime | undefined)[]> {
    return entryTimes(this.guard, this.allowOutside, paths, signal);
  }

  async readText(path: string): Promise<FsTextFile> {
    const abs = await this.resolveChecked(path);
    const bytes = await this.inParent(abs, (dir, leaf) => readFileIn(dir, leaf, abs));
    // Hashed in turns (bytesInTurns.ts), after the decode's own turn: the two no longer hold the
    // loop back to back.
    const text = decode(bytes);
    return textFileOf(bytes, text, await versionOfBytesAsync(bytes));
  }

  /**
   * The first `limit` bytes of a file's text, reading no more of it (decision 720): the same path
   * check, pinned parent and open as `readText` (no symlink on the way or at the leaf, no FIFO
   * opened blocking, regular files only), then one bounded read from that descriptor.
   */
  async readTextPrefix(path: string, limit: number): Promise<TextPrefix> {
    const abs = await this.resolveChecked(path);
    return this.inParent(abs, (dir, leaf) => readPrefixIn(dir, leaf, abs, limit));
  }

  async list(dir: string): Promise<FsDirEntry[]> {
    const abs = await this.resolveChecked(dir);
    const pinned = await pinDirectory(this.rootOf(abs), abs);
    try {
      const entries = await fsp.readdir(pinned.self, { withFileTypes: true });
      return entries
        .filter((e) => !e.name.includes(TEMP_MARK))
        .map((e): FsDirEntry => ({ name: e.name, type: entryType(e) }))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    } catch (e) {
      throw toFsError(e, abs);
    } finally {
      await pinned.close();
    }
  }

  writeText(path: string, text: string, guard: WriteGuard, options: WriteOptions = {}): Promise<FsWriteResult> {
    return this.update(path, guard, { text }, false, options.exact === true);
  }

  updateText(path: string, guard: WriteGuard, transform: (current: string) => string | Promise<string>): Promise<FsWriteResult> {
    return this.update(path, guard, { transform }, true);
  }

  async delete(path: string): Promise<void> {
    const abs = await this.resolveChecked(path);
    await this.locks.run(abs, () =>
      this.inParent(abs, async (dir, leaf) => {
        if ((await lstatOrUndefined(dir.child(leaf)))?.isSymbolicLink()) throw new FsError(`refusing to delete through the symlink "${abs}"`, 'FS_OUTSIDE_WORKSPACE');
        try {
          await fsp.unlink(dir.child(leaf));
        } catch (e) {
          throw toFsError(e, abs);
        }
      }),
    );
  }

  watch(listener: (changes: FsChange[]) => void): Disposable {
    // Best effort by contract (nodeWatcher.ts); our own temp files are never news.
    return watchTree(this.roots, listener, { ignore: (name) => name.includes(TEMP_MARK), inWorker: this.watchInWorker });
  }

  /** The version of a file for `stat`: cached by its stat identity (fileVersion.ts). */
  private async fileVersion(abs: string, dir: PinnedDir, leaf: string): Promise<FsVersion> {
    const st = await fsp.lstat(dir.child(leaf), { bigint: true }).catch((e: unknown) => {
      throw toFsError(e, abs);
    });
    const changedAtMs = Number((st.mtimeNs > st.ctimeNs ? st.mtimeNs : st.ctimeNs) / 1_000_000n);
    return this.versions.versionOf(abs, `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`, changedAtMs, () => readFileIn(dir, leaf, abs));
  }

  /** Is `abs` (already resolved) inside one of the roots? */
  contains(abs: string): boolean {
    return this.guard.contains(abs);
  }

  /** The names the roots were given where they differ from their real paths (rootAliases.ts). */
  get rootAliases(): readonly RootAlias[] {
    return this.guard.aliases;
  }

  // ---------------------------------------------------------------------------------------------

  /** Writes `change.text` over the file, or what `change.transform` makes of its current text. */
  private async update(path: string, guard: WriteGuard, change: { text: string } | { transform: (current: string) => string | Promise<string> }, mustExist = false, exact = false): Promise<FsWriteResult> {
    const abs = await this.resolveChecked(path);
    return this.locks.run(abs, async () => {
      // The parent is pinned once (pinnedDir.ts): the read, the temp file and the rename all happen
      // in the directory that was checked, whatever is swapped meanwhile. A missing parent is
      // created only once the guards have passed.
      let dir = await pinDirectory(this.rootOf(abs), dirname(abs), { what: abs }).catch((e: unknown) => {
        if (e instanceof FsError && e.code === 'FS_NOT_FOUND') return undefined;
        throw e;
      });
      try {
        const leaf = basename(abs);
        const st = dir ? await lstatOrUndefined(dir.child(leaf)) : undefined;
        if (st && st.isSymbolicLink()) throw new FsError(`refusing to write through the symlink "${abs}"`, 'FS_OUTSIDE_WORKSPACE');
        if (st && st.isDirectory()) throw new FsError(`"${abs}" is a directory`, 'FS_IS_DIRECTORY');
        // The file's state around the read (decision 595): another program writing it meanwhile
        // (an editor's autosave, a log) is caught here, and again right before the rename.
        const seen = st && dir ? await fileSignature(dir.child(leaf)) : undefined;
        const beforeBytes = st && dir ? await readFileIn(dir, leaf, abs) : undefined;
        if (seen !== undefined && (await fileSignature(dir!.child(leaf))) !== seen) throw changedMeanwhileError(abs);
        const currentVersion = beforeBytes ? await versionOfBytesAsync(beforeBytes) : undefined;
        if (guard.kind === 'replaceIfVersion' && currentVersion !== guard.version) throw staleVersionError(abs, currentVersion === undefined);
        if (guard.kind === 'createIfAbsent' && beforeBytes) throw unreadFileError(abs);
        if (mustExist && !beforeBytes) throw notFoundError(abs);
        // Only text is written over (textOnlyWrites.ts); an exact write (a checkpoint restore)
        // replaces the bytes wholesale: nothing is decoded.
        const notText = beforeBytes && !exact ? notTextError(abs, beforeBytes) : undefined;
        if (notText) throw notText;
        // Big files: each linear step gets its own event-loop turn, and hashing and encoding are
        // sliced into turns themselves (bytesInTurns.ts), so a 20 MB edit never holds the loop
        // (other sessions, heartbeats, /v1/health) for the whole of it.
        const big = (beforeBytes?.length ?? 0) > YIELD_ABOVE_BYTES;
        if (big) await nextTurn();
        // A whole-file write needs none of the old text but its line-ending style, read off the
        // bytes: the old text is decoded only if the result's `before` is read (utf8 below).
        const wholeFile = 'text' in change;
        const before = beforeBytes && !wholeFile ? decode(beforeBytes) : '';
        if (big) await nextTurn();
        const produced = 'text' in change ? change.text : await change.transform(before);
        if (big) await nextTurn();
        // Keep the file's own line-ending style: text written over a CRLF file stays CRLF. An edit
        // of a file of mixed endings kept each line's own, and is written as it is (decision 704).
        const style = beforeBytes && !exact ? (wholeFile ? await lineEndingOfBytesInTurns(beforeBytes) : editLineEnding(before)) : undefined;
        if (big) await nextTurn();
        const after = withBom(withLineEnding(produced, style), wholeFile && !exact && startsWithBom(beforeBytes));
        if (big) await nextTurn();
        const afterBytes = await encodeUtf8InTurns(after);
        dir ??= await pinDirectory(this.rootOf(abs), dirname(abs), { create: true, what: abs });
        await atomicWrite({
          dir,
          leaf,
          abs,
          bytes: afterBytes,
          mode: st?.mode,
          exclusive: guard.kind === 'createIfAbsent' || !beforeBytes,
          ...(seen !== undefined ? { unchanged: async () => (await fileSignature(dir!.child(leaf))) === seen, changed: () => changedMeanwhileError(abs) } : {}),
          ...(HANDLE_PINNING ? {} : { recheck: () => this.resolveChecked(abs) }),
        });
        const version = await versionOfBytesAsync(afterBytes);
        const utf8 = { before: beforeBytes ?? new Uint8Array(0), after: afterBytes };
        // The rename cut the old file's other names off: they keep its old content (decision 603).
        const links = beforeBytes && st && st.nlink > 1 ? { otherLinks: st.nlink - 1 } : {};
        if (!beforeBytes || !wholeFile) return { before, after, version, created: !beforeBytes, utf8, ...links };
        return withLazyBefore({ after, version, created: false, utf8, ...links });
      } finally {
        await dir?.close();
      }
    });
  }

  /** The root `abs` lies in ('/' for an allowed outside path). */
  private rootOf(abs: string): string {
    return this.guard.rootOf(abs);
  }

  /** Runs `fn` with the parent directory of `abs` pinned (the root itself is its own parent's child). */
  private async inParent<T>(abs: string, fn: (dir: PinnedDir, leaf: string) => Promise<T>): Promise<T> {
    const root = this.rootOf(abs);
    const dir = await pinDirectory(abs === root ? dirname(root) : root, dirname(abs), { what: abs });
    try {
      return await fn(dir, basename(abs));
    } finally {
      await dir.close();
    }
  }

  /** `path` resolved inside the roots, no symlink on the way (rootGuard.ts). */
  private resolveChecked(path: string, opts: { leafMayBeLink?: boolean } = {}): Promise<string> {
    return this.guard.resolve(path, opts);
  }
}

/** A write result whose `before` is decoded from `utf8.before` when first read (once). */
function withLazyBefore(result: Omit<FsWriteResult, 'before'> & { utf8: NonNullable<FsWriteResult['utf8']> }): FsWriteResult {
  const bytes = result.utf8.before;
  const size = bytes.byteLength;
  let text: string | undefined;
  return Object.defineProperty(result, 'before', {
    enumerable: true,
    get: () => {
      // Moved to a worker (detached): the text is gone from here, and '' would be a lie.
      if (text === undefined && bytes.byteLength !== size) throw new Error('the bytes before the write were moved to a worker; read `before` first');
      return (text ??= decode(bytes));
    },
  }) as FsWriteResult;
}

const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
/** UTF-8 with the BOM kept in the text, so a rewrite keeps it too. */
function decode(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}
