// The start of a file's text for an inlined reference (§16.3, decision 560), with the VS Code
// backend's rules: the same symlink walk and errors as a whole read, and unsaved typing counts.
// What it does not do is read the whole file to keep its first 64 KB: a `file:` folder's file is
// read from the disk, at most `limit` bytes, from a handle opened inside its folder (as the Node
// backend's is, decision 543). Only other schemes (virtual folders, whose providers offer whole
// reads alone) still read the whole file and cut it.
import * as vscode from 'vscode';
import { FsError } from '../workspace/fsBackend';
import { cutTextPrefix, readTextPrefix, type TextPrefix } from '../workspace/localFiles';

export type { TextPrefix };

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
  /** The whole text through `workspace.fs`, decoded as a whole read decodes it (checked already: no second walk, no version hash). */
  whole(): Promise<string>;
}

export async function vscodeTextPrefix(t: PrefixTarget, limit: number, reads: PrefixReads): Promise<TextPrefix> {
  const st = await reads.checked();
  if (!st) throw new FsError(`"${t.abs}" does not exist`, 'FS_NOT_FOUND');
  if (st.type & vscode.FileType.Directory) throw new FsError(`"${t.abs}" is a directory`, 'FS_IS_DIRECTORY');
  const doc = reads.dirty();
  if (doc) return cutTextPrefix(doc.getText(), limit);
  if (t.uri.scheme === 'file') return readTextPrefix(t.abs, limit, t.base ? t.base.fsPath : '/');
  return cutTextPrefix(await reads.whole(), limit);
}
