// Bash: runs a command in the workspace folder, streaming stdout/stderr as `tool.invoke.stream`
// chunks in arrival order. The shell starts in its own process group (detached), so a timeout or a
// cancel kills the whole tree — `sleep 100 &` included — with SIGTERM, then SIGKILL after a grace;
// a supervising pipe kills it when the host dies, and the command gets no secret-looking variable.
// Output is bounded while it streams, both what is kept for the result and what is shown live
// (decision 537).
import { isExecutableFile } from '../workspace/localFiles';
import { startFailureWords, startProcess } from '../workspace/processStart';
import { z } from 'zod';
import { HeadTail } from './shell/headTail';
import { liveOutput } from './shell/liveOutput';
import { SUPERVISOR_SHELL, supervisedArgs } from './shell/supervisor';
import { toolEnvironment } from './shell/toolEnvironment';
import { defineTool, type ToolOutcome } from './types';

export const BashInput = z.object({
  command: z.string().min(1).describe('The command to execute'),
  timeout: z.number().int().min(1).optional().describe('Timeout in milliseconds (default 120000, max 600000)'),
  description: z.string().optional().describe('What the command does, in 5-10 words'),
});

/** Is `shell` an executable file here? Feeds the catalog status of Bash. */
export function shellAvailable(shell: string): { ok: true } | { ok: false; reason: string } {
  if (isExecutableFile(shell)) return { ok: true };
  return { ok: false, reason: `no shell: ${shell} is missing or not executable` };
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is already gone
  }
}

export const BashTool = defineTool({
  name: 'Bash',
  description: 'Runs a shell command in the workspace folder; output streams live. The whole process tree is killed on timeout or cancel.',
  category: 'shell',
  output_type: 'text',
  kind: 'shell',
  requires_approval: true,
  schema: BashInput,
  run(input, ctx) {
    const timeoutMs = Math.min(input.timeout ?? ctx.settings.bashTimeoutMs, ctx.settings.bashMaxTimeoutMs);
    return new Promise<ToolOutcome>((resolve) => {
      const kept = new HeadTail(ctx.settings.maxOutputChars);
      const live = liveOutput(ctx.stream);
      let ended: 'timeout' | 'cancelled' | undefined;
      let killTimer: ReturnType<typeof setTimeout> | undefined;
      let timer: ReturnType<typeof setTimeout> | undefined;
      let pid: number | undefined;
      let done = false;
      const stop = (why: 'timeout' | 'cancelled') => {
        if (ended || pid === undefined) return;
        ended = why;
        killGroup(pid, 'SIGTERM');
        const group = pid;
        killTimer = setTimeout(() => killGroup(group, 'SIGKILL'), ctx.settings.killGraceMs);
      };
      const onAbort = () => stop('cancelled');
      const finish = (code: number | null, signal: NodeJS.Signals | null, startError?: Error) => {
        if (done) return;
        done = true;
        child?.stdin?.destroy();
        clearTimeout(timer);
        ctx.signal.removeEventListener('abort', onAbort);
        if (killTimer) clearTimeout(killTimer);
        if (startError) {
          resolve({ status: 'error', output: `The command could not start: ${startFailureWords(startError)}.`, error_code: 'BASH_SPAWN_FAILED' });
          return;
        }
        const note =
          ended === 'timeout' ? `(command timed out after ${timeoutMs} ms; process group killed)` : ended === 'cancelled' ? '(command cancelled; process group killed)' : code !== 0 ? `(exit code ${code ?? signal})` : '';
        const { text: out, dropped } = kept.text();
        const text = note === '' ? out : out === '' || out.endsWith('\n') ? out + note : `${out}\n${note}`;
        const status = ended ?? (code === 0 ? 'success' : 'error');
        resolve({ status, output: text, ...(dropped > 0 ? { truncated: true } : {}), ...(status === 'error' ? { error_code: 'NONZERO_EXIT' } : {}) });
      };
      // stdin is the supervising pipe (shell/supervisor.ts): the group dies when the host does.
      // Without a POSIX /bin/sh to supervise, the user's shell runs the command directly (no supervision).
      const supervised = isExecutableFile(SUPERVISOR_SHELL);
      const [file, args] = supervised ? [SUPERVISOR_SHELL, supervisedArgs(ctx.settings.shell, input.command)] : [ctx.settings.shell, ['-c', input.command]];
      // The 'error' listener goes on first: a shell that cannot start (the host out of file
      // descriptors or processes) is this command's result, never an unheard 'error' (decision 562).
      const child = startProcess(file, args, { cwd: ctx.cwd, detached: true, stdio: ['pipe', 'pipe', 'pipe'], env: toolEnvironment() }, (e) => {
        // Only a start reports here; a started shell's end is told by 'close'.
        if (pid === undefined) finish(null, null, e);
      });
      if (!child) return;
      pid = child.pid;
      child.stdin!.on('error', () => undefined); // the group may be gone before we close our end
      timer = setTimeout(() => stop('timeout'), timeoutMs);
      if (ctx.signal.aborted) onAbort();
      else ctx.signal.addEventListener('abort', onAbort, { once: true });
      child.stdout!.setEncoding('utf8');
      child.stderr!.setEncoding('utf8');
      child.stdout!.on('data', (chunk: string) => {
        kept.add(chunk);
        live('stdout', chunk);
      });
      child.stderr!.on('data', (chunk: string) => {
        kept.add(chunk);
        live('stderr', chunk);
      });
      // When the shell exits, kill what it left behind (background jobs holding our pipes open);
      // 'close' follows once every pipe has drained.
      child.on('exit', () => killGroup(child.pid, 'SIGKILL'));
      child.on('close', (code, signal) => finish(code, signal));
    });
  },
});
