// The PATH a user's terminal has, for editors whose own PATH is not it (a VS Code server started
// by a service manager, a GUI launched from the dock). Resolved the way VS Code resolves the shell
// environment: the user's `$SHELL -l -i -c` runs a Node one-liner that prints the environment as
// JSON between two random markers (so rc-file chatter on stdout is ignored), bounded by a timeout
// after which the shell's whole process group is killed. Never rejects; cached per shell and HOME.
// Decision 380.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { startFailureWords, startProcess } from '../../workspace/processStart';
import { withoutOurSecrets } from '../../workspace/secretEnv';

export interface LoginShellOptions {
  /** The shell to ask (default: $SHELL; none on Windows). */
  shell?: string;
  /** The environment the shell starts with, less our secrets (default: process.env). */
  env?: NodeJS.ProcessEnv;
  /** How long the shell may take (default 10 s, VS Code's own default). */
  timeoutMs?: number;
  /** The Node executable the one-liner runs with (default: this process's). */
  nodePath?: string;
}

export type LoginShellResult =
  | { ok: true; path: string; ms: number }
  | { ok: false; reason: 'no-shell' | 'timeout' | 'failed'; detail: string; ms: number };

const DEFAULT_TIMEOUT_MS = 10_000;
/** More than any environment; a shell printing without end is cut off, not buffered. */
const MAX_OUTPUT = 1024 * 1024;
const EnvJson = z.record(z.string(), z.string());

const cache = new Map<string, Promise<LoginShellResult>>();

/** The login shell's PATH (once per shell and HOME; `fresh` asks again). */
export function loginShellPath(o: LoginShellOptions = {}, fresh = false): Promise<LoginShellResult> {
  const env = o.env ?? process.env;
  const shell = o.shell ?? env.SHELL;
  const key = `${shell ?? ''}\0${env.HOME ?? ''}\0${o.nodePath ?? ''}`;
  const hit = cache.get(key);
  if (hit && !fresh) return hit;
  const p = askShell({ ...o, shell, env });
  cache.set(key, p);
  return p;
}

function askShell(o: LoginShellOptions & { env: NodeJS.ProcessEnv }): Promise<LoginShellResult> {
  const t0 = Date.now();
  const ms = () => Date.now() - t0;
  if (process.platform === 'win32' || !o.shell) return Promise.resolve({ ok: false, reason: 'no-shell', detail: 'no login shell ($SHELL is not set)', ms: 0 });
  const mark = randomBytes(12).toString('hex');
  const node = o.nodePath ?? process.execPath;
  // The same one-liner as VS Code's: JSON between markers. ELECTRON_RUN_AS_NODE makes an Electron
  // build of VS Code act as Node; quoting is for POSIX shells and fish alike (no $ or backslash).
  const script = `'${node.replace(/'/g, `'\\''`)}' -p '"${mark}" + JSON.stringify(process.env) + "${mark}"'`;
  return new Promise((resolve) => {
    let out = '';
    let done = false;
    let pid: number | undefined;
    const finish = (r: LoginShellResult) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      killGroup(pid);
      resolve(r);
    };
    const timer = setTimeout(() => finish({ ok: false, reason: 'timeout', detail: `${o.shell} -l -i took longer than ${o.timeoutMs ?? DEFAULT_TIMEOUT_MS} ms`, ms: ms() }), o.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    // 'error' is heard before anything else (decision 562): a shell that cannot start — the host
    // out of file descriptors — is a failed lookup, never an unheard 'error'.
    const child = startProcess(
      o.shell!,
      ['-l', '-i', '-c', script],
      {
        // Without our secrets: the user's rc files run here, and whatever they start (decision 555).
        env: { ...withoutOurSecrets(o.env), ELECTRON_RUN_AS_NODE: '1', ELECTRON_NO_ATTACH_CONSOLE: '1', RAWP_RESOLVING_ENVIRONMENT: '1' },
        stdio: ['ignore', 'pipe', 'ignore'],
        detached: true, // its own process group: rc files that start children are killed with it
      },
      (e) => finish({ ok: false, reason: 'failed', detail: `${o.shell} could not start: ${startFailureWords(e)}`, ms: ms() }),
    );
    if (!child) return;
    pid = child.pid;
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      if (out.length < MAX_OUTPUT) out += chunk;
    });
    child.on('close', (code) => {
      const start = out.indexOf(mark);
      const end = out.lastIndexOf(mark);
      if (start < 0 || end <= start) return finish({ ok: false, reason: 'failed', detail: `${o.shell} -l -i exited with ${code} without printing its environment`, ms: ms() });
      let parsed: z.ZodSafeParseResult<Record<string, string>>;
      try {
        parsed = EnvJson.safeParse(JSON.parse(out.slice(start + mark.length, end)));
      } catch {
        return finish({ ok: false, reason: 'failed', detail: `${o.shell} -l -i printed an environment that is not JSON`, ms: ms() });
      }
      if (!parsed.success || !parsed.data.PATH) return finish({ ok: false, reason: 'failed', detail: `${o.shell} -l -i printed no PATH`, ms: ms() });
      finish({ ok: true, path: parsed.data.PATH, ms: ms() });
    });
  });
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    /* already gone */
  }
}
