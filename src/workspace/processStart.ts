// Starting a child process without ever crashing the host (decision 562). Node's `spawn` does not
// throw when the host is out of file descriptors (EMFILE/ENFILE), out of processes (EAGAIN), or the
// program is missing (ENOENT) or not executable (EACCES): it returns a ChildProcess with no pid and
// no stdio pipes (`child.stdout` is null) and emits 'error' on the next tick. Code that touches a
// pipe first throws a TypeError, and the 'error' that follows, with no listener yet, ends the
// process. Other failures (E2BIG for a too-long command, ...) are thrown at once. `startProcess`
// puts the caller's 'error' listener on before anything else, turns a thrown failure into the same
// call, and hands back the child only when it really started, every requested pipe present.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

/** A child that started: a pid, and its pipes where `stdio` asked for 'pipe'. */
export type StartedProcess = ChildProcess & { pid: number };

/**
 * `spawn(file, args, options)`, with `onError` listening before anything else. Returns the child
 * when it started; otherwise undefined, and `onError` is called once, on a later tick, with why.
 * Later errors of a started child (a failed kill) reach `onError` too.
 */
export function startProcess(file: string, args: readonly string[], options: SpawnOptions, onError: (e: NodeJS.ErrnoException) => void): StartedProcess | undefined {
  let child: ChildProcess;
  try {
    child = spawn(file, args, options);
  } catch (e) {
    const err = asErrno(e, file);
    process.nextTick(() => onError(err));
    return undefined;
  }
  child.on('error', (e: NodeJS.ErrnoException) => onError(e));
  if (child.pid === undefined) return undefined; // the 'error' comes on the next tick
  const wanted = stdioWanted(options.stdio);
  const missing = [child.stdin, child.stdout, child.stderr].some((s, i) => wanted[i] && !s);
  if (missing) {
    // Not seen from Node, but never hand out a child whose pipe a caller would trip on.
    child.kill('SIGKILL');
    process.nextTick(() => onError(Object.assign(new Error(`spawn ${file}: its pipes could not be opened`), { code: 'EPIPE', syscall: `spawn ${file}` })));
    return undefined;
  }
  return child as StartedProcess;
}

/** A start failure in plain words, e.g. "the host has too many open files (EMFILE)". */
export function startFailureWords(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  const code = typeof err?.code === 'string' ? err.code : undefined;
  const program = typeof err?.path === 'string' ? err.path : undefined;
  switch (code) {
    case 'EMFILE':
      return 'the host has too many open files (EMFILE); try again once some are closed';
    case 'ENFILE':
      return 'the system has too many open files (ENFILE); try again once some are closed';
    case 'EAGAIN':
      return 'the system cannot start another process right now (EAGAIN); try again in a moment';
    case 'ENOENT':
      return `${program ?? 'the program'} or the working folder was not found (ENOENT)`;
    case 'EACCES':
      return `${program ?? 'the program'} may not be run (EACCES)`;
    case 'E2BIG':
      return 'the command and its environment are too long for the system (E2BIG)';
    case 'ENOMEM':
      return 'the system has no memory left to start it (ENOMEM)';
    default:
      return err instanceof Error ? err.message : String(e);
  }
}

function asErrno(e: unknown, file: string): NodeJS.ErrnoException {
  if (e instanceof Error) return e;
  return Object.assign(new Error(`spawn ${file}: ${String(e)}`), { syscall: `spawn ${file}` });
}

/** Which of stdin, stdout, stderr are pipes under `stdio` (Node's default: all three). */
function stdioWanted(stdio: SpawnOptions['stdio']): [boolean, boolean, boolean] {
  if (stdio === undefined || stdio === 'pipe' || stdio === 'overlapped') return [true, true, true];
  if (typeof stdio === 'string') return [false, false, false];
  const at = (i: number) => {
    const s = stdio[i];
    return s === undefined || s === null || s === 'pipe' || s === 'overlapped';
  };
  return [at(0), at(1), at(2)];
}
