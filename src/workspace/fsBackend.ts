// The FsBackend: every file access of tools, agents and the index goes through this interface.
// Two implementations: Node (nodeFsBackend.ts) and VS Code (src/extension, workspace.fs plus open
// TextDocuments so that unsaved editor content counts). Shaped to fit `vscode.workspace.fs`.
//
// Versions are opaque freshness tokens: equal versions mean "unchanged since you looked". The VS
// Code backend folds a dirty document's content into the version, so a person's unsaved typing
// changes it and an agent can never overwrite it unread.

import type { TextPrefix } from './localFiles';
import type { RootAlias } from './rootAliases';

/** Opaque freshness token issued by a backend. Compare only with `===`. */
export type FsVersion = string & { readonly __fsVersion: unique symbol };

export type FsEntryType = 'file' | 'directory' | 'symlink' | 'other';

export interface FsStat {
  type: FsEntryType;
  size: number;
  mtimeMs: number;
  version: FsVersion;
}

/**
 * Failures that mean "this path has no time to give" (FsBackend.times: undefined), not "the call
 * failed": gone, permission denied, a symlink on the way.
 */
export const NO_TIME_CODES: ReadonlySet<string> = new Set(['FS_NOT_FOUND', 'FS_PERMISSION', 'FS_OUTSIDE_WORKSPACE']);

/** What `times` gives for one path: its type, size and modification time, and nothing of its content. */
export interface FsTime {
  type: FsEntryType;
  /** Bytes (a symlink's own, when the backend reports symlinks). */
  size: number;
  mtimeMs: number;
}

export interface FsDirEntry {
  name: string;
  type: FsEntryType;
}

export interface FsTextFile {
  text: string;
  version: FsVersion;
  /**
   * Set when the bytes are not valid UTF-8 (Latin-1, say): `text` shows each bad byte as U+FFFD,
   * and Edit and Write refuse the file (FS_NOT_TEXT), so the ledger and the edit preflight say so
   * before the permission prompt (decision 608). A text that holds U+FFFD as UTF-8 is not marked.
   */
  notUtf8?: true;
}

/** How a write is guarded; checked inside the backend's critical section for that path. */
export type WriteGuard =
  | { kind: 'replaceIfVersion'; version: FsVersion }
  | { kind: 'createIfAbsent' }
  /** Bare provider behaviour (no policy installed). */
  | { kind: 'unconditional' };

export interface WriteOptions {
  /**
   * Write `text` exactly as given: no adapting its line breaks to the file's current style. A
   * checkpoint restore (issue 17) puts back the very bytes the file had.
   */
  exact?: boolean;
}

export interface FsWriteResult {
  /** Text before the write ('' when the file was created). */
  before: string;
  after: string;
  version: FsVersion;
  created: boolean;
  /**
   * The file's UTF-8 bytes as read before the write and as written, when the backend has them (the
   * local one does): a big diff moves these to its worker instead of encoding both texts again.
   * After a whole-file write they are also the only copy of the old content: `before` is decoded
   * from them only when read, so that a 20 MB replace never decodes 20 MB on the event loop.
   * Whoever moves them to a worker must not read `before` afterwards.
   */
  utf8?: { before: Uint8Array; after: Uint8Array };
  /**
   * How many other names (hard links) the replaced file had: they keep its old content, since the
   * write put a new file in place (decision 603). Absent when there were none, or when the backend
   * writes in place (VS Code's).
   */
  otherLinks?: number;
}

export type FsErrorCode =
  | 'FS_NOT_FOUND'
  | 'FS_NOT_OBSERVED'
  | 'FS_STALE_VERSION'
  | 'FS_EXISTS'
  | 'FS_AMBIGUOUS_EDIT'
  | 'FS_EDIT_NOT_FOUND'
  | 'FS_IS_DIRECTORY'
  /** Edit/Write of a file that is not valid UTF-8 (binary, Latin-1 …): refused, nothing written (issue 12 finding 6). */
  | 'FS_NOT_TEXT'
  | 'FS_OUTSIDE_WORKSPACE'
  | 'FS_PERMISSION'
  | 'FS_IO';

export class FsError extends Error {
  constructor(
    message: string,
    readonly code: FsErrorCode,
  ) {
    super(message);
    this.name = 'FsError';
  }
}

