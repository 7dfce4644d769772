// Process checks shared by tests that start and kill real processes.
import { readFileSync } from 'node:fs';

/** Is `pid` a running process? A zombie (dead, not yet reaped by its parent) counts as gone. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false; // gone between the two checks
  }
}
