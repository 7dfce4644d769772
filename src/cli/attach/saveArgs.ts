// What `/save [N] [DIR]` in `rawp attach` asks for (its rough edges were found by a trial):
// N is the file's number as shown (default the newest), DIR the folder to save into (default the
// current one). DIR is typed as a person types a path at a shell: `~` is the home folder, and
// quotes around it are not part of it.

export type SaveArgs = { n: number; dir?: string } | { error: string };

export function parseSaveArgs(args: string, files: number, home: string): SaveArgs {
  const m = /^(-?\d+)(?:\s+(.*))?$/s.exec(args.trim());
  const n = m ? Number(m[1]) : files;
  const rest = (m ? (m[2] ?? '') : args).trim();
  if (!Number.isInteger(n) || n < 1 || n > files) return { error: `there is no file ${m ? m[1] : n}; files 1-${files} were shared` };
  if (!rest) return { n };
  const unquoted = /^(["'])(.*)\1$/s.exec(rest)?.[2] ?? rest;
  const dir = unquoted === '~' ? home : unquoted.startsWith('~/') ? `${home}/${unquoted.slice(2)}` : unquoted;
  return { n, dir };
}
