// Before the permission prompt: a guarded write the backend will refuse is refused now (decision
// 024: no question whose answer cannot help). The ledger's guard says what the write needs — the
// version read, or that the file not exist — and one stat says whether that still holds: a file
// changed since it was read (FS_STALE_VERSION) or one that exists unread (FS_EXISTS) was asked
// about and only then refused, so the person was told the wrong reason (the trial of 2026-12-05).
// A failing stat proves nothing here: the call then runs and reports what it meets.
import { FsError, staleVersionError, unreadFileError, type FsStat, type WriteGuard } from '../workspace/fsBackend';
import type { FsTarget } from './fsEvents';
import type { ToolContext } from './types';

/** Returns the stat it took when the file is the version a replace needs (the edit preflight reads on from it). */
export async function refuseDoomedWrite(target: FsTarget & { abs: string }, guard: WriteGuard, ctx: ToolContext): Promise<FsStat | undefined> {
  if (guard.kind === 'unconditional') return undefined;
  let st: FsStat | undefined;
  try {
    st = await ctx.fs.stat(target.abs);
  } catch {
    return undefined;
  }
  // A folder is no file to write: said as such, not as a file "not read yet" (the review of 2026-12-06).
  if (st?.type === 'directory') throw new FsError(`"${target.displayPath}" is a folder, not a file`, 'FS_IS_DIRECTORY');
  if (guard.kind === 'createIfAbsent') {
    if (st) throw unreadFileError(target.displayPath);
    return undefined;
  }
  if (!st) throw staleVersionError(target.displayPath, true);
  if (st.version !== guard.version) throw staleVersionError(target.displayPath, false);
  return st;
}
