// One host per state folder: two processes appending to the same journals would interleave their
// records. The lock is a file holding the owner's pid, created exclusively; a lock whose process
// is gone (a `kill -9` leaves it behind) is taken over at once, so a restart never waits.
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export class StateLock {
  private constructor(readonly file: string) {}

  /** Take the lock of `dir`, or throw a clear error naming the process that holds it. */
  static acquire(dir: string, pid: number = process.pid): StateLock {
    const file = join(dir, 'lock');
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const fd = openSync(file, 'wx', 0o600);
        writeSync(fd, `${pid}\n`);
        closeSync(fd);
        return new StateLock(file);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      const owner = Number.parseInt(readText(file), 10);
      if (Number.isInteger(owner) && owner > 0 && owner !== pid && isAlive(owner)) {
        throw new Error(`the state folder ${dir} is in use by process ${owner} (another rawp serve or editor window on this workspace)`);
      }
      rmSync(file, { force: true }); // stale: its owner is gone (or it is our own, left by a crash)
    }
    throw new Error(`could not take the lock ${file}`);
  }

  release(): void {
    rmSync(this.file, { force: true });
  }
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists but belongs to someone else — still alive.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
