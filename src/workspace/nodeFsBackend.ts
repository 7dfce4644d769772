// The Node FsBackend: plain `node:fs` behind the FsBackend contract.
//
// Versions are content-addressed: `c1:<sha256 of the bytes, base64url>`. Two reads of the same bytes
// give the same version and any content change gives a new one, even inside one mtime tick (a
// stat-based token cannot promise that). The VS Code backend folds an open dirty document in by
// hashing the document's text with the same function (`versionOfText`), so a person's unsaved typing
// changes the version and a guarded write can never overwrite it unread.
//
// Every write for one path runs in a per-path critical section (an async mutex), so
// "check guard -> transform -> write" cannot interleave with another write of ours. Writes go to a
// temp file in the same directory and are renamed into place (create-if-absent uses link(), which
// fails atomically when someone created the file meanwhile); the old file mode is kept.
import { isUtf8 } from 'node:buffer';
import { createHash, randomBytes } from 'node:crypto';
import { promises as fsp, watch as fsWatch, realpathSync, type FSWatcher } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import {
  FsError,
  type Disposable,
  type FsBackend,
  type FsChange,
  type FsDirEntry,
  type FsEntryType,
  type FsStat,
  type FsTextFile,
  type FsVersion,
  type FsWriteResult,
  type WriteGuard,
  type WriteOptions,
} from './fsBackend';
import { HANDLE_PINNING, pinDirectory, readFileIn, type PinnedDir } from './pinnedDir';

export interface NodeFsBackendOptions {
  /**
   * Allow absolute paths outside the roots (symlinks stay refused). Off by default: the tool layer
   * only turns it on when the user's settings allow it, and then asks a `dangerous` permission first.
   */
  allowOutsideRoots?: boolean;
}

const VERSION_PREFIX = 'c1:';
const TEMP_MARK = '.rawp-tmp-';
/** Files above this size yield the event loop between the steps of an update. */
const YIELD_ABOVE_BYTES = 1_000_000;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
/** How long a file must have been untouched before its cached hash is trusted (see fileVersion). */
const STABLE_MS = 2_000;

/** The version of a file's bytes. Exported so every backend issues identical tokens for identical bytes. */
export function versionOfBytes(bytes: Uint8Array): FsVersion {
  return (VERSION_PREFIX + createHash('sha256').update(bytes).digest('base64url')) as FsVersion;
}

/** The version of a text as it would be saved in UTF-8 (for dirty editor buffers). */
export function versionOfText(text: string): FsVersion {
  return versionOfBytes(Buffer.from(text, 'utf8'));
}

/** "crlf" when most line breaks of `text` are CRLF; new text written over it gets the same style. */
export function lineEndingOf(text: string): 'crlf' | 'lf' | undefined {
  // Counted with indexOf: no array of a million matches for a big file.
  let crlf = 0;
  let all = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
    all++;
    if (i > 0 && text.charCodeAt(i - 1) === 13) crlf++;
  }
  if (all === 0) return undefined;
  return crlf * 2 > all ? 'crlf' : 'lf';
}

/** Rewrites the line breaks of `text` in `style` (lone CRs are left alone). */
export function withLineEnding(text: string, style: 'crlf' | 'lf' | undefined): string {
  if (style === undefined) return text;
  const lf = text.replace(/\r\n/g, '\n');
  return style === 'crlf' ? lf.replace(/\n/g, '\r\n') : lf;
}

export class NodeFsBackend implements FsBackend {
  readonly roots: readonly string[];
  private readonly locks = new Map<string, Promise<unknown>>();
  private readonly versionCache = new Map<string, { key: string; version: FsVersion; stable: boolean }>();
  private readonly allowOutside: boolean;

