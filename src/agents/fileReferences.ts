// §16.3 adapter conversion: turns `<@file:ref_id|display_path>` tokens of a received prompt into
// what a particular agent understands. The token codec itself is pure (src/protocol/fileReference);
// here we add path resolution inside the workspace (I/O) and the per-agent strategies:
//
//  - `separate`  agents that load files themselves (Claude Code): the token leaves the text (or is
//                replaced by the agent's own mention syntax, e.g. `@path`) and the file is returned
//                in `files`, for context_files or a read tool call;
//  - `label`     plain LLMs: `[File: path]` in place of the token;
//  - `inline`    plain LLMs: `[File: path]` followed by the file's content, with a size limit per
//                file and in total, and a clear note when the content was cut;
//  - `arguments` CLI / script agents: the path stays readable in the text and the absolute paths
//                are returned in `args` for the process command line;
//  - `literal`   the mandatory fallback (§16.3, §12.2.1): `display_path` as plain text.
//
// A token that cannot be converted — its path leaves the workspace (`..`, absolute elsewhere, a
// symlink out), does not exist, or cannot be read — becomes its `display_path` as literal text and
// is reported in `errors`; a token is never silently dropped (§16.2.1, §16.3).
import { listDirectoryEntries } from '../workspace/localFiles';
import { decodePrompt, FOLDER_MIME_TYPE, isFolderPath, literalText, type FileReference } from '../protocol/fileReference';
import { supports, type FeatureSet } from '../protocol/capabilities';
import { resolveInWorkspace, type ResolvedPath } from '../workspace/resolvePath';
import type { FsBackend } from '../workspace/fsBackend';
import { fence } from './fence';
import { readInlinePrefix } from './inlinePrefix';
import { isAbsolute, posix } from 'node:path';
import { leavesRoot } from '../workspace/leavesRoot';
import { sizeBeforeRead } from '../tools/sizeBeforeRead';

export type ConversionStrategy =
  | { kind: 'separate'; mention?: (path: string) => string }
  | { kind: 'label' }
  | { kind: 'inline'; maxBytesPerFile?: number; maxTotalBytes?: number }
  | { kind: 'arguments' }
  | { kind: 'literal' };

export interface ResolvedReference {
  ref_id: string;
  /** Workspace-relative path (from `file_references`). */
  path: string;
  absolute: string;
  /** The workspace folder it was checked against (reads stay inside it, pinnedDir.ts). */
  root: string;
  display_path: string;
  reference: FileReference;
}

export interface ReferenceError {
  ref_id: string;
  path: string;
  code: string;
  message: string;
}

export interface ConvertedPrompt {
  text: string;
  /** Referenced files that resolved inside the workspace, each once, in order of appearance. */
  files: ResolvedReference[];
  /** `arguments` strategy: absolute paths for the command line. */
  args: string[];
  /** Tokens that fell back to literal text, with the reason (for a user-visible warning). */
  errors: ReferenceError[];
  /** Tokens whose ref_id was not in `file_references` (kept literally, §16.2.1). */
  unmapped: string[];
  strategy: ConversionStrategy['kind'];
}

export interface ConvertOptions {
  /** Absolute paths of the workspace folders. */
  roots: readonly string[];
  strategy: ConversionStrategy;
  /**
   * Does this client interpret file-reference tokens (the `file_reference` feature it announced)?
   * When not, every token becomes its display path (§12.2.1). Default true.
   */
  interpretTokens?: boolean;
  /**
   * The workspace's FsBackend, when the agent's files go through one: references then resolve and
   * inline through it, so a folder VS Code opens through a file system provider (a virtual
   * workspace) and unsaved editor text work as they do for the agent's own Read tool.
   */
  fs?: Pick<FsBackend, 'roots' | 'stat' | 'readText'> & Partial<Pick<FsBackend, 'list' | 'times'>>;
}

/** Entries of a referenced folder inlined at most (decision 363). */
export const MAX_FOLDER_ENTRIES = 200;

/** Is this reference a folder (decision 363: its path ends in `/`, or its MIME type says so)? */
export function isFolderReference(ref: FileReference): boolean {
  return isFolderPath(ref.workspace_relative_path || ref.path) || ref.mime_type === FOLDER_MIME_TYPE;
}

