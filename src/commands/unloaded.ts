// The command files that were found but not loaded, as every master gets them with the command
// list (`agent.commands.publish`'s `unloaded`, decision 721): the user typed `/mycmd`, it was not
// there, and nothing said why. Each is named by a path no master can learn the home from
// (workspace-relative, or `~/…`) and a reason code our views word in their language, with the same
// in English for everyone else. Bounded: the first UNLOADED_LISTED_MAX, and how many in all.
import { basename, relative, sep } from 'node:path';
import type { PayloadOf } from '../protocol/frameTypes';
import { UNLOADED_LISTED_MAX } from '../protocol/payloads/agent';
import { cutAt, lastUnits } from '../protocol/cutText';
import { leavesRoot } from '../workspace/leavesRoot';
import type { CommandDiagnostic, LoadContext, UnloadedReason } from './types';

export type UnloadedFiles = NonNullable<PayloadOf<'agent.commands.publish'>['unloaded']>;
export { UNLOADED_LISTED_MAX };

/** A shown path longer than this keeps its end (the file's name): a line in a menu. */
export const UNLOADED_PATH_MAX = 300;
/** The parser's words or an errno code: one line, cut. */
export const UNLOADED_DETAIL_MAX = 200;

/** The English of each reason: a clause that follows the file's path. */
export const UNLOADED_WORDS: Record<UnloadedReason, string> = {
  frontmatter_invalid: 'its frontmatter is not valid YAML',
  frontmatter_too_big: 'its frontmatter is too big to read',
  file_too_big: 'the file is larger than 256 KiB',
  link_out: 'it is a symlink that leads out of the workspace',
  folder_link_out: 'its commands folder is a symlink that leads out of the workspace',
  folder_link_root: 'its commands folder is a symlink to the workspace folder itself',
  not_a_file: 'it is not a regular file',
  unreadable: 'it could not be read',
  invalid_name: 'its name has a space or starts with "/", so it cannot be typed as a command',
  plugin_list: 'the list of installed Claude Code plugins could not be read',
  provider_failed: 'the commands of this source could not be listed',
};

/** The errno code of a failed read (`EACCES: permission denied, open '/home/…'` → `EACCES`): the rest names the path. */
export function errnoDetail(message: string): { detail?: string } {
  const code = /^(E[A-Z0-9]+)\b/.exec(message)?.[1];
  return code ? { detail: code } : {};
}

const posix = (p: string) => p.split(sep).join('/');

/**
 * `path` as a master may see it: relative to the workspace folder it is in (named first when there
 * are several, as VS Code names files of a multi-root workspace), else `~/…` in the home, else only
 * its last two parts. Never the absolute path: it names the user and the machine's layout.
 */
export function shownPath(path: string, ctx: LoadContext): string {
  let shown: string | undefined;
  for (const folder of ctx.workspaceFolders) {
    const rel = relative(folder, path);
    if (rel === '' || leavesRoot(rel)) continue;
    shown = ctx.workspaceFolders.length > 1 ? `${basename(folder)}/${posix(rel)}` : posix(rel);
    break;
  }
  if (shown === undefined) {
    const rel = relative(ctx.home, path);
    shown = rel !== '' && !leavesRoot(rel) ? `~/${posix(rel)}` : `…/${posix(path).split('/').slice(-2).join('/')}`;
  }
  return shown.length > UNLOADED_PATH_MAX ? `…${lastUnits(shown, UNLOADED_PATH_MAX - 1)}` : shown;
}

function oneLine(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${cutAt(line, max)}...` : line;
}

/** The published `unloaded` of a load's diagnostics, or undefined when every command file loaded. */
export function unloadedFiles(diagnostics: readonly CommandDiagnostic[], ctx: LoadContext): UnloadedFiles | undefined {
  const seen = new Set<string>();
  const files: UnloadedFiles['files'] = [];
  let total = 0;
  for (const d of diagnostics) {
    if (!d.reason) continue;
    const path = d.path !== undefined ? shownPath(d.path, ctx) : undefined;
    const key = `${d.reason}\0${path ?? ''}\0${d.detail ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    total++;
    if (files.length >= UNLOADED_LISTED_MAX) continue;
    const detail = d.detail !== undefined ? oneLine(d.detail, UNLOADED_DETAIL_MAX) : undefined;
    files.push({
      ...(path !== undefined ? { path } : {}),
      reason: d.reason,
      message: detail ? `${UNLOADED_WORDS[d.reason]} (${detail})` : UNLOADED_WORDS[d.reason],
      ...(detail ? { detail } : {}),
    });
  }
  return total > 0 ? { total, files } : undefined;
}
