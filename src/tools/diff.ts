// The diff of an Edit/MultiEdit/Write result, computed once from the backend's before/after text
// (with the `diff` library) and carried in the result, so no viewer or replay recomputes it.
import { formatPatch, structuredPatch } from 'diff';
import { linearPatch } from './lineDiff';
// Static, not `await import()`: under tsx (the tests) a dynamic import of an extensionless path
// fails, so a Write of a big file failed after writing; the cycle (searchProtocol uses diffOutput)
// only meets at call time.
import { search } from './search/searchClient';
import type { SearchQuery } from './search/searchProtocol';
import { encodeUtf8InTurns } from '../workspace/bytesInTurns';
import type { FsWriteResult } from '../workspace/fsBackend';

/** Myers' diff (minimal, O(N·D)) only while it stays cheap; otherwise the linear diff of lineDiff.ts. */
const MYERS_MAX_LINES = 10_000;
const MYERS_MAX_EDIT = 400;

export interface DiffHunk {
  old_start: number;
  old_lines: number;
  new_start: number;
  new_lines: number;
  /** Lines prefixed with ' ', '-' or '+' (and '\' for "no newline at end of file"). */
  lines: string[];
}

export interface DiffOutput {
  file_path: string;
  created: boolean;
  unified_diff: string;
  hunks: DiffHunk[];
  additions: number;
  deletions: number;
  /** The hunks were cut (a huge change); additions and deletions still count every line. */
  hunks_truncated?: boolean;
}

function lineCount(s: string): number {
  let n = 0;
  for (let i = s.indexOf('\n'); i !== -1; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

export function diffOutput(displayPath: string, before: string, after: string, created: boolean): DiffOutput {
  const oldName = created ? '/dev/null' : `a/${displayPath}`;
  const newName = `b/${displayPath}`;
  const small = lineCount(before) + lineCount(after) <= MYERS_MAX_LINES;
  const myers = small ? structuredPatch(oldName, newName, before, after, '', '', { context: 3, maxEditLength: MYERS_MAX_EDIT }) : undefined;
  if (!myers) {
    // Linear in the file size, whatever the edit (issue 12 finding 2).
    const l = linearPatch(oldName, newName, before, after);
    const hunks = l.patch.hunks.map((h) => ({ old_start: h.oldStart, old_lines: h.oldLines, new_start: h.newStart, new_lines: h.newLines, lines: h.lines }));
    const unified_diff = hunks.length === 0 ? '' : formatPatch(l.patch, { includeIndex: false, includeUnderline: false, includeFileHeaders: true });
    return { file_path: displayPath, created, unified_diff, hunks, additions: l.additions, deletions: l.deletions, ...(l.truncated ? { hunks_truncated: true } : {}) };
  }
  const patch = myers;
  const hunks = patch.hunks.map((h) => ({ old_start: h.oldStart, old_lines: h.oldLines, new_start: h.newStart, new_lines: h.newLines, lines: h.lines }));
  let additions = 0;
  let deletions = 0;
  for (const h of hunks)
    for (const l of h.lines) {
      if (l.startsWith('+')) additions++;
      else if (l.startsWith('-')) deletions++;
    }
  const unified_diff = hunks.length === 0 ? '' : formatPatch(patch, { includeIndex: false, includeUnderline: false, includeFileHeaders: true });
  return { file_path: displayPath, created, unified_diff, hunks, additions, deletions };
}

/** Texts above this size are diffed in the search worker, so the event loop never waits on it. */
const WORKER_DIFF_CHARS = 1_000_000;

/** A big write's diff could not be computed: its worker was restarted after the old bytes were moved to it. */
export class DiffUnavailableError extends Error {
  constructor(
    message: string,
    /** The size of what was written, for the result that says the diff is missing. */
    readonly writtenBytes: number,
  ) {
    super(message);
  }
}

/**
 * The diff of a write result. A big one goes to the worker as the bytes the backend read and wrote,
 * moved (not copied, not encoded again), so the event loop never decodes or clones the old text of
 * a whole-file Write (FsWriteResult.utf8); `before` must not be read after this. Moved bytes are
 * gone from here: if the worker is restarted for another caller before answering, the request
 * cannot be built again, and that is DiffUnavailableError, never a diff against nothing.
 */
export async function writeDiffOutput(displayPath: string, r: FsWriteResult): Promise<DiffOutput> {
  const bytes = r.utf8;
  if (!bytes || bytes.before.byteLength + bytes.after.byteLength <= WORKER_DIFF_CHARS) return diffOutputAsync(displayPath, r.before, r.after, r.created);
  const writtenBytes = bytes.after.byteLength;
  let sent = false;
  return diffInWorker(async () => {
    if (sent) throw new DiffUnavailableError('the diff worker was restarted while it computed this diff', writtenBytes);
    sent = true;
    return { displayPath, beforeUtf8: bytes.before, afterUtf8: bytes.after, created: r.created };
  });
}

/** Whether a write changed the file's content (its bytes, where the backend gave them). */
export function writeChanged(r: FsWriteResult): boolean {
  if (r.created) return true;
  if (!r.utf8) return r.before !== r.after;
  const { before, after } = r.utf8;
  return !Buffer.from(before.buffer, before.byteOffset, before.byteLength).equals(after);
}

/** diffOutput, in the worker for big texts (issue 12 finding 2); the same result either way. */
export async function diffOutputAsync(displayPath: string, before: string, after: string, created: boolean): Promise<DiffOutput> {
  if (before.length + after.length <= WORKER_DIFF_CHARS) return diffOutput(displayPath, before, after, created);
  // Both texts go as UTF-8 bytes (encoded in turns), moved to the worker, never cloned.
  return diffInWorker(async () => ({ displayPath, beforeUtf8: await encodeUtf8InTurns(before), afterUtf8: await encodeUtf8InTurns(after), created }));
}

/** The worker's diff of the request `build` makes (afresh for each attempt: its bytes are moved). */
async function diffInWorker(build: () => Promise<Omit<Extract<SearchQuery, { op: 'diff' }>, 'op'>>): Promise<DiffOutput> {
  const r = await search(async () => ({ op: 'diff', ...(await build()) }));
  if (!r.ok || !r.diff) throw new Error(r.ok ? 'the diff worker returned nothing' : r.message);
  return r.diff;
}
