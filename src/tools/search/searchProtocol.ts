// Messages between the Grep/Glob tools and the search worker, and the handler the worker (or, if no
// worker can start, the caller itself) runs. Compiled regexes are cached by pattern and flags, so a
// search over thousands of files compiles once.
import type { RE2JS } from 're2js';
import { FsError, type FsErrorCode } from '../../workspace/fsBackend';
import { diffOutput, type DiffOutput } from '../diff';
import { applyEdits, type AppliedEdits, type EditSpec } from '../ledger/match';
import { GlobSyntaxError } from '../../workspace/globRegex';
import { compileLinear, globFilter, grepText, RegexSyntaxError, type GrepFileResult, type GrepMode, type RegexOptions } from './linearRegex';

export type SearchQuery =
  | { op: 'grep'; pattern: string; options: RegexOptions; mode: GrepMode; text: string }
  /** Paths matching any of `globs`. */
  | { op: 'glob'; globs: string[]; paths: string[]; orBasename: boolean }
  /** A big file's edits (ledger/match.ts applyEdits), off the event loop. */
  | { op: 'edit'; text: string; edits: EditSpec[]; displayPath: string }
  /** The diff of a big edit (diff.ts), off the event loop. */
  | { op: 'diff'; displayPath: string; before: string; after: string; created: boolean };

export type SearchRequest = SearchQuery & { id: number };

export type SearchResponse =
  | { id: number; ok: true; grep?: GrepFileResult; indices?: number[]; diff?: DiffOutput; edited?: AppliedEdits }
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
    if (req.op === 'grep') return { id: req.id, ok: true, grep: grepText(compiled(req.pattern, req.options), req.text, req.mode) };
    if (req.op === 'edit') return { id: req.id, ok: true, edited: applyEdits(req.text, req.edits, req.displayPath) };
    if (req.op === 'diff') return { id: req.id, ok: true, diff: diffOutput(req.displayPath, req.before, req.after, req.created) };
    return { id: req.id, ok: true, indices: globFilter(req.globs, req.paths, req.orBasename) };
  } catch (e) {
    return { id: req.id, ok: false, syntax: e instanceof RegexSyntaxError || e instanceof GlobSyntaxError, message: (e as Error).message, ...(e instanceof FsError ? { fs_code: e.code } : {}) };
  }
}
