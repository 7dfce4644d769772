// One file of a Grep (decision 577). The FsBackend has only whole reads, so a file is read whole,
// up to GREP_MAX_FILE_BYTES (a bigger one is not read, and the result names it); its text then goes
// to the search worker in pieces that end at a line break. Each piece is a few hundred KB: cloning
// it holds the event loop well under a millisecond (the whole 50 MB text in one message held it
// ~190 ms here), and the worker holds one piece at a time, not a second copy of the file.
import { encodeUtf8InTurns } from '../workspace/bytesInTurns';
import { FsError, type FsBackend, type FsTime } from '../workspace/fsBackend';
import type { GrepMode, GrepPieceResult } from './search/grepPiece';
import type { RegexOptions } from './search/linearRegex';
import type { SearchQuery } from './search/searchProtocol';
import { sizeBeforeRead } from './sizeBeforeRead';

/**
 * The biggest file Grep reads: Read's limit (decision 539). The backend decodes a file whole on
 * the event loop (~4 ms a MB here), so this bounds the longest block a search can cause to what a
 * Read can, as well as its memory: the whole text (one or two bytes a character) plus the
 * backend's bytes while it decodes them.
 */
export const GREP_MAX_FILE_BYTES = 32 * 1024 * 1024;

/** Characters per piece sent to the worker (a longer single line goes whole, as moved bytes). */
export const PIECE_CHARS = 256 * 1024;

export type GrepRead =
  | { text: string }
  | { skipped: 'too_big'; size: number }
  /** `error`, when the backend threw one: a search of that one file fails with it, as before. */
  | { skipped: 'unreadable'; why: string; error?: FsError };

/**
 * A file's text for Grep, or why it is not searched. `known`: its type and size from the backend's
 * `times`; without it they are asked for (sizeBeforeRead.ts: never `stat`, which reads and hashes
 * the whole file for the ledger's version before readText reads it again).
 */
export async function readForGrep(fs: FsBackend, path: string, known?: Pick<FsTime, 'type' | 'size'>): Promise<GrepRead> {
  try {
    const st = known?.type === 'file' ? known : await sizeBeforeRead(fs, path);
    if (!st) return { skipped: 'unreadable', why: 'FS_NOT_FOUND' };
    if (st.type !== 'file') return { skipped: 'unreadable', why: `no longer a file (${st.type})` };
    if (st.size > GREP_MAX_FILE_BYTES) return { skipped: 'too_big', size: st.size };
    const { text } = await fs.readText(path);
    // The file may have grown since the stat; a UTF-16 length is at most the UTF-8 byte count.
    if (text.length > GREP_MAX_FILE_BYTES) return { skipped: 'too_big', size: text.length };
    return { text };
  } catch (e) {
    if (e instanceof FsError) return { skipped: 'unreadable', why: e.code, error: e };
    throw e;
  }
}

/** Paths whose times are asked for at once: a bounded lookahead, so a 50,000-file walk holds 256. */
const TIMES_AHEAD = 256;

/**
 * The type and size of `paths[i]` from the backend's `times`, asked for a slice ahead at a time;
 * undefined when the backend has no times or gives none for it (then readForGrep stats it, which
 * also names why it cannot be read).
 */
export function timesAhead(fs: FsBackend, paths: readonly string[], signal: AbortSignal): (i: number) => Promise<FsTime | undefined> {
  let from = -1;
  let slice: Promise<(FsTime | undefined)[]> | undefined;
  return async (i) => {
    if (!fs.times || paths.length < 2) return undefined;
    if (slice === undefined || i < from || i >= from + TIMES_AHEAD) {
      from = i;
      // A failure here (FS_IO) is not the file's: the file is then statted as before.
      slice = fs.times(paths.slice(i, i + TIMES_AHEAD), signal).catch(() => []);
    }
    return (await slice)[i - from];
  };
}

export interface FileHits {
  /** As GrepPieceResult.count, summed over the pieces searched. */
  count: number;
  binary: boolean;
  /** content: 0-based lines of the first matching lines, ascending, and where each starts in the text. */
  lines: number[];
  starts: number[];
}

export interface GrepQuery {
  pattern: string;
  options: RegexOptions;
  mode: GrepMode;
}

export type AskPiece = (q: SearchQuery | (() => Promise<SearchQuery>)) => Promise<GrepPieceResult>;

/**
 * Searches one file's text: at most `want` positions (content mode), and the count of every
 * piece searched. `wholeText`: the pattern can span lines or sees the text's edges, so the text
 * goes in one request. Stops early at files_with_matches' first match, or when `enough` says so
 * (head_limit). The caller checks its signal between files; the worker requests reject on it.
 */
export async function searchFileText(text: string, q: GrepQuery, want: number, wholeText: boolean, ask: AskPiece, enough: (h: FileHits) => boolean = () => false): Promise<FileHits> {
  const hits: FileHits = { count: 0, binary: false, lines: [], starts: [] };
  let line = 0;
  for (let at = 0; at < text.length; ) {
    const end = wholeText ? text.length : pieceEnd(text, at);
    const rest = hits.binary ? 0 : Math.max(0, want - hits.lines.length);
    const r = await ask(
      end - at <= PIECE_CHARS
        ? { op: 'grep', ...q, text: text.slice(at, end), want: rest }
        : async () => ({ op: 'grep', ...q, utf8: await encodeUtf8InTurns(text.slice(at, end)), want: rest }),
    );
    hits.count += r.count;
    if (r.binary) hits.binary = true;
    const lines = r.lines ?? [];
    for (let i = 0; i < lines.length && hits.lines.length < want; i++) {
      hits.lines.push(line + lines[i]);
      hits.starts.push(at + r.starts![i]);
    }
    line += r.breaks ?? 0;
    at = end;
    if ((q.mode === 'files_with_matches' && hits.count > 0) || enough(hits)) break;
  }
  return hits;
}

/** Where the piece from `at` ends: after the last line break within PIECE_CHARS, or after the one line that is longer. */
export function pieceEnd(text: string, at: number): number {
  const end = at + PIECE_CHARS;
  if (end >= text.length) return text.length;
  const nl = text.lastIndexOf('\n', end - 1);
  if (nl >= at) return nl + 1;
  const next = text.indexOf('\n', end);
  return next === -1 ? text.length : next + 1;
}
