// The diff of an Edit/MultiEdit/Write result, computed once from the backend's before/after text
// (with the `diff` library) and carried in the result, so no viewer or replay recomputes it.
import { formatPatch, structuredPatch } from 'diff';

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
}

export function diffOutput(displayPath: string, before: string, after: string, created: boolean): DiffOutput {
  const patch = structuredPatch(created ? '/dev/null' : `a/${displayPath}`, `b/${displayPath}`, before, after, '', '', { context: 3 });
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
