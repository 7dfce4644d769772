// The first bytes of a file in a pinned directory, for NodeFsBackend.readTextPrefix (decision 720):
// opened as a whole read opens it (openFileIn: never through a symlink leaf, never blocking on a
// FIFO, regular files only) and read from that descriptor, at most `limit` bytes — never more,
// whatever the file's size or however it grows meanwhile.
import { bytesTextPrefix, type TextPrefix } from './localFiles';
import { toFsError } from './nodeFsErrors';
import { openFileIn, type PinnedDir } from './pinnedDir';

export async function readPrefixIn(dir: PinnedDir, name: string, abs: string, limit: number): Promise<TextPrefix> {
  const { handle, stats } = await openFileIn(dir, name, abs);
  try {
    const want = Math.min(stats.size, Math.max(0, Math.floor(limit) || 0));
    const buf = Buffer.allocUnsafe(want);
    let got = 0;
    // A read may return less than asked (a signal, a network file system): read on to `want` or the end.
    while (got < want) {
      const { bytesRead } = await handle.read(buf, got, want - got, got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    return bytesTextPrefix(buf.subarray(0, got), stats.size, want);
  } catch (e) {
    throw toFsError(e, abs);
  } finally {
    await handle.close().catch(() => undefined);
  }
}
