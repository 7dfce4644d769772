// Before the permission prompt, an Edit or MultiEdit is tried against the file as it is (decision
// 606): an old_string that is not in the file (FS_EDIT_NOT_FOUND), one that matches several places
// (FS_AMBIGUOUS_EDIT) and an edit that changes nothing (INVALID_INPUT) are refused before anyone is
// asked. They were asked about ("Allow Edit a.txt?") and failed only after "Allow" — the commonest
// doomed edit there is; Claude Code checks the match before it asks too. The backend still checks
// everything again at write time, inside its lock: this check only spares the question.
import type { FsStat, FsTextFile, FsVersion } from '../workspace/fsBackend';
import { notTextFileError, notTextOf } from '../workspace/textOnlyWrites';
import { applyEdits, type EditSpec } from './ledger/match';
import type { FsTarget } from './fsEvents';
import { ToolError, type ToolContext } from './types';

/** Files up to this size are read for the check (the write reads them again); bigger ones are checked at write time only. */
const PREFLIGHT_MATCH_BYTES = 1_000_000;

/** An edit whose old and new strings are equal: refused here and at run time alike. */
export function refuseNoOpEdits(edits: readonly EditSpec[]): void {
  edits.forEach((e, i) => {
    if (e.old_string === e.new_string) throw new ToolError(`${edits.length > 1 ? `edit ${i + 1}: ` : ''}old_string and new_string are the same; nothing to change`, 'INVALID_INPUT');
  });
}

/**
 * Throws what applying `edits` to the file would throw, when it is small enough to read twice and
 * still `version` (the one the ledger's guard names; `st`, refuseDoomedWrite's stat, saw it). A
 * file changed since (or unreadable now) is left to the write, which reports it.
 */
export async function refuseUnmatchedEdits(target: FsTarget & { abs: string }, st: FsStat, version: FsVersion, edits: readonly EditSpec[], ctx: ToolContext): Promise<void> {
  if (st.type !== 'file' || st.size > PREFLIGHT_MATCH_BYTES) return;
  let file: FsTextFile;
  try {
    file = await ctx.fs.readText(target.abs);
    if (file.version !== version) return;
  } catch {
    return;
  }
  // A NUL makes a file binary (decision 602), bytes that are not UTF-8 make it no text at all
  // (decision 608): refused now, as the write would, and for that reason — not for a match found
  // or missing in the decoded text. Read marks such a file in the ledger already; this catches one
  // the ledger knows otherwise (written by the agent itself, read through an ACP agent's bridge).
  const notText = notTextOf(file);
  if (notText) throw notTextFileError(target.displayPath, notText);
  applyEdits(file.text, edits, target.displayPath);
}