/** A folder's entries for the prompt: one level, folders marked with `/`, sorted, bounded. */
async function folderListing(fs: ConvertOptions['fs'], absolute: string): Promise<{ names: string[]; total: number }> {
  const entries = fs?.list ? (await fs.list(absolute)).map((e) => ({ name: e.name, dir: e.type === 'directory' })) : listDirectoryEntries(absolute);
  const names = entries.map((e) => (e.dir ? `${e.name}/` : e.name)).sort();
  return { names: names.slice(0, MAX_FOLDER_ENTRIES), total: names.length };
}

/** Resolution through the backend: the same refusals as resolveInWorkspace, existence by the file's metadata (not `stat`, which hashes all of it). */
async function resolveThrough(fs: NonNullable<ConvertOptions['fs']>, path: string): Promise<ResolvedPath> {
  if (path === '' || path.includes('\0')) return { ok: false, code: 'FS_INVALID_PATH', message: `"${path}" is not a valid path` };
  for (const root of fs.roots) {
    const absolute = isAbsolute(path) ? posix.normalize(path) : posix.join(root, path);
    const rel = posix.relative(root, absolute);
    if (rel === '' || leavesRoot(rel, '/')) continue;
    const st = await sizeBeforeRead(fs, absolute);
    if (st?.type === 'file' || (st?.type === 'directory' && isFolderPath(path))) return { ok: true, absolute, root, relative: rel };
  }
  const outside = path.split('/').includes('..') || isAbsolute(path);
  return outside
    ? { ok: false, code: 'FS_OUTSIDE_WORKSPACE', message: `"${path}" is outside the workspace` }
    : { ok: false, code: 'FS_NOT_FOUND', message: `"${path}" does not exist in the workspace` };
}

export const DEFAULT_INLINE_FILE_BYTES = 64 * 1024;
export const DEFAULT_INLINE_TOTAL_BYTES = 256 * 1024;

/** §12.2.1: a client interprets tokens only when it announced `file_reference: true`. */
export function interpretsFileReferences(announced: FeatureSet | undefined): boolean {
  return supports(announced, 'file_reference');
}

