// Linux shows the environment a process started with in /proc/PID/environ, and every process of
// the same user may read it there: a tool command the agent runs (`cat /proc/$PPID/environ`, or
// its grandparent's) read the host's API keys although its own environment had none (decision
// 549 for RAWP_TOKEN; decision 668 for every credential). Changing process.env does not change
// that copy, which lies in our own memory from env_start (/proc/self/stat).
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { isSecretVariable } from '../workspace/secretEnv';

/**
 * Overwrites, in the start environment, the value of every variable that is a credential (the tool
 * environment's rule, secretEnv.ts), through /proc/self/mem. process.env keeps each such value (the
 * agents that need their keys still get them): it is set again first, which copies it to the heap,
 * so no pointer of the environment leads to the start copy any more. A variable already deleted
 * (RAWP_TOKEN, resolveServeToken) is only overwritten. Best effort: the number of values
 * overwritten, 0 where that is not possible (not Linux, no /proc).
 */
export function scrubStartEnvironment(isSecret: (name: string, value: string) => boolean = isSecretVariable): number {
  if (process.platform !== 'linux') return 0;
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // Fields after the command name's ')' start at field 3; env_start is field 50.
    const envStart = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[50 - 3]);
    const block = readFileSync('/proc/self/environ');
    if (!Number.isSafeInteger(envStart) || envStart <= 0) return 0;
    const values: [number, number][] = [];
    const moved = new Set<string>();
    for (let at = 0; at < block.length; ) {
      const nul = block.indexOf(0, at);
      const end = nul < 0 ? block.length : nul;
      const eq = block.indexOf(0x3d, at); // '='
      if (eq > at && eq < end) {
        const name = block.subarray(at, eq).toString('utf8');
        if (isSecret(name, block.subarray(eq + 1, end).toString('utf8')) && end > eq + 1) {
          values.push([eq + 1, end]);
          moved.add(name);
        }
      }
      at = end + 1;
    }
    if (values.length === 0) return 0;
    for (const name of moved) {
      const value = process.env[name];
      if (value === undefined) continue;
      delete process.env[name];
      process.env[name] = value;
    }
    const mem = openSync('/proc/self/mem', 'r+');
    try {
      for (const [from, to] of values) writeSync(mem, Buffer.alloc(to - from, 'x'), 0, to - from, envStart + from);
    } finally {
      closeSync(mem);
    }
    return values.length;
  } catch {
    return 0;
  }
}
