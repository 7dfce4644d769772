// What a Grep result says besides its lines (decision 577): the true number of matches whenever the
// lines shown are not all of them (cut output, head_limit, context lines, binary files), and the
// files it did not search, by name, so "no matches" is never said of a file that was not read.
// grepTally reads the count back for the built-in agent's reply; the tally line has no colon, so no
// result line (each is `path:…`) can pass for it.

/** How a name appears in a text result: one line, always (a name may hold a line break). */
export function textPath(p: string): string {
  return /[\u0000-\u001f\u007f\u2028\u2029]/.test(p) ? JSON.stringify(p) : p;
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

export interface Tally {
  /** Matching lines (content mode), matches (count mode) or matching files (files mode). */
  total: number;
  files: number;
  /** The search stopped at head_limit: there may be more. */
  atLeast: boolean;
  /** How many of the matching lines the output shows (content mode). */
  shown?: number;
  cut?: 'chars' | 'limit';
  maxChars: number;
  headLimit?: number;
  notSearched: number;
  /** The folder walk stopped at its limit: files past it were not searched (their number is unknown). */
  walkCut?: number;
}

/** The tally line of a content, count or files result. */
export function tallyLine(mode: 'content' | 'count' | 'files_with_matches', t: Tally): string {
  const least = t.atLeast ? 'at least ' : '';
  let s: string;
  if (mode === 'files_with_matches') s = t.total === 0 ? 'no matching files' : `${least}${plural(t.total, 'matching file')}`;
  else if (t.total === 0) s = mode === 'content' ? 'no matching lines' : 'no matches';
  else s = `${least}${mode === 'content' ? plural(t.total, 'matching line') : plural(t.total, 'match', 'matches')} in ${plural(t.files, 'file')}`;
  if (t.shown !== undefined && t.shown < t.total) s += `; ${t.shown} shown`;
  if (t.cut === 'chars') s += `, the output is cut at ${t.maxChars} characters`;
  if (t.cut === 'limit') s += `, head_limit ${t.headLimit} reached`;
  if (t.notSearched > 0) s += `; ${plural(t.notSearched, 'file')} not searched`;
  if (t.walkCut !== undefined) s += `; the files past the first ${t.walkCut} not searched`;
  return `(${s})`;
}

const NOTE_PREFIXES = ['(not searched', '(context lowered'];
const TALLY = /^\((at least )?(?:no matching lines|(\d+) matching lines? in \d+ files?)(?:[;,][^:]*)?\)$/;
const NOT_SEARCHED = /; (\d+) files? not searched[;)]/;
const WALK_CUT = /; the files past the first \d+ not searched\)$/;

/**
 * The count a content result's tally gives, if it has one: the line after its lines, before the
 * notes. Without one, each line of the result is one matching line (or it is "(no matches)").
 */
export function grepTally(output: string): { matches: number; atLeast: boolean; notSearched: number; more?: true } | undefined {
  let end = output.length;
  for (let guard = 0; guard < 8 && end > 0; guard++) {
    const start = output.lastIndexOf('\n', end - 1) + 1;
    const line = output.slice(start, end);
    end = start - 1;
    if (NOTE_PREFIXES.some((p) => line.startsWith(p))) continue;
    const m = line.length < 400 ? TALLY.exec(line) : null;
    if (!m) return undefined;
    const tally = { matches: m[2] === undefined ? 0 : Number(m[2]), atLeast: m[1] !== undefined, notSearched: Number(NOT_SEARCHED.exec(line)?.[1] ?? 0) };
    return WALK_CUT.test(line) ? { ...tally, more: true } : tally;
  }
  return undefined;
}

const NAMES_SHOWN = 5;

/** Files a search did not read, and why; said in the result, one note a reason. */
export class Unsearched {
  private readonly big: string[] = [];
  private firstBig = '';
  private readonly unreadable: string[] = [];
  private bigCount = 0;
  private unreadableCount = 0;

  /** Set when the folder walk stopped at this many files. */
  walkCut: number | undefined;

  get count(): number {
    return this.bigCount + this.unreadableCount;
  }

  tooBig(name: string, size: number): void {
    if (this.bigCount === 0) this.firstBig = name;
    if (this.bigCount++ < NAMES_SHOWN) this.big.push(`${clipName(name)} (${mb(size)})`);
  }

  cannotRead(name: string, why: string): void {
    // A name that is not UTF-8 reaches us with U+FFFD in it, and no file has that name.
    const reason = why === 'FS_NOT_FOUND' && name.includes('\uFFFD') ? 'its name is not valid UTF-8, so it cannot be opened by name' : why === 'FS_NOT_FOUND' ? 'gone before it was read' : why;
    if (this.unreadableCount++ < NAMES_SHOWN) this.unreadable.push(`${clipName(name)} (${reason})`);
  }

  /** The notes, each one line starting "(not searched". */
  notes(maxBytes: number): string[] {
    const out: string[] = [];
    if (this.bigCount > 0) {
      out.push(`(not searched, over the ${mb(maxBytes)} Grep reads: ${list(this.big, this.bigCount)} — search such a file with Bash, e.g. \`grep -n PATTERN ${clipName(shellQuote(this.firstBig))}\`)`);
    }
    if (this.unreadableCount > 0) out.push(`(not searched, could not be read: ${list(this.unreadable, this.unreadableCount)})`);
    if (this.walkCut !== undefined) out.push(`(not searched, past the first ${this.walkCut} files of the folder, where the walk stops: give Grep a narrower path or an include glob)`);
    return out;
  }
}

function list(names: string[], count: number): string {
  return names.join(', ') + (count > names.length ? `, and ${count - names.length} more` : '');
}

function clipName(name: string): string {
  const t = textPath(name);
  return t.length <= 300 ? t : `${t.slice(0, 300)}…`;
}

function shellQuote(s: string): string {
  return /^[\w./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

function mb(n: number): string {
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}
