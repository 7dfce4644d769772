// Which files the text tools may write over (Edit, MultiEdit, Write): UTF-8 text without a NUL
// byte. Both backends ask this before they decode a file's old bytes. Decoding bytes that are not
// UTF-8 turns each bad byte into U+FFFD on write (issue 12 finding 6); a file with a NUL byte is
// one Read calls binary and never shows (lineWindow.ts), so an exact-match edit of it changes bytes
// nobody has seen, in a format (an image, a SQLite page, an archive) whose other bytes hold offsets
// and checksums a text edit cannot keep (decision 602). A checkpoint's exact restore puts bytes back
// wholesale and does not ask.
import { isUtf8 } from 'node:buffer';
import { FsError, type FsTextFile, type FsVersion } from './fsBackend';

const BINARY = 'is a binary file (it holds NUL bytes), which Read does not show';
const NOT_UTF8 = 'is not UTF-8 text (binary, or another encoding such as Latin-1)';

/** Why `bytes` are not text the tools may edit, or undefined when they are. */
export function notTextReason(bytes: Uint8Array): string | undefined {
  if (bytes.indexOf(0) !== -1) return BINARY;
  if (!isUtf8(bytes)) return NOT_UTF8;
  return undefined;
}

function refusal(path: string, reason: string): FsError {
  return new FsError(`"${path}" ${reason}; it is left untouched — edit it with a tool that keeps its bytes`, 'FS_NOT_TEXT');
}

/** FS_NOT_TEXT for the file at `path` whose old bytes are `bytes`, or undefined when they are text. */
export function notTextError(path: string, bytes: Uint8Array): FsError | undefined {
  const reason = notTextReason(bytes);
  return reason === undefined ? undefined : refusal(path, reason);
}

/** Why a file read as text is none: a NUL byte (Read shows none of it), or bytes that are not UTF-8. */
export type NotText = 'binary' | 'not-utf8';

/** What a read file is, if not text the tools may write over (decisions 602, 608). */
export function notTextOf(file: FsTextFile): NotText | undefined {
  return file.text.includes('\u0000') ? 'binary' : file.notUtf8 ? 'not-utf8' : undefined;
}

/** FS_NOT_TEXT for a file already known to be no text: refused before the permission prompt. */
export function notTextFileError(path: string, kind: NotText): FsError {
  return refusal(path, kind === 'binary' ? BINARY : NOT_UTF8);
}

/** A text file read from `bytes`, marked when they are not UTF-8 (FsTextFile.notUtf8). */
export function textFileOf(bytes: Uint8Array, text: string, version: FsVersion): FsTextFile {
  // isUtf8 is native and costs far less than the decode before it; only a text with U+FFFD can come from bad bytes.
  return text.includes('\ufffd') && !isUtf8(bytes) ? { text, version, notUtf8: true } : { text, version };
}