  constructor(roots: readonly string[], options: NodeFsBackendOptions = {}) {
    if (roots.length === 0) throw new Error('NodeFsBackend needs at least one root');
    // Real paths, so that a root reached through a symlink (e.g. /tmp on macOS) still contains its files.
    this.roots = roots.map((r) => realpathSync(resolve(r)));
    this.allowOutside = options.allowOutsideRoots === true;
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

  async readText(path: string): Promise<FsTextFile> {
    const abs = await this.resolveChecked(path);
    const bytes = await this.inParent(abs, (dir, leaf) => readFileIn(dir, leaf, abs));
    return { text: decode(bytes), version: versionOfBytes(bytes) };
  }

  async list(dir: string): Promise<FsDirEntry[]> {
    const abs = await this.resolveChecked(dir);
    const pinned = await pinDirectory(this.rootOf(abs), abs);
    try {
      const entries = await fsp.readdir(pinned.self, { withFileTypes: true });
      return entries
        .filter((e) => !e.name.includes(TEMP_MARK))
        .map((e) => ({ name: e.name, type: e.isSymbolicLink() ? 'symlink' : e.isFile() ? 'file' : e.isDirectory() ? 'directory' : 'other' }) satisfies FsDirEntry)
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    } catch (e) {
      throw toFsError(e, abs);
    } finally {
      await pinned.close();
    }
  }

  writeText(path: string, text: string, guard: WriteGuard, options: WriteOptions = {}): Promise<FsWriteResult> {
    return this.update(path, guard, () => text, false, options.exact === true);
  }

  updateText(path: string, guard: WriteGuard, transform: (current: string) => string | Promise<string>): Promise<FsWriteResult> {
    return this.update(path, guard, transform, true);
  }

  async delete(path: string): Promise<void> {
    const abs = await this.resolveChecked(path);
    await this.locked(abs, () =>
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
    const watchers: FSWatcher[] = [];
    let pending: FsChange[] = [];
    let timer: ReturnType<typeof setTimeout> | undefined;
    let disposed = false;
    const flush = async () => {
      timer = undefined;
      const batch = pending;
      pending = [];
      // fs.watch says only "rename" or "change"; a stat tells creations from deletions.
      const out: FsChange[] = [];
      for (const c of batch) {
        if (out.some((o) => o.path === c.path)) continue;
        if (c.kind === 'changed') {
          out.push(c);
          continue;
        }
        const exists = (await lstatOrUndefined(c.path)) !== undefined;
        out.push({ kind: exists ? 'created' : 'deleted', path: c.path });
      }
      if (!disposed && out.length > 0) listener(out);
    };
    for (const root of this.roots) {
      try {
        const w = fsWatch(root, { recursive: true }, (event, name) => {
          if (!name || String(name).includes(TEMP_MARK)) return;
          pending.push({ kind: event === 'change' ? 'changed' : 'created', path: join(root, String(name)) });
          timer ??= setTimeout(() => void flush(), 25);
        });
        w.on('error', () => undefined); // a vanished root is not worth crashing the host for
        watchers.push(w);
      } catch {
        // recursive watch unsupported here: watching is best effort by contract
      }
    }
    return {
      dispose: () => {
        disposed = true;
        if (timer) clearTimeout(timer);
        for (const w of watchers) w.close();
      },
    };
  }

  /**
   * The version of a file for `stat`, from a cache keyed by the stat identity (dev, ino, size,
   * mtime and ctime in ns). Like git's "racy" rule, a cached hash is trusted only if the file had
   * not been modified for STABLE_MS when it was hashed, so a write inside one timestamp tick can
   * never hide behind a cached entry. Reads and writes always hash the bytes they use.
   */
  private async fileVersion(abs: string, dir: PinnedDir, leaf: string): Promise<FsVersion> {
    const st = await fsp.lstat(dir.child(leaf), { bigint: true }).catch((e: unknown) => {
      throw toFsError(e, abs);
    });
    const key = `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
    const hit = this.versionCache.get(abs);
    if (hit && hit.key === key && hit.stable) return hit.version;
    const hashedAt = Date.now();
    const version = versionOfBytes(await readFileIn(dir, leaf, abs));
    const changedAt = Number((st.mtimeNs > st.ctimeNs ? st.mtimeNs : st.ctimeNs) / 1_000_000n);
    if (this.versionCache.size > 20_000) this.versionCache.clear();
    this.versionCache.set(abs, { key, version, stable: hashedAt - changedAt > STABLE_MS });
    return version;
  }

  /** Is `abs` (already resolved) inside one of the roots? */
  contains(abs: string): boolean {
    return this.roots.some((r) => abs === r || abs.startsWith(r.endsWith(sep) ? r : r + sep));
  }

  // ---------------------------------------------------------------------------------------------

  private async update(path: string, guard: WriteGuard, transform: (current: string) => string | Promise<string>, mustExist = false, exact = false): Promise<FsWriteResult> {
    const abs = await this.resolveChecked(path);
    return this.locked(abs, async () => {
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
        const beforeBytes = st && dir ? await readFileIn(dir, leaf, abs) : undefined;
        const currentVersion = beforeBytes ? versionOfBytes(beforeBytes) : undefined;
        if (guard.kind === 'replaceIfVersion' && currentVersion !== guard.version) {
          throw new FsError(
            currentVersion === undefined
              ? `"${abs}" was deleted since it was read; read it again before writing`
              : `"${abs}" changed since it was read (by a person, another tool or another agent); read it again`,
            'FS_STALE_VERSION',
          );
        }
        if (guard.kind === 'createIfAbsent' && beforeBytes) {
          throw new FsError(`"${abs}" already exists and was not read in this session; read it before overwriting`, 'FS_EXISTS');
        }
        if (mustExist && !beforeBytes) throw new FsError(`"${abs}" does not exist`, 'FS_NOT_FOUND');
        // Issue 12 finding 6: decoding would turn every invalid byte into U+FFFD on write.
        // An exact write (a checkpoint restore) replaces the bytes wholesale: nothing is decoded.
        if (beforeBytes && !exact && !isUtf8(beforeBytes)) {
          throw new FsError(`"${abs}" is not UTF-8 text (binary, or another encoding such as Latin-1); it is left untouched — edit it with a tool that keeps its bytes`, 'FS_NOT_TEXT');
        }
        // Big files: each linear step gets its own event-loop turn, so a 20 MB edit never holds
        // the loop (other sessions, heartbeats, /v1/health) for the whole of it.
        const big = (beforeBytes?.length ?? 0) > YIELD_ABOVE_BYTES;
        if (big) await nextTurn();
        const before = beforeBytes ? decode(beforeBytes) : '';
        if (big) await nextTurn();
        const produced = await transform(before);
        if (big) await nextTurn();
        // Keep the file's own line-ending style: text written over a CRLF file stays CRLF.
        const after = beforeBytes && !exact ? withLineEnding(produced, lineEndingOf(before)) : produced;
        if (big) await nextTurn();
        const afterBytes = Buffer.from(after, 'utf8');
        dir ??= await pinDirectory(this.rootOf(abs), dirname(abs), { create: true, what: abs });
        await this.atomicWrite(dir, leaf, abs, afterBytes, st?.mode, guard.kind === 'createIfAbsent' || !beforeBytes);
        return { before, after, version: versionOfBytes(afterBytes), created: !beforeBytes };
      } finally {
        await dir?.close();
      }
    });
  }

  /** Temp file beside the target in the pinned directory, then rename (or link, never clobbering) into place. */
  private async atomicWrite(dir: PinnedDir, leaf: string, abs: string, bytes: Buffer, mode: number | undefined, exclusive: boolean): Promise<void> {
    // Without handle pinning, check the path again right before writing: a parent swapped for a
    // symlink since the first check must not carry the write outside the workspace.
    if (!HANDLE_PINNING) await this.resolveChecked(abs);
    const tmp = dir.child(`.${leaf}${TEMP_MARK}${randomBytes(6).toString('hex')}`);
    const target = dir.child(leaf);
    let handle: fsp.FileHandle | undefined;
    try {
      handle = await fsp.open(tmp, 'wx', mode !== undefined ? mode & 0o7777 : 0o666);
      await handle.writeFile(bytes);
      // open() honours the umask; chmod restores the exact bits the old file had.
      if (mode !== undefined) await handle.chmod(mode & 0o7777);
      await handle.sync();
      await handle.close();
      handle = undefined;
      // The directory was swapped or moved away while we wrote: the write would land where the
      // caller does not expect it (still inside the workspace — the handle saw to that). Refuse.
      if (!(await dir.isAt(dirname(abs)))) throw new FsError(`"${dirname(abs)}" was moved or replaced (by a symlink?) during the write; nothing was written`, 'FS_OUTSIDE_WORKSPACE');
      if (exclusive) {
        // link() fails with EEXIST if someone created the file since our check: never clobber it.
        await linkOrRename(tmp, target);
      } else {
        await fsp.rename(tmp, target);
      }
    } catch (e) {
      await handle?.close().catch(() => undefined);
      await fsp.unlink(tmp).catch(() => undefined);
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') throw new FsError(`"${abs}" was created by someone else meanwhile`, 'FS_EXISTS');
      throw toFsError(e, abs);
    }
  }

  /** The root `abs` lies in ('/' for an allowed outside path). */
  private rootOf(abs: string): string {
    return this.roots.find((r) => abs === r || abs.startsWith(r.endsWith(sep) ? r : r + sep)) ?? '/';
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

  /** Runs `fn` after every earlier critical section for `key` has ended. */
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

  /**
   * Resolves `path` (relative paths against the first root) and refuses what escapes the roots:
   * `..`, absolute paths elsewhere, and any symlink on the way (a link could point anywhere).
   */
  private async resolveChecked(path: string, opts: { leafMayBeLink?: boolean } = {}): Promise<string> {
    if (typeof path !== 'string' || path.length === 0 || path.includes('\0')) throw new FsError(`invalid path ${JSON.stringify(path)}`, 'FS_OUTSIDE_WORKSPACE');
    const abs = isAbsolute(path) ? resolve(path) : resolve(this.roots[0], path);
    const root = this.roots.find((r) => abs === r || abs.startsWith(r.endsWith(sep) ? r : r + sep));
    if (!root) {
      if (!this.allowOutside) throw new FsError(`"${path}" is outside the workspace (${this.roots.join(', ')})`, 'FS_OUTSIDE_WORKSPACE');
      await assertNoLinks(abs, dirname(abs) === abs ? abs : '/', opts.leafMayBeLink === true);
      return abs;
    }
    await assertNoLinks(abs, root, opts.leafMayBeLink === true);
    return abs;
  }
}

/** link() where the file system has hard links; else a re-checked rename (a tiny race, but never a half file). */
async function linkOrRename(tmp: string, abs: string): Promise<void> {
  try {
    await fsp.link(tmp, abs);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'EXDEV') throw e;
    if (await lstatOrUndefined(abs)) throw Object.assign(new Error('exists'), { code: 'EEXIST' });
    await fsp.rename(tmp, abs);
    return;
  }
  await fsp.unlink(tmp);
}

/** Walks from `root` down to `abs`; any existing component that is a symlink is refused. */
async function assertNoLinks(abs: string, root: string, leafMayBeLink: boolean): Promise<void> {
  const parts = relative(root, abs).split(sep).filter(Boolean);
  let cur = root;
  for (let i = 0; i < parts.length; i++) {
    cur = join(cur, parts[i]);
    const st = await lstatOrUndefined(cur);
    if (!st) return; // the rest does not exist yet (a new file)
    if (st.isSymbolicLink() && !(leafMayBeLink && i === parts.length - 1)) {
      throw new FsError(`"${abs}" goes through the symlink "${cur}"; symlinks are refused because they can point outside the workspace`, 'FS_OUTSIDE_WORKSPACE');
    }
  }
}

async function lstatOrUndefined(p: string) {
  try {
    return await fsp.lstat(p);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw toFsError(e, p);
  }
}

const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
/** UTF-8 with the BOM kept in the text, so a rewrite keeps it too. */
function decode(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

function entryType(st: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }): FsEntryType {
  if (st.isSymbolicLink()) return 'symlink';
  if (st.isFile()) return 'file';
  if (st.isDirectory()) return 'directory';
  return 'other';
}

function toFsError(e: unknown, path: string): FsError {
  if (e instanceof FsError) return e;
  const err = e as NodeJS.ErrnoException;
  switch (err.code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return new FsError(`"${path}" does not exist`, 'FS_NOT_FOUND');
    case 'EISDIR':
      return new FsError(`"${path}" is a directory`, 'FS_IS_DIRECTORY');
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return new FsError(`permission denied: "${path}"`, 'FS_PERMISSION');
    case 'EEXIST':
      return new FsError(`"${path}" already exists`, 'FS_EXISTS');
    default:
      return new FsError(`I/O error on "${path}": ${err.message ?? String(e)}`, 'FS_IO');
  }
}
