// The start of a file's text for an inlined reference (§16.3, decision 560), with the VS Code
// backend's rules: the same symlink walk and errors as a whole read, and unsaved typing counts.
// What it does not do is read the whole file to keep its first 64 KB: a `file:` folder's file is
// read from the disk, at most `limit` bytes, from a handle opened inside its folder (as the Node
// backend's is, decision 543). Only other schemes (virtual folders, whose providers offer whole
// reads alone) still read the whole file, and only up to MAX_WHOLE_READ_BYTES (decision 561): a
// bigger one is refused by its stat, before it is read, and only its first `limit` bytes are decoded.
import * as vscode from 'vscode';
import { FsError, notFoundError } from '../workspace/fsBackend';
import { bytesTextPrefix, cutTextPrefix, readTextPrefix, type TextPrefix } from '../workspace/localFiles';

export type { TextPrefix };

/** The largest file of a virtual folder read whole to inline its start (16 MiB, decision 561). */
export const MAX_WHOLE_READ_BYTES = 16 * 1024 * 1024;

export interface PrefixTarget {
  abs: string;
  uri: vscode.Uri;
  /** The folder's URI; undefined for an allowed path outside the folders (`file:` only). */
  base: vscode.Uri | undefined;
}

/** The backend's own steps, so this module follows its rules instead of copying them. */
export interface PrefixReads {
  /** The target's stat after the backend's symlink walk; undefined when it does not exist. */
  checked(): Promise<vscode.FileStat | undefined>;
  /** The open document with unsaved typing, if there is one. */
  dirty(): vscode.TextDocument | undefined;
  /** The whole file's bytes through `workspace.fs` (checked already: no second walk, no version hash). */
  whole(): Promise<Uint8Array>;
}

export async function vscodeTextPrefix(t: PrefixTarget, limit: number, reads: PrefixReads): Promise<TextPrefix> {
  const st = await reads.checked();
  if (!st) throw notFoundError(t.abs);
  if (st.type & vscode.FileType.Directory) throw new FsError(`"${t.abs}" is a directory`, 'FS_IS_DIRECTORY');
  const doc = reads.dirty();
  if (doc) return cutTextPrefix(doc.getText(), limit);
  if (t.uri.scheme === 'file') return readTextPrefix(t.abs, limit, t.base ? t.base.fsPath : '/');
  if (st.size > MAX_WHOLE_READ_BYTES) throw tooLarge(t, st.size);
  const bytes = await reads.whole();
  // It grew after its stat (or the provider's stat does not know sizes): the read is spent, but the
  // answer is the same as for a stat that showed it, and the bytes are dropped undecoded.
  if (bytes.byteLength > MAX_WHOLE_READ_BYTES) throw tooLarge(t, bytes.byteLength);
  return bytesTextPrefix(bytes, bytes.byteLength, limit);
}

function tooLarge(t: PrefixTarget, size: number): FsError {
  return new FsError(
    `"${t.abs}" is ${sizeText(size)}, too large to inline from this ${t.uri.scheme}: folder: its file system reads only whole files, so a reference reads at most ${MAX_WHOLE_READ_BYTES / 2 ** 20} MiB from it. Paste the part you need, or refer to a smaller file`,
    'FS_IO',
  );
}

function sizeText(n: number): string {
  const [name, unit] = n >= 2 ** 30 ? ['GiB', 2 ** 30] : ['MiB', 2 ** 20];
  const v = n / unit;
  return `${Number.isInteger(v) ? v : v.toFixed(1)} ${name} (${n.toLocaleString('en-US')} bytes)`;
}
