// One agent child process under the §17.2 contract: RAWP env, its own process group (so stopping
// kills the launcher *and* every native child it started), bounded stderr, JSON-lines stdout,
// SIGTERM -> SIGKILL after a grace period, and a last SIGKILL to the group when the leader exits
// so nothing is ever orphaned. Descendants that moved to groups of their own are found by the
// RAWP_PROCESS_TAG they inherited (taggedProcesses.ts) and signalled with the group.
import type { ChildProcess } from 'node:child_process';
import { startFailureWords, startProcess } from '../../workspace/processStart';
import { BoundedText } from './boundedText';
import { childEnv, type RawpEnvInput } from './env';
import type { ExitInfo } from './exitMapping';
import { JsonLineReader } from './jsonLines';
import { PROCESS_TAG_VAR, killTagged, newProcessTag } from './taggedProcesses';

export interface AgentProcessSpec extends RawpEnvInput {
  command: string;
  args: string[];
  /** Working directory; defaults to the workspace. */
  cwd?: string;
  /** Extra variables (undefined deletes one from the inherited environment). */
  env?: Record<string, string | undefined>;
  /** Base environment; defaults to `process.env`. */
  baseEnv?: NodeJS.ProcessEnv;
  /** §17.2.3 grace period between SIGTERM and SIGKILL (5 s; tests shorten it). */
  killGraceMs?: number;
  onMessage?(value: unknown, line: string): void;
  onBadLine?(line: string, reason: string): void;
  onStderr?(chunk: string): void;
}

/** Every live group we started (pgid -> tag), so they die with us even if the host crashes out. */
const liveGroups = new Map<number, string>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const [pgid, tag] of liveGroups) {
      killGroup(pgid, 'SIGKILL');
      killTagged(tag, 'SIGKILL');
    }
  });
}

/** Signal a whole process group; false when it no longer exists. Never throws. */
export function killGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

export class AgentProcess {
  readonly pid: number | undefined;
  /** The command as spawned (for messages). */
  readonly command: string;
  /** RAWP_PROCESS_TAG of this process and everything it starts. */
  readonly tag = newProcessTag();
  /** Resolves once the process has exited and its stdout was read to the end. Never rejects. */
  readonly exited: Promise<ExitInfo>;
  /** Undefined when it could not start. */
  private readonly child: ChildProcess | undefined;
  private readonly stderrBuf = new BoundedText();
  private exitInfo: ExitInfo | undefined;
  private stopping: Promise<ExitInfo> | undefined;
  private readonly killGraceMs: number;

  constructor(spec: AgentProcessSpec) {
    this.killGraceMs = spec.killGraceMs ?? 5000;
    this.command = spec.command;
    installExitHook();
    const reader = new JsonLineReader({
      onMessage: (v, l) => spec.onMessage?.(v, l),
      onBadLine: (l, r) => spec.onBadLine?.(l, r),
    });
    let spawnError: string | undefined;
    let exitCode: number | null = null;
    let exitSignal: NodeJS.Signals | null = null;
    let settle!: () => void;
    this.exited = new Promise<ExitInfo>((resolve) => {
      let settled = false;
      settle = () => {
        if (settled) return;
        settled = true;
        reader.end();
        if (this.pid !== undefined) liveGroups.delete(this.pid);
        this.exitInfo = { code: exitCode, signal: exitSignal, stderr: this.stderrBuf.text(), ...(spawnError !== undefined ? { spawnError } : {}) };
        resolve(this.exitInfo);
      };
    });
    // The 'error' listener is on before anything touches the child (startProcess): an agent that
    // cannot start — missing, or the host out of file descriptors — ends with spawnError, the
    // agent start failure every adapter reports, instead of an unheard 'error' (decision 562).
    const child = startProcess(
      spec.command,
      spec.args,
      {
        cwd: spec.cwd ?? spec.workspacePath,
        env: { ...childEnv(spec, spec.env, spec.baseEnv), [PROCESS_TAG_VAR]: this.tag },
        stdio: ['pipe', 'pipe', 'pipe'],
        // Its own process group: stop() signals -pid and reaches grandchildren too.
        detached: true,
      },
      (e) => {
        // A start failure (no 'exit' follows); a failed kill leaves the process running.
        if (this.pid === undefined || e.syscall?.startsWith('spawn')) {
          spawnError = startFailureWords(e);
          settle();
        }
      },
    );
    this.child = child;
    this.pid = child?.pid;
    if (!child) return;
    liveGroups.set(child.pid, this.tag);

    child.stdout!.on('data', (c: Buffer) => reader.push(c));
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (c: string) => {
      this.stderrBuf.append(c);
      spec.onStderr?.(c);
    });
    // Writing to a dead child's stdin gives EPIPE; the exit tells the real story.
    child.stdin!.on('error', () => {});
    child.on('exit', (code, signal) => {
      exitCode = code;
      exitSignal = signal;
      // The leader is gone: anything left in its group, or tagged as its descendant, is an
      // orphan-to-be. Kill it now.
      killGroup(child.pid, 'SIGKILL');
      killTagged(this.tag, 'SIGKILL');
      // Read stdout to its end, but do not wait forever on a pipe someone outside kept open.
      const t = setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        settle();
      }, 2000);
      t.unref();
    });
    child.on('close', settle);
  }

  static spawn(spec: AgentProcessSpec): AgentProcess {
    return new AgentProcess(spec);
  }

  get running(): boolean {
    return this.exitInfo === undefined && this.pid !== undefined;
  }

  /** Stderr so far (bounded). */
  stderr(): string {
    return this.stderrBuf.text();
  }

  /** Write one JSON value as a line to stdin. False when the process no longer reads. */
  send(value: unknown): boolean {
    return this.writeRaw(JSON.stringify(value) + '\n');
  }

  writeRaw(text: string): boolean {
    const stdin = this.child?.stdin;
    if (!stdin || stdin.destroyed || !stdin.writable || !this.running) return false;
    stdin.write(text);
    return true;
  }

  /** Close stdin (many agents then finish and exit on their own). */
  endInput(): void {
    this.child?.stdin?.end();
  }

  /** Send a signal to the whole group and to every tagged descendant outside it. */
  signal(sig: NodeJS.Signals): boolean {
    if (this.pid === undefined || !this.running) return false;
    const hit = killGroup(this.pid, sig);
    killTagged(this.tag, sig, this.pid);
    return hit;
  }

  /**
   * §17.2.3: SIGTERM to the group, SIGKILL after the grace period, resolve when the process has
   * exited. Idempotent; safe after exit.
   */
  stop(graceMs = this.killGraceMs): Promise<ExitInfo> {
    if (this.stopping) return this.stopping;
    if (!this.running) return (this.stopping = this.exited);
    this.signal('SIGTERM');
    const timer = setTimeout(() => {
      if (this.pid !== undefined) killGroup(this.pid, 'SIGKILL');
      killTagged(this.tag, 'SIGKILL');
    }, graceMs);
    this.stopping = this.exited.finally(() => clearTimeout(timer));
    return this.stopping;
  }

  /** SIGKILL the group at once. */
  kill(): Promise<ExitInfo> {
    this.signal('SIGKILL');
    return this.exited;
  }
}