export async function convertFileReferences(prompt_text: string, file_references: readonly FileReference[] | undefined, options: ConvertOptions): Promise<ConvertedPrompt> {
  const decoded = decodePrompt(prompt_text, file_references);
  const unmapped = decoded.unmapped.map((u) => u.raw);
  const strategy = options.interpretTokens === false ? ({ kind: 'literal' } as const) : options.strategy;
  const empty = { files: [], args: [], errors: [], unmapped, strategy: strategy.kind };
  if (strategy.kind === 'literal') return { text: literalText(decoded), ...empty };

  const files: ResolvedReference[] = [];
  const errors: ReferenceError[] = [];
  const resolved = new Map<string, ResolvedReference | undefined>();
  // One resolution per path: the backend's stat may hash the whole file (a just-changed one each time).
  const byPath = new Map<string, Promise<ResolvedPath>>();
  for (const seg of decoded.segments) {
    if (seg.kind !== 'file' || resolved.has(seg.ref_id)) continue;
    const ref = seg.reference;
    // The agent is given the path that was checked, never a different `path` from the same reference.
    const checked = ref.workspace_relative_path || ref.path;
    if (!byPath.has(checked)) byPath.set(checked, options.fs ? resolveThrough(options.fs, checked) : resolveInWorkspace(options.roots, checked));
    const r = await byPath.get(checked)!;
    if (r.ok) {
      const item: ResolvedReference = { ref_id: seg.ref_id, path: checked, absolute: r.absolute, root: r.root, display_path: seg.display_path, reference: ref };
      resolved.set(seg.ref_id, item);
      // `files` are what an agent reads or attaches: a folder is named in the text instead.
      if (!isFolderReference(ref)) files.push(item);
    } else {
      resolved.set(seg.ref_id, undefined);
      errors.push({ ref_id: seg.ref_id, path: ref.path, code: r.code, message: r.message });
    }
  }

  const totalBytes = strategy.kind === 'inline' ? (strategy.maxTotalBytes ?? DEFAULT_INLINE_TOTAL_BYTES) : 0;
  let budget = totalBytes;
  const perFile = strategy.kind === 'inline' ? (strategy.maxBytesPerFile ?? DEFAULT_INLINE_FILE_BYTES) : 0;
  const inlined = new Set<string>();
  let text = '';
  // `separate` without a mention removes the token together with ONE adjacent space, so that
  // "fix <token> now" reads "fix now"; nothing else in the user's text is touched.
  let dropSpace = false;
  for (const seg of decoded.segments) {
    if (seg.kind === 'text') {
      text += dropSpace && seg.text.startsWith(' ') && (text === '' || text.endsWith(' ') || text.endsWith('\n')) ? seg.text.slice(1) : seg.text;
      dropSpace = false;
      continue;
    }
    const file = resolved.get(seg.ref_id);
    if (!file) {
      text += seg.display_path; // fallback: never drop a token
      continue;
    }
    if (isFolderReference(file.reference)) {
      text += await folderText(strategy, file, options.fs);
      continue;
    }
    switch (strategy.kind) {
      case 'separate':
        if (strategy.mention) text += strategy.mention(file.path);
        else dropSpace = true;
        break;
      case 'label':
      case 'arguments':
        text += strategy.kind === 'label' ? `[File: ${file.path}]` : file.display_path;
        break;
      case 'inline': {
        if (inlined.has(file.ref_id)) {
          text += `[File: ${file.path}] (content shown above)`;
          break;
        }
        inlined.add(file.ref_id);
        try {
          const limit = Math.min(perFile, budget);
          if (limit <= 0) {
            // Spent: the file is not even opened (it was read whole for nothing, decision 543).
            text += `[File: ${file.path}] (not inlined: the ${totalBytes} bytes of inlined files are used up)`;
            break;
          }
          const r = await readInlinePrefix(options.fs, file.absolute, file.root, limit);
          if (r.binary) {
            text += `[File: ${file.path}] (binary file, ${r.total} bytes, not inlined)`;
            break;
          }
          budget -= Buffer.byteLength(r.text);
          const f = fence(r.text);
          const note = r.cut ? `\n[… truncated: showing the first ${Buffer.byteLength(r.text)} of ${r.total} bytes]` : '';
          text += `[File: ${file.path}]\n${f}\n${r.text}${r.text.endsWith('\n') || r.text === '' ? '' : '\n'}${f}${note}\n`;
        } catch (e) {
          errors.push({ ref_id: file.ref_id, path: file.path, code: 'FS_IO', message: `cannot read "${file.path}": ${(e as Error).message}` });
          text += file.display_path;
        }
        break;
      }
    }
  }
  if (dropSpace && text.endsWith(' ')) text = text.slice(0, -1);
  const folders = [...resolved.values()].filter((f): f is ResolvedReference => f !== undefined && isFolderReference(f.reference));
  const args = strategy.kind === 'arguments' ? [...files, ...folders].map((f) => f.absolute) : [];
  return { text, files, args, errors, unmapped, strategy: strategy.kind };
}

/**
 * How a folder reference reads for each kind of agent (decision 363): an agent that takes mentions
 * gets its own (`@src/auth/`, Claude Code reads folders itself), one without the bare path; a plain
 * LLM `[Folder: src/auth/]`, with `inline` its entries (one level, bounded) — never the files'
 * contents, which the agent can read with its tools; a CLI agent the path (and it in `args`).
 */
async function folderText(strategy: ConversionStrategy, folder: ResolvedReference, fs: ConvertOptions['fs']): Promise<string> {
  const path = isFolderPath(folder.path) ? folder.path : `${folder.path}/`;
  switch (strategy.kind) {
    case 'separate':
      return strategy.mention ? strategy.mention(path) : path;
    case 'arguments':
      return folder.display_path;
    case 'label':
      return `[Folder: ${path}]`;
    case 'inline': {
      const { names, total } = await folderListing(fs, folder.absolute);
      const more = total > names.length ? `\n[… ${total - names.length} more entries]` : '';
      const body = names.length === 0 ? '(empty)' : names.join('\n');
      const f = fence(body);
      return `[Folder: ${path}]\n${f}\n${body}\n${f}${more}\n`;
    }
    case 'literal':
      return folder.display_path;
  }
}
