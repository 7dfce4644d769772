// Small private state files of the host — the bearer token file of `rawp serve`, the permission
// rules — written with mode 0600 so other users cannot read them. Replacing is atomic (temp file in
// the same directory, then rename), so a crash never leaves half a file; creating is exclusive, so
// an existing file is never overwritten; a file that cannot be parsed is moved aside, not lost.
import { mkdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** Creates the file with `text` (mode 0600); throws EEXIST when it exists already. */
export function createPrivateFile(path: string, text: string): void {
  writeFileSync(path, text, { mode: 0o600, flag: 'wx' });
}

/**
 * The file's permission bits when group or others may read or write it (mode & 077), else
 * undefined. Windows has no such bits: always undefined there.
 */
export function modeOpenToOthers(path: string): number | undefined {
  if (process.platform === 'win32') return undefined;
  const mode = statSync(path).mode & 0o777;
  return (mode & 0o077) !== 0 ? mode : undefined;
}

/** Replaces the file's content atomically (mode 0600), creating its directory when needed. */
export function replacePrivateFile(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, text, { mode: 0o600 });
  renameSync(tmp, path);
}

/** Moves a file out of the way (e.g. one that could not be parsed); false when it could not. */
export function moveAside(path: string, aside: string): boolean {
  try {
    renameSync(path, aside);
    return true;
  } catch {
    return false;
  }
}
