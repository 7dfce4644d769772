// Descendants that left our process group. Agents start their tools in process groups (even
// sessions) of their own — Claude Code runs each Bash command under a fresh `setsid` — so a
// group kill misses them, and once their parent dies they are re-parented and untraceable by
// ppid. What they keep is the environment they inherited: each agent process gets a unique
// RAWP_PROCESS_TAG, and on stop we signal every process that still carries it (Linux /proc).
import { listDirectoryNames, readBytesOrUndefined, readTextOrUndefined } from '../../workspace/localFiles';
import { randomUUID } from 'node:crypto';

export const PROCESS_TAG_VAR = 'RAWP_PROCESS_TAG';

export function newProcessTag(): string {
  return randomUUID();
}

/**
 * Pids (other than ours) whose environment holds RAWP_PROCESS_TAG=<tag>, leaving out members of
 * `exceptGroup` (signalled through the group already; a second signal is not the same as one).
 * Empty where /proc is absent.
 */
export function taggedPids(tag: string, exceptGroup?: number): number[] {
  const needle = Buffer.from(`${PROCESS_TAG_VAR}=${tag}\0`);
  const out: number[] = [];
  for (const name of listDirectoryNames('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    if (pid === process.pid) continue;
    const env = readBytesOrUndefined(`/proc/${name}/environ`);
    if (env === undefined) continue; // gone meanwhile, or not ours to read
    // Match at a variable boundary: start of the block or right after a NUL.
    const at = env.indexOf(needle);
    if (at !== 0 && !(at > 0 && env[at - 1] === 0)) continue;
    if (exceptGroup !== undefined && groupOf(name) === exceptGroup) continue;
    out.push(pid);
  }
  return out;
}

/** The process group of a pid from /proc/<pid>/stat (field 5, after the parenthesized name). */
function groupOf(pid: string): number | undefined {
  const stat = readTextOrUndefined(`/proc/${pid}/stat`);
  return stat === undefined ? undefined : Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
}

/** Signal every process carrying the tag (outside `exceptGroup`); returns how many. Never throws. */
export function killTagged(tag: string, signal: NodeJS.Signals, exceptGroup?: number): number {
  let n = 0;
  for (const pid of taggedPids(tag, exceptGroup)) {
    try {
      process.kill(pid, signal);
      n++;
    } catch {
      /* already gone */
    }
  }
  return n;
}
