// Edit and MultiEdit share one path: editIntent (the ledger refuses unread files), then the
// backend's critical section checks the version, matches and replaces atomically. A MultiEdit whose
// any edit fails writes nothing.
import { decodeUtf8, encodeUtf8InTurns } from '../workspace/bytesInTurns';
import { FsError } from '../workspace/fsBackend';
import { diffOutputAsync } from './diff';
import { errorOutcome } from './fsErrors';
import { applyEdits, type AppliedEdits, type EditSpec, type NormalizedMatch } from './ledger/match';
import { search } from './search/searchClient';
import { targetOf } from './paths';
import { refuseDoomedWrite } from './preflightGuard';
import { refuseNoOpEdits, refuseUnmatchedEdits } from './editPreflight';
import { withLinkNote } from './hardLinkNote';
import { ToolError, type ToolContext, type ToolOutcome } from './types';

/** Before asking permission: an edit the ledger will refuse (unread, read as absent, changed since) fails now. */
export async function preflightEdits(filePath: string, edits: readonly EditSpec[], ctx: ToolContext): Promise<void> {
  refuseNoOpEdits(edits);
  if (edits.length === 1 && edits[0].old_string === '') return; // creating a file needs no read
  const target = targetOf(ctx.fs.roots, ctx.cwd, filePath, ctx.fs.rootAliases);
  const guard = ctx.fsEvents.editIntent(target, ctx.actor);
  const st = await refuseDoomedWrite(target, guard, ctx);
  // The strings are looked for now, so a doomed edit is never asked about (decision 606).
  if (edits.some((e) => e.old_string === '')) return; // refused by the run, with its own words
  if (st && guard.kind === 'replaceIfVersion') await refuseUnmatchedEdits(target, st, guard.version, edits, ctx);
}

export async function runEdits(filePath: string, edits: readonly EditSpec[], ctx: ToolContext): Promise<ToolOutcome> {
  const target = targetOf(ctx.fs.roots, ctx.cwd, filePath, ctx.fs.rootAliases);
  try {
    refuseNoOpEdits(edits);
    // Claude Code's convention: an Edit with an empty old_string creates a new file.
    if (edits.length === 1 && edits[0].old_string === '') {
      const guard = ctx.fsEvents.writeIntent(target, ctx.actor);
      const content = edits[0].new_string;
      // Only an empty (or absent) file may be filled this way; never clobber content.
      const r =
        guard.kind === 'replaceIfVersion'
          ? await ctx.fs.updateText(target.abs, guard, (current) => {
              if (current !== '') throw new FsError(`"${target.displayPath}" already has content; an empty old_string only creates files`, 'FS_EXISTS');
              return content;
            })
          : await ctx.fs.writeText(target.abs, content, { kind: 'createIfAbsent' });
      ctx.fsEvents.observed(target, ctx.actor, { kind: 'present', version: r.version });
      return { status: 'success', output: { ...(await diffOutputAsync(target.displayPath, r.before, r.after, r.created)), replacements: 1 }, hints: { changed: true } };
    }
    if (edits.some((e) => e.old_string === '')) throw new ToolError('old_string must not be empty (except for a single Edit that creates a file)', 'INVALID_INPUT');
    const guard = ctx.fsEvents.editIntent(target, ctx.actor);
    let replacements = 0;
    let unicode_normalized: NormalizedMatch[] = [];
    const r = await ctx.fs.updateText(target.abs, guard, async (current) => {
      const applied = await applyEditsOffLoop(current, edits, target.displayPath);
      replacements = applied.replacements;
      unicode_normalized = applied.unicode_normalized;
      return applied.text;
    });
    ctx.fsEvents.observed(target, ctx.actor, { kind: 'present', version: r.version });
    const output = withLinkNote({
      // A big file's diff is computed in the search worker (issue 12 finding 2).
      ...(await diffOutputAsync(target.displayPath, r.before, r.after, false)),
      replacements,
      ...(unicode_normalized.length > 0
        ? {
            unicode_normalized,
            note: `matched after normalizing typographic characters (${[...new Set(unicode_normalized.flatMap((n) => n.folded))].map((c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`).join(', ')}); the replaced text now uses your characters`,
          }
        : {}),
    }, r);
    return { status: 'success', output, hints: { changed: r.before !== r.after } };
  } catch (e) {
    return errorOutcome(e);
  }
}

/** Texts above this size are edited in the search worker, so the event loop never waits on them. */
const WORKER_EDIT_CHARS = 1_000_000;

/** applyEdits, in the worker for big files (issue 12 finding 2); the same result and errors either way. */
async function applyEditsOffLoop(text: string, edits: readonly EditSpec[], displayPath: string): Promise<AppliedEdits> {
  if (text.length <= WORKER_EDIT_CHARS) return applyEdits(text, edits, displayPath);
  // The text goes as UTF-8 bytes (encoded in turns) and comes back as bytes: moved, never cloned.
  const r = await search(async () => ({ op: 'edit', utf8: await encodeUtf8InTurns(text), edits: [...edits], displayPath }));
  if (!r.ok) throw r.fs_code ? new FsError(r.message, r.fs_code) : new Error(r.message);
  if (!r.edited) throw new Error('the edit worker returned nothing');
  const { utf8, ...rest } = r.edited;
  return { ...rest, text: decodeUtf8(utf8) };
}
