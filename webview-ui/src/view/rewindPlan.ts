// What "Rewind to before this turn" will do, for its question (decision 612): the host rewinds
// every file this turn and every later turn changed, so the question names them all — it named
// only this turn's files, and a trial's rewind then deleted a 729 KB file of a later turn that was
// never named. Each path is judged by the earliest of those turns that touched it: a file that
// turn created is deleted, anything else goes back to how it was. Files a turn deleted or replaced
// without their old bytes being kept are named as what no rewind brings back.
import type { CheckpointSkipped } from '../../../src/protocol/checkpointFrames';
import type { Turn } from '../../../src/protocol/transcript';

export interface RewindPlan {
  /** Back to how they were before the turn. */
  back: string[];
  /** Deleted: the turn (or a later one) created them. */
  deleted: string[];
  /** Their old bytes were not kept (large, binary, symlink): no rewind brings them back. */
  lost: CheckpointSkipped[];
  /** Later turns that got no checkpoint (off, too slow, failed: decision 645): what they alone changed stays. */
  unrecorded: number;
}

/** The plan of rewinding to before `turns[from]`, from the checkpoints of it and the turns after it. */
export function rewindPlan(turns: readonly Turn[], from: number): RewindPlan {
  const fate = new Map<string, 'back' | 'deleted'>();
  const lost = new Map<string, CheckpointSkipped>();
  const judge = (path: string, f: 'back' | 'deleted') => {
    if (!fate.has(path)) fate.set(path, f);
  };
  let unrecorded = 0;
  for (const turn of turns.slice(Math.max(0, from))) {
    const cp = turn.checkpoint;
    if (!cp) {
      if (turn.unrecorded) unrecorded++;
      continue;
    }
    for (const f of cp.files) {
      if (f.change === 'renamed' && f.from !== undefined) {
        judge(f.from, 'back');
        judge(f.path, 'deleted');
      } else judge(f.path, f.change === 'created' ? 'deleted' : 'back');
    }
    for (const k of cp.skipped) if (k.change !== undefined && !lost.has(k.path)) lost.set(k.path, k);
  }
  const back: string[] = [];
  const deleted: string[] = [];
  for (const [path, f] of [...fate].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) (f === 'back' ? back : deleted).push(path);
  return { back, deleted, lost: [...lost.values()], unrecorded };
}
