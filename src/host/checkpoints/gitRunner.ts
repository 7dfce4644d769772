// Runs the real `git` binary for the checkpoints (decision 562 replaces simple-git, decision 330's
// runner, keeping all of its isolation in git.ts). simple-git 3.x touches `spawned.stdout` before it
// listens for 'error': when the host is out of file descriptors, Node's spawn returns a child
// without pipes, simple-git throws a TypeError, and the 'error' that follows on the next tick has
// no listener and ends the host — `rawp serve` and the editor's extension host alike. Here the
// listener is on first (startProcess), so a git that cannot start is one failed git command. What
// simple-git did for us is kept: at most 4 processes at once, a process silent for `timeoutMs` is
// stopped (SIGINT, so git removes its lock files, then SIGKILL), and a command fails when it exits
// with an error and says why on stderr (the message is its output), as simple-git decided it.
import { startFailureWords, startProcess } from '../../workspace/processStart';

export interface GitRunnerOptions {
  /** The folder git runs in. */
  cwd: string;
  /** The whole environment of git (nothing is inherited). */
  env: Record<string, string>;
  /** The git executable (default `git` on the PATH of `env`). */
  binary?: string;
  /** A process silent this long is stopped and its command fails (default 60 s). */
  timeoutMs?: number;
  /** Processes at once (default 4). */
  maxProcesses?: number;
}

/** A failed git command: its output, or why it could not run. */
export class GitCommandError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GitCommandError';
  }
}

const KILL_GRACE_MS = 5_000;

export class GitRunner {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly o: GitRunnerOptions) {}

  /** `git <args>`: its standard output as UTF-8 text; `input` is written to its standard input. */
  async raw(args: readonly string[], input?: Uint8Array): Promise<string> {
    await this.slot();
    try {
      return await this.run(args, input);
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }

  private slot(): Promise<void> {
    if (this.running < (this.o.maxProcesses ?? 4)) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(() => (this.running++, resolve())));
  }

  private run(args: readonly string[], input?: Uint8Array): Promise<string> {
    const binary = this.o.binary ?? 'git';
    const timeoutMs = this.o.timeoutMs ?? 60_000;
    return new Promise((resolve, reject) => {
      const stdout: Buffer[] = [];
      const stderr: Buffer[] = [];
      let settled = false;
      let silence: ReturnType<typeof setTimeout> | undefined;
      let killer: ReturnType<typeof setTimeout> | undefined;
      let timedOut = false;
      const settle = (error?: Error) => {
        if (settled) return;
        settled = true;
        clearTimeout(silence);
        clearTimeout(killer);
        if (error) reject(error);
        else resolve(Buffer.concat(stdout).toString('utf8'));
      };
      let started = false;
      const child = startProcess(binary, args, { cwd: this.o.cwd, env: this.o.env, stdio: [input ? 'pipe' : 'ignore', 'pipe', 'pipe'], windowsHide: true }, (e) => {
        // A start failure; a started git's end is told by 'close' (a failed kill changes nothing).
        if (!started) settle(new GitCommandError(`git ${args[0] ?? ''} could not start: ${startFailureWords(e)}`));
      });
      if (!child) return;
      started = true;
      const stop = () => {
        timedOut = true;
        child.kill('SIGINT');
        killer = setTimeout(() => child.kill('SIGKILL'), KILL_GRACE_MS);
        killer.unref();
      };
      const heard = () => {
        clearTimeout(silence);
        silence = setTimeout(stop, timeoutMs);
      };
      heard();
      if (input) {
        // A git that exits before reading all of it (an error) closes the pipe: its exit says why.
        child.stdin!.on('error', () => undefined);
        child.stdin!.end(input);
      }
      child.stdout!.on('data', (c: Buffer) => (stdout.push(c), heard()));
      child.stderr!.on('data', (c: Buffer) => (stderr.push(c), heard()));
      child.on('close', (code, signal) => {
        if (timedOut) return settle(new GitCommandError(`git ${args[0] ?? ''} was silent for ${timeoutMs} ms and was stopped`));
        if (signal) return settle(new GitCommandError(`git ${args[0] ?? ''} ended by ${signal}`));
        if (code !== 0 && stderr.length > 0) return settle(new GitCommandError(Buffer.concat([...stdout, ...stderr]).toString('utf8')));
        settle();
      });
    });
  }
}
