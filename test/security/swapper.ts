// The atomic directory ↔ symlink swap of the path-race findings (issue 12 finding 3): Linux
// renameat2(RENAME_EXCHANGE) through Python's ctypes, in a child process so the swaps run truly
// concurrently with the server. Bounded by a swap count and a time limit.
import { spawn, type ChildProcess } from 'node:child_process';

const SCRIPT = `
import ctypes, os, signal, sys, time
libc = ctypes.CDLL("libc.so.6", use_errno=True)
a, b, limit, seconds = sys.argv[1].encode(), sys.argv[2].encode(), int(sys.argv[3]), float(sys.argv[4])
stop = []
signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
n, end = 0, time.time() + seconds
while n < limit and time.time() < end and not stop:
    if libc.renameat2(-100, a, -100, b, 2) != 0:
        sys.stderr.write("renameat2 failed: %d\\n" % ctypes.get_errno()); sys.exit(2)
    n += 1
    time.sleep(0.0005)
if n % 2 == 1:
    libc.renameat2(-100, a, -100, b, 2); n += 1
print(n)
`;

export interface Swapper {
  /** Resolves with the number of swaps made (always even: the tree ends as it began). */
  done: Promise<number>;
  proc: ChildProcess;
}

/** Swaps `a` and `b` (a directory and a symlink) up to `limit` times or for `seconds`; SIGTERM stops it early (still counted). */
export function startSwapper(a: string, b: string, limit: number, seconds: number): Swapper {
  const proc = spawn('python3', ['-c', SCRIPT, a, b, String(limit), String(seconds)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  proc.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const done = new Promise<number>((resolve, reject) => {
    proc.on('exit', (code) => (code === 0 ? resolve(Number(out.trim())) : reject(new Error(`swapper exited ${code}: ${err}`))));
  });
  return { done, proc };
}
