// A start-up request to an ACP agent (initialize, session/new, session/load, authenticate) is
// answered, or fails with a reason the user can act on: the agent exited (with the last line of
// its stderr), or it did not answer in time.
import type { AgentProcess } from '../process';

export async function untilAnswered<T>(p: Promise<T>, proc: AgentProcess, what: string, agentName: string, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      p,
      proc.exited.then((exit) => {
        throw new Error(`${agentName} exited during ${what} (${exit.spawnError ?? `code ${exit.code ?? exit.signal}`})${lastLine(exit.stderr)}`);
      }),
      new Promise<never>((_, rej) => {
        timer = setTimeout(() => rej(new Error(`${agentName} did not answer ${what} within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
  } finally {
    if (timer) clearTimeout(timer);
  }
}

function lastLine(stderr: string): string {
  const l = stderr.split('\n').filter((s) => s.trim()).pop();
  return l ? `: ${l.trim().slice(0, 300)}` : '';
}
