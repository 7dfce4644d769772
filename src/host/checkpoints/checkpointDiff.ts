// The unified diffs of a checkpoint — each file before its turn against the file as it is now —
// for masters that have no diff editor of their own (the browser master; decision 401). Answer of
// `x-rawp.checkpoint.diff`, sent to the asking connection only. Bounded: a file larger than
// MAX_SIDE_BYTES or with a NUL byte gets no text, and the answer stops adding text after
// MAX_TOTAL_CHARS (the rest are listed with `omitted: "budget"`), so no checkpoint can flood a socket.
// The file as it is now is read through the workspace's FsBackend, as every tool reads: a path
// that now goes through a symlink (a branch checked out since, a swap) is refused there, never
// followed out of the workspace (decision 669).
import { join } from 'node:path';
import { createTwoFilesPatch } from 'diff';
import type { CheckpointDiffResultPayload, CheckpointFileDiff } from '../../protocol/checkpointFrames';
import { FsError, type FsBackend } from '../../workspace/fsBackend';
import type { CheckpointService } from './checkpointService';

export const MAX_SIDE_BYTES = 512 * 1024;
export const MAX_TOTAL_CHARS = 2 * 1024 * 1024;

type Side = { text: string } | { omitted: 'binary' | 'large' } | undefined;

async function nowSide(fs: FsBackend, workspace: string, path: string): Promise<Side | { omitted: 'unavailable' }> {
  const abs = join(workspace, ...path.split('/'));
  try {
    const st = await fs.stat(abs);
    if (!st) return undefined; // gone now (deleted by the turn or since)
    if (st.type !== 'file') return { omitted: 'unavailable' }; // a folder or a symlink now
    if (st.size > MAX_SIDE_BYTES) return { omitted: 'large' };
    return textSide((await fs.readText(abs)).text);
  } catch (e) {
    if (e instanceof FsError && e.code === 'FS_NOT_FOUND') return undefined;
    return { omitted: 'unavailable' }; // outside the workspace now, unreadable
  }
}

function sideOf(bytes: Buffer): Side {
  if (bytes.length > MAX_SIDE_BYTES) return { omitted: 'large' };
  return textSide(bytes.toString('utf8'));
}

function textSide(text: string): Side {
  if (text.length > MAX_SIDE_BYTES) return { omitted: 'large' };
  if (text.slice(0, 8000).includes('\0')) return { omitted: 'binary' };
  return { text };
}

export async function checkpointDiff(service: CheckpointService, session_id: string, checkpoint_id: string): Promise<CheckpointDiffResultPayload> {
  const rec = service.get(checkpoint_id);
  if (!rec || rec.session_id !== session_id) return { checkpoint_id, files: [], error: { code: 'CHECKPOINT_NOT_FOUND', message: `session ${session_id} has no checkpoint ${checkpoint_id}` } };
  let budget = MAX_TOTAL_CHARS;
  const files: CheckpointFileDiff[] = [];
  for (const f of rec.files) {
    const base: CheckpointFileDiff = { path: f.path, change: f.change, ...(f.from ? { from: f.from } : {}) };
    if (budget <= 0) {
      files.push({ ...base, omitted: 'budget' });
      continue;
    }
    let before: Side;
    try {
      const text = f.change === 'created' ? undefined : await service.textAt(checkpoint_id, f.from ?? f.path, 'before');
      before = text === undefined ? undefined : sideOf(Buffer.from(text, 'utf8'));
    } catch {
      files.push({ ...base, omitted: 'unavailable' });
      continue;
    }
    const now = await nowSide(service.workspaceFs(), service.workspace, f.path);
    const omitted = (before && 'omitted' in before && before.omitted) || (now && 'omitted' in now && now.omitted);
    if (omitted) {
      files.push({ ...base, omitted });
      continue;
    }
    const a = before && 'text' in before ? before.text : undefined;
    const b = now && 'text' in now ? now.text : undefined;
    const patch = createTwoFilesPatch(a === undefined ? '/dev/null' : `a/${f.from ?? f.path}`, b === undefined ? '/dev/null' : `b/${f.path}`, a ?? '', b ?? '');
    budget -= patch.length;
    files.push({ ...base, unified_diff: patch });
  }
  return { checkpoint_id, files };
}
