// The start of a referenced file for the `inline` strategy (§16.3): at most `limit` bytes are read,
// decoded and kept, whatever the file's size. Reading a whole 100 MB file to keep 64 KB of it, for
// every reference, stalled the host and grew it by hundreds of MB (decision 543).
import { FsError, type FsBackend } from '../workspace/fsBackend';
import { cutTextPrefix, readTextPrefix, type TextPrefix } from '../workspace/localFiles';
import { NodeFsBackend } from '../workspace/nodeFsBackend';

export type PrefixSource = Pick<FsBackend, 'stat' | 'readText' | 'readTextPrefix'>;

/**
 * The first `limit` bytes of the file's text, cut on a character boundary. On the local disk (no
 * backend, or the Node one, whose files are exactly the disk's) one bounded read from a handle
 * opened inside `root`. A backend with its own bounded read (VS Code's: unsaved editor text, then
 * the disk for `file:` folders, decision 560) is asked for it. Any other reads the whole text,
 * which is then cut.
 */
export async function readInlinePrefix(fs: PrefixSource | undefined, absolute: string, root: string, limit: number): Promise<TextPrefix> {
  if (!fs || fs instanceof NodeFsBackend) return readTextPrefix(absolute, limit, root);
  if (fs.readTextPrefix) return fs.readTextPrefix(absolute, limit);
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
  return cutTextPrefix(text, limit);
}
