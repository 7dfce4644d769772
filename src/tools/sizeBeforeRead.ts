// A file's type and size before it is read, from the file system's metadata alone. `FsBackend.stat`
// gives a version too, and both backends make it by reading and hashing the whole file: Read's and
// ACP reads' "too big, never read" check (decisions 539, 716) read a 300 MB file whole (+303 MB, 2.7 s)
// before refusing it. `times` gives type, size and time and nothing of the content; `stat` only for
// a backend without it, and where `times` has no answer (gone, outside, a link on the way, no
// permission): then stat reads nothing and says which, as callers said it before.
import type { FsBackend, FsTime } from '../workspace/fsBackend';

/** The type and size of `abs`, undefined when it is not there (the read that follows says why). */
export async function sizeBeforeRead(fs: Pick<FsBackend, 'stat'> & Partial<Pick<FsBackend, 'times'>>, abs: string): Promise<Pick<FsTime, 'type' | 'size'> | undefined> {
  if (fs.times === undefined) return fs.stat(abs);
  const [time] = await fs.times([abs]);
  return time ?? fs.stat(abs);
}
