// §16.2–§16.4 file-reference tokens: `<@file:ref_id|display_path>` inside `prompt_text`.
//
// Encoding (where the prompt is composed): text the user typed is escaped (`\` → `\\`, then
// `<@` → `\<@`) so that typing can never forge a token; tokens the picker inserted are written as
// they are, and `file_references` is built from them.
// Decoding (the receiving side) follows §16.2.2 in its exact order: 1. find unescaped tokens with the
// canonical regex, 2. validate each against `file_references` (an unmapped token stays literal text,
// never dropped), 3. in the remaining text replace `\\` → `\`, then `\<@` → `<@`.
// Pure: no I/O. Path resolution and adapter conversion live in src/workspace and src/agents.
import type { z } from 'zod';
import type { FileReference as FileReferenceSchema } from './payloads/control';

export type FileReference = z.infer<typeof FileReferenceSchema>;

/** The canonical token regex of spec/file-reference.md (global flag for scanning). */
export const FILE_TOKEN_PATTERN = /(?<!\\)<@file:([a-zA-Z0-9_-]+)\|([^>]+)>/g;
const REF_ID = /^[a-zA-Z0-9_-]+$/;

/** A piece of a prompt as the composer holds it: typed text, or a file the picker inserted. */
export type PromptPart =
  | { kind: 'text'; text: string }
  | {
      kind: 'file';
      /** Workspace-relative path (`/`-separated). */
      path: string;
      /** What the user saw in the picker; defaults to `path`. */
      display_path?: string;
      /** Optional fixed id; otherwise `ref_<n>` in order of first appearance of the path. */
      ref_id?: string;
      extension?: string;
      mime_type?: string;
      size_bytes?: number;
    };

export interface EncodedPrompt {
  prompt_text: string;
  file_references: FileReference[];
}

/** §16.2.2 escaping of user-typed text: `\` → `\\` first, then `<@` → `\<@`. */
export function escapeUserText(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/<@/g, '\\<@');
}

/** §16.2.2 step 3: `\\` → `\`, then `\<@` → `<@`, as two passes in that order. */
export function unescapeText(text: string): string {
  return text.replace(/\\\\/g, '\\').replace(/\\<@/g, '<@');
}

/**
 * A display path that fits the token grammar: `>` ends a token and cannot be escaped inside one, so
 * it is shown as `›`; an empty display falls back to the path. The real path travels in
 * `file_references`, so this only changes what is displayed.
 */
export function tokenDisplayPath(display: string): string {
  return display.replace(/>/g, '›');
}

export function formatFileToken(ref_id: string, display_path: string): string {
  if (!REF_ID.test(ref_id)) throw new RangeError(`ref_id "${ref_id}" must match [a-zA-Z0-9_-]+ (§16.2.1)`);
  const display = tokenDisplayPath(display_path);
  if (display.length === 0) throw new RangeError('display_path must not be empty (§16.2.1)');
  return `<@file:${ref_id}|${display}>`;
}

/** A reference to a folder: its path ends in `/` (decision 363), its MIME type is this one. */
export const FOLDER_MIME_TYPE = 'inode/directory';

export function isFolderPath(path: string): boolean {
  return path.endsWith('/');
}

/** A reference, candidate or chip of a folder: its path ends in `/`, or its MIME type says so. */
export function isFolderRef(ref: { path: string; mime_type?: string }): boolean {
  return isFolderPath(ref.path) || ref.mime_type === FOLDER_MIME_TYPE;
}

function baseName(path: string): string {
  const bare = isFolderPath(path) ? path.slice(0, -1) : path;
  const i = bare.lastIndexOf('/');
  return i < 0 ? bare : bare.slice(i + 1);
}

function extensionOf(name: string): string | undefined {
  const i = name.lastIndexOf('.');
  return i > 0 ? name.slice(i) : undefined;
}

/**
 * Builds `prompt_text` and `file_references` from the composer's parts.
 *
 * One case has no exact encoding in the §16.2 grammar: typed text ending in `\` directly before a
 * token (the escaped `\\` would make the token's `(?<!\\)` look-behind fail and the file would be
 * lost). The encoder then puts one space between them — the only change it ever makes to the text —
 * and reports it in `adjusted`.
 */
export function encodePrompt(parts: readonly PromptPart[]): EncodedPrompt & { adjusted: number } {
  let text = '';
  let adjusted = 0;
  const refs: FileReference[] = [];
  const idByPath = new Map<string, string>();
  const usedIds = new Set(parts.flatMap((p) => (p.kind === 'file' && p.ref_id ? [p.ref_id] : [])));
  let next = 0;
  // Adjacent typed parts are escaped as one string: a `<@` split over two parts is still a `<@`.
  let typed = '';
  for (const part of parts) {
    if (part.kind === 'text') {
      typed += part.text;
      continue;
    }
    text += escapeUserText(typed);
    typed = '';
    if (part.path.length === 0) throw new RangeError('a file reference needs a path');
    let ref_id = part.ref_id ?? idByPath.get(part.path);
    if (ref_id === undefined) {
      do ref_id = `ref_${next++}`;
      while (usedIds.has(ref_id));
      usedIds.add(ref_id);
    }
    if (!refs.some((r) => r.ref_id === ref_id)) {
      const name = baseName(part.path);
      const ref: FileReference = { ref_id, path: part.path, name: name || part.path, workspace_relative_path: part.path };
      const folder = isFolderPath(part.path);
      const extension = folder ? undefined : (part.extension ?? extensionOf(name));
      if (extension !== undefined) ref.extension = extension;
      if (part.mime_type !== undefined || folder) ref.mime_type = part.mime_type ?? FOLDER_MIME_TYPE;
      if (part.size_bytes !== undefined) ref.size_bytes = part.size_bytes;
      refs.push(ref);
      idByPath.set(part.path, ref_id);
    }
    if (text.endsWith('\\')) {
      text += ' ';
      adjusted++;
    }
    text += formatFileToken(ref_id, part.display_path ?? part.path);
  }
  text += escapeUserText(typed);
  return { prompt_text: text, file_references: refs, adjusted };
}

