// A hunk's `@@ -a,b +c,d @@` line, as git writes it (decision 690). The hunks we get as numbers
// (our tools' `hunks`, Claude Code's structuredPatch) follow the diff library: a side with no
// lines still starts at 1, so a new file read `@@ -1,0 +1,1 @@`. In a unified diff an empty side
// names the line before it (0 for an empty file): `@@ -0,0 +1,1 @@`, the line git and every
// patch tool print, and the one our `unified_diff` texts already carry (formatPatch).

export interface HunkRange {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
}

/** The start to print for a side: one less when it has no lines, never below 0 (a start already 0 stays). */
function printedStart(start: number, lines: number): number {
  return lines === 0 ? Math.max(0, start - 1) : start;
}

export function hunkHeader(h: HunkRange): string {
  return `@@ -${printedStart(h.oldStart, h.oldLines)},${h.oldLines} +${printedStart(h.newStart, h.newLines)},${h.newLines} @@`;
}
