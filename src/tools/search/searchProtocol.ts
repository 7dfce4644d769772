// Messages between the Grep/Glob tools and the search worker, and the handler the worker (or, if no
// worker can start, the caller itself) runs. Compiled regexes are cached by pattern and flags, so a
// search over thousands of files compiles once.
import type { RE2JS } from 're2js';
import { FsError, type FsErrorCode } from '../../workspace/fsBackend';
import { diffOutput, type DiffOutput } from '../diff';
import { applyEdits, type AppliedEdits, type EditSpec } from '../ledger/match';
import { GlobSyntaxError } from '../../workspace/globRegex';
import { compileLinear, globFilter, RegexSyntaxError, type RegexOptions } from './linearRegex';
import { grepPiece, type GrepMode, type GrepPieceResult } from './grepPiece';
import { decodeUtf8 } from '../../workspace/bytesInTurns';

export type SearchQuery =
  /**
   * One piece of a file for Grep (grepPiece.ts), with at most `want` match positions back. A piece
   * of up to a few hundred KB travels as text; a longer one (a whole file for a pattern that spans
   * lines, one very long line) as UTF-8 bytes encoded in turns and moved, not cloned in one go.
   */
  | { op: 'grep'; pattern: string; options: RegexOptions; mode: GrepMode; text?: string; utf8?: Uint8Array; want?: number }
  /** Paths matching any of `globs`. */
  | { op: 'glob'; globs: string[]; paths: string[]; orBasename: boolean }
  /**
   * A big file's edits (ledger/match.ts applyEdits), off the event loop. Texts travel as UTF-8
   * bytes that are moved to the worker, not copied: cloning a 20 MB string held the loop ~20 ms.
   */
  | { op: 'edit'; utf8: Uint8Array; edits: EditSpec[]; displayPath: string }
  /** The diff of a big edit (diff.ts), off the event loop; both texts as moved UTF-8 bytes. */
  | { op: 'diff'; displayPath: string; beforeUtf8: Uint8Array; afterUtf8: Uint8Array; created: boolean };

/** applyEdits' result with the new text as UTF-8 bytes (moved back, not copied). */
export type EditedUtf8 = Omit<AppliedEdits, 'text'> & { utf8: Uint8Array };

export type SearchRequest = SearchQuery & { id: number };

export type SearchResponse =
  | { id: number; ok: true; grep?: GrepPieceResult; indices?: number[]; diff?: DiffOutput; edited?: EditedUtf8 }
  | { id: number; ok: false; syntax: boolean; message: string; fs_code?: FsErrorCode };

const cache = new Map<string, RE2JS>();

function compiled(pattern: string, options: RegexOptions): RE2JS {
  const key = `${options.ignoreCase ? 'i' : ''}${options.multiline ? 's' : ''}:${pattern}`;
  let re = cache.get(key);
  if (!re) {
    if (cache.size > 64) cache.clear();
    re = compileLinear(pattern, options);
    cache.set(key, re);
  }
  return re;
}

export function handleSearchRequest(req: SearchRequest): SearchResponse {
  try {
    if (req.op === 'grep') return { id: req.id, ok: true, grep: grepPiece(compiled(req.pattern, req.options), req.utf8 ? decodeUtf8(req.utf8) : (req.text ?? ''), req.mode, req.want) };
    if (req.op === 'edit') {
      const { text, ...rest } = applyEdits(decodeUtf8(req.utf8), req.edits, req.displayPath);
      return { id: req.id, ok: true, edited: { ...rest, utf8: Buffer.from(text, 'utf8') } };
    }
    if (req.op === 'diff') return { id: req.id, ok: true, diff: diffOutput(req.displayPath, decodeUtf8(req.beforeUtf8), decodeUtf8(req.afterUtf8), req.created) };
    return { id: req.id, ok: true, indices: globFilter(req.globs, req.paths, req.orBasename) };
  } catch (e) {
    return { id: req.id, ok: false, syntax: e instanceof RegexSyntaxError || e instanceof GlobSyntaxError, message: (e as Error).message, ...(e instanceof FsError ? { fs_code: e.code } : {}) };
  }
}

/**
 * The buffers of a message that can be moved to the other thread instead of copied: those its
 * bytes own whole (a view into a shared pool must never be moved — the pool would go with it).
 */
export function transferListOf(m: SearchQuery | SearchResponse): ArrayBuffer[] {
  const views = 'op' in m ? (m.op === 'edit' || (m.op === 'grep' && m.utf8) ? [m.utf8!] : m.op === 'diff' ? [m.beforeUtf8, m.afterUtf8] : []) : m.ok && m.edited ? [m.edited.utf8] : [];
  const list: ArrayBuffer[] = [];
  for (const v of views) {
    if (v.buffer instanceof ArrayBuffer && v.byteOffset === 0 && v.byteLength === v.buffer.byteLength && !list.includes(v.buffer)) list.push(v.buffer);
  }
  return list;
}