/** A decoded prompt piece: literal text, or a token validated against `file_references`. */
export type DecodedSegment =
  | { kind: 'text'; text: string }
  | { kind: 'file'; ref_id: string; display_path: string; reference: FileReference; raw: string };

export interface DecodedPrompt {
  segments: DecodedSegment[];
  /** Tokens whose ref_id had no entry in `file_references`; they are kept as literal text. */
  unmapped: { ref_id: string; raw: string }[];
}

export interface FileTokenMatch {
  /** Offset of the token's `<`. */
  index: number;
  /** [whole token, ref_id, display path], as FILE_TOKEN_PATTERN's groups. */
  0: string;
  1: string;
  2: string;
}

function isRefIdChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 45;
}

/**
 * The matches of FILE_TOKEN_PATTERN in `text`, found in linear time: the regex backtracks over
 * `[^>]+` from every `<@file:x|` without a `>` after it (180 KB of them took 2.2 s; issue 12
 * finding 2). Same matches, same order.
 */
export function fileTokens(text: string): FileTokenMatch[] {
  const out: FileTokenMatch[] = [];
  let gt = -1; // the first '>' at or after some position, memoized (positions only grow)
  for (let i = text.indexOf('<@file:'); i !== -1; ) {
    let next = i + 1;
    if (i === 0 || text[i - 1] !== '\\') {
      let j = i + 7;
      while (j < text.length && isRefIdChar(text.charCodeAt(j))) j++;
      if (j > i + 7 && text[j] === '|') {
        if (gt <= j) gt = text.indexOf('>', j + 1);
        if (gt === -1) break; // no '>' anywhere after: no token can end
        if (gt > j + 1) {
          out.push({ index: i, 0: text.slice(i, gt + 1), 1: text.slice(i + 7, j), 2: text.slice(j + 1, gt) });
          next = gt + 1;
        }
      }
    }
    i = text.indexOf('<@file:', next);
  }
  return out;
}

/** §16.2.2 decoding in the mandated order. Never throws; malformed tokens are plain text. */
export function decodePrompt(prompt_text: string, file_references: readonly FileReference[] | undefined): DecodedPrompt {
  const byId = new Map<string, FileReference>();
  for (const ref of file_references ?? []) if (!byId.has(ref.ref_id)) byId.set(ref.ref_id, ref);
  const segments: DecodedSegment[] = [];
  const unmapped: DecodedPrompt['unmapped'] = [];
  // Escaped text between tokens is collected raw and unescaped at once (step 3), so that an escape
  // sequence is never split.
  let pending = '';
  const flushText = (): void => {
    if (pending.length === 0) return;
    const text = unescapeText(pending);
    const last = segments[segments.length - 1];
    if (last?.kind === 'text') last.text += text;
    else segments.push({ kind: 'text', text });
    pending = '';
  };
  let at = 0;
  for (const m of fileTokens(prompt_text)) {
    const start = m.index;
    pending += prompt_text.slice(at, start);
    at = start + m[0].length;
    const reference = byId.get(m[1]);
    if (reference) {
      flushText();
      segments.push({ kind: 'file', ref_id: m[1], display_path: m[2], reference, raw: m[0] });
    } else {
      // Unmapped: literal text exactly as sent (not unescaped: it was matched as a token, step 1).
      flushText();
      unmapped.push({ ref_id: m[1], raw: m[0] });
      const last = segments[segments.length - 1];
      if (last?.kind === 'text') last.text += m[0];
      else segments.push({ kind: 'text', text: m[0] });
    }
  }
  pending += prompt_text.slice(at);
  flushText();
  return { segments, unmapped };
}

/** The text with every valid token replaced by its `display_path` (§16.3 / §12.2.1 fallback). */
export function literalText(decoded: DecodedPrompt): string {
  return decoded.segments.map((s) => (s.kind === 'text' ? s.text : s.display_path)).join('');
}

/** The composer's parts back from a decoded prompt (inverse of `encodePrompt` for valid input). */
export function partsOf(decoded: DecodedPrompt): PromptPart[] {
  return decoded.segments.map((s) =>
    s.kind === 'text' ? { kind: 'text', text: s.text } : { kind: 'file', path: s.reference.path, display_path: s.display_path, ref_id: s.ref_id },
  );
}
