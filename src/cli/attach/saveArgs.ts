// What `/save [N] [DIR]` in `rawp attach` asks for (its rough edges were found by a trial):
// N is the file's number as shown (default the newest), DIR the folder to save into (default the
// current one). DIR is typed as a person types a path at a shell: `~` is the home folder, and
// quotes around it are not part of it.
import type { HostLanguage } from '../../protocol/hostPhrases';
import { attachPhrase } from './attachPhrases';

export type SaveArgs = { n: number; dir?: string } | { error: string };

/** `lang`: the language of the error (the terminal's; English by default). */
export function parseSaveArgs(args: string, files: number, home: string, lang: HostLanguage = 'en'): SaveArgs {
  const m = /^(-?\d+)(?:\s+(.*))?$/s.exec(args.trim());
  const n = m ? Number(m[1]) : files;
  const rest = (m ? (m[2] ?? '') : args).trim();
  if (!Number.isInteger(n) || n < 1 || n > files) return { error: attachPhrase('save.no_such_file', [m ? m[1] : n, files], lang) };
  if (!rest) return { n };
  const unquoted = /^(["'])(.*)\1$/s.exec(rest)?.[2] ?? rest;
  const dir = unquoted === '~' ? home : unquoted.startsWith('~/') ? `${home}/${unquoted.slice(2)}` : unquoted;
  return { n, dir };
}
