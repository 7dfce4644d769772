// The start of a referenced file for the `inline` strategy (§16.3): at most `limit` bytes are read,
// decoded and kept, whatever the file's size. Reading a whole 100 MB file to keep 64 KB of it, for
// every reference, stalled the host and grew it by hundreds of MB (decision 543).
import { FsError, type FsBackend } from '../workspace/fsBackend';
import { readTextPrefix, type TextPrefix } from '../workspace/localFiles';
import { NodeFsBackend } from '../workspace/nodeFsBackend';

export type PrefixSource = Pick<FsBackend, 'stat' | 'readText'>;

/**
 * The first `limit` bytes of the file's text, cut on a character boundary. On the local disk (no
 * backend, or the Node one, whose files are exactly the disk's) one bounded read from a handle
 * opened inside `root`. Other backends (VS Code's: unsaved editor text, virtual folders) offer only
 * whole reads, so there the whole text is read and cut.
 */
export async function readInlinePrefix(fs: PrefixSource | undefined, absolute: string, root: string, limit: number): Promise<TextPrefix> {
  if (!fs || fs instanceof NodeFsBackend) return readTextPrefix(absolute, limit, root);
  return readPrefixThrough(fs, absolute, limit);
}

async function readPrefixThrough(fs: PrefixSource, absolute: string, limit: number): Promise<TextPrefix> {
  let text: string;
  try {
    text = (await fs.readText(absolute)).text;
  } catch (e) {
    if (e instanceof FsError && e.code === 'FS_NOT_TEXT') return { text: '', total: (await fs.stat(absolute))?.size ?? 0, cut: false, binary: true };
    throw e;
  }
  const bytes = Buffer.from(text, 'utf8');
  if (text.includes('\0')) return { text: '', total: bytes.length, cut: false, binary: true };
  if (bytes.length <= limit) return { text, total: bytes.length, cut: false, binary: false };
  let end = limit;
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--; // never split a UTF-8 sequence
  return { text: bytes.subarray(0, end).toString('utf8'), total: bytes.length, cut: true, binary: false };
}