/** The ledger's refusal of a write over a file changed (or deleted) since it was read. */
export function staleVersionError(path: string, deleted: boolean): FsError {
  return new FsError(deleted ? `"${path}" was deleted since it was read; read it again before writing` : `"${path}" changed since it was read (by a person, another tool or another agent); read it again.`, 'FS_STALE_VERSION');
}

/** Another program wrote the file while an edit of it was made (decision 595): nothing of ours was written. */
export function changedMeanwhileError(path: string): FsError {
  return new FsError(`"${path}" was changed by another program while this edit was being made; nothing was written — read it again`, 'FS_STALE_VERSION');
}

/** The ledger's refusal of a write over an existing file that was not read in this session. */
export function unreadFileError(path: string): FsError {
  return new FsError(`"${path}" already exists and was not read in this session; read it before overwriting`, 'FS_EXISTS');
}

/**
 * "Does not exist" for `path` (FS_NOT_FOUND). A path with U+FFFD most likely names a file whose
 * name is not UTF-8: listings decode such a name with U+FFFD for each bad byte, and the name can
 * then no longer be opened by its text. Said in words, so a person renames it instead of
 * searching for a file that is plainly there.
 */
export function notFoundError(path: string, detail = ''): FsError {
  const note = path.includes('\ufffd') ? ' — if a file of this name is listed, its name is not valid UTF-8 (shown with �) and cannot be opened by name; rename it to read it' : '';
  return new FsError(`"${path}" does not exist${detail}${note}`, 'FS_NOT_FOUND');
}

export interface Disposable {
  dispose(): void;
}

export type FsChange = { kind: 'created' | 'changed' | 'deleted'; path: string };

export interface FsBackend {
  /** Absolute paths of the workspace folders, in order. */
  readonly roots: readonly string[];
  /**
   * The roots' other names (a folder opened through a symlink: its given name or its real path,
   * whichever `roots` is not), taken as the same paths (rootAliases.ts, decision 723).
   */
  readonly rootAliases?: readonly RootAlias[];
  /** Stat of an absolute path; `undefined` when it does not exist. Symlinks are not followed. */
  stat(path: string): Promise<FsStat | undefined>;
  /** Whole text of a file with its version. Throws FsError FS_NOT_FOUND / FS_IS_DIRECTORY. */
  readText(path: string): Promise<FsTextFile>;
  /**
   * The first `limit` bytes of a file's text (an inlined reference, §16.3), reading no more of it
   * than that where the backend can (decision 560). Same errors as `readText`. Optional: without it
   * callers read the whole text and cut it.
   */
  readTextPrefix?(path: string, limit: number): Promise<TextPrefix>;
  /**
   * The types, sizes and modification times of many paths, for an order (Glob's newest first,
   * decision 587) or a bound (Grep's size limit): no content is read and no version computed, which
   * `stat` does for the ledger. Entry `i` is for `paths[i]`; `undefined` when there is no time to
   * give: the path is gone, permission is denied, it is reached through a symlink, or it is a
   * symlink whose own time the backend cannot read without following it. A path outside the
   * workspace is refused (FS_OUTSIDE_WORKSPACE) as by `stat`, before anything is looked at; other
   * failures are FS_IO. When `signal` aborts it stops early, the rest left `undefined` (the caller
   * checks the signal). Optional: without it callers `stat` each path.
   */
  times?(paths: readonly string[], signal?: AbortSignal): Promise<(FsTime | undefined)[]>;
  /** Entries of a directory (not recursive). */
  list(dir: string): Promise<FsDirEntry[]>;
  /**
   * Writes `text` atomically (temp file + rename, permissions kept) if the guard holds.
   * Throws FS_STALE_VERSION (replaceIfVersion, file changed or gone) or FS_EXISTS (createIfAbsent).
   */
  writeText(path: string, text: string, guard: WriteGuard, options?: WriteOptions): Promise<FsWriteResult>;
  /**
   * Read-modify-write in one critical section: checks the guard against the current version,
   * calls `transform` with the current text, writes its result atomically. `transform` may throw
   * (e.g. FS_EDIT_NOT_FOUND) and nothing is written.
   */
  updateText(path: string, guard: WriteGuard, transform: (current: string) => string | Promise<string>): Promise<FsWriteResult>;
  /** Deletes a file. */
  delete(path: string): Promise<void>;
  /** File creations, changes and deletions under the roots (best effort, batched by the caller). */
  watch(listener: (changes: FsChange[]) => void): Disposable;
}
