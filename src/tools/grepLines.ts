// The lines Grep shows (decision 577): cut out of a file's text at the match positions the worker
// found, with context as merged ranges (decision 538), and gathered up to the output's size. The
// work is in proportion to the lines shown, never to the file: no split of the whole text into
// lines (a 60 MB file of short lines made millions of strings), no line longer than the room left.
import { contextRanges } from './search/contextRanges';

export interface LineAt {
  /** 0-based line number. */
  line: number;
  start: number;
  /** Where the line's text ends (before its LF, or its CRLF). */
  end: number;
  /** A match starts on this line (else it is context). */
  match: boolean;
}

/** The start of the line before the one starting at `start` (which must not be the first). */
function previousLineStart(text: string, start: number): number {
  return start <= 1 ? 0 : text.lastIndexOf('\n', start - 2) + 1;
}

/**
 * The lines within `before`/`after` lines of the matches at `lines` (ascending, each starting at
 * `starts`), each once, in order, ending with the file's last line (the place after a final line
 * break is not a line). A generator: the caller stops it when the output is full.
 */
export function* linesAround(text: string, lines: readonly number[], starts: readonly number[], before: number, after: number): Generator<LineAt> {
  let k = 0; // the first match not shown yet: the one that opens the next range
  for (const [from, to] of contextRanges(lines, before, after, Number.MAX_SAFE_INTEGER)) {
    let start = starts[k];
    for (let n = lines[k]; n > from; n--) start = previousLineStart(text, start);
    for (let n = from; n <= to; n++) {
      const nl = text.indexOf('\n', start);
      const end = nl === -1 ? text.length : nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
      while (k < lines.length && lines[k] < n) k++;
      yield { line: n, start, end, match: lines[k] === n };
      if (nl === -1 || nl + 1 === text.length) return;
      start = nl + 1;
    }
    while (k < lines.length && lines[k] <= to) k++;
  }
}

/** Output lines gathered up to a number of characters and, for content mode, head_limit. */
export class ShownLines {
  readonly lines: string[] = [];
  /** Why a line was refused: the characters ran out, or head_limit was reached. */
  cut: 'chars' | 'limit' | undefined;
  private chars = 0;

  constructor(
    readonly maxChars: number,
    readonly maxLines = Infinity,
  ) {}

  /** Characters a next line may still have (a longer one is shown cut there). */
  get charsLeft(): number {
    return Math.max(0, this.maxChars - this.chars - (this.lines.length > 0 ? 1 : 0));
  }

  /**
   * At most how many more match positions are worth asking for: each shows as a line of at least
   * two characters and a line break; one more than fits, so that a cut is seen.
   */
  get positionsWanted(): number {
    if (this.cut) return 0;
    return Math.min(this.maxLines - this.lines.length, Math.floor(this.charsLeft / 2)) + 1;
  }

  /** Adds a line, or as much of it as fits; false when it did not fit whole (nothing more is taken). */
  push(line: string): boolean {
    if (this.cut) return false;
    if (this.lines.length >= this.maxLines) {
      this.cut = 'limit';
      return false;
    }
    const free = this.charsLeft;
    if (line.length > free) {
      if (free > 0) this.add(line.slice(0, free));
      this.cut = 'chars';
      return false;
    }
    this.add(line);
    return true;
  }

  private add(line: string): void {
    this.chars += line.length + (this.lines.length > 0 ? 1 : 0);
    this.lines.push(line);
  }
}
