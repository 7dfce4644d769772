// From a `control.file.search` payload to a `session.file.candidates` payload (§16.1.1–§16.1.2):
// scope selection, fuzzy search or "recently modified" for the empty query, and the per-candidate
// metadata (name, directory, extension, MIME type, size, mtime, score, highlight ranges).
//
// Scopes (the spec names them without defining them):
//  - `workspace` (default): every workspace folder, ignore rules applied;
//  - `project`: only the session's own folder (the first workspace folder) — in a multi-root
//    workspace, the project the user is working in;
//  - `global`: every workspace folder INCLUDING files that ignore rules hide (build output,
//    dependencies), still never outside the workspace and never through symlinks out of it. Its
//    index is built on first use.
import { promises as fsp } from 'node:fs';
import { join } from 'node:path';
import type { PayloadOf } from '../protocol/frameTypes';
import { FOLDER_MIME_TYPE } from '../protocol/fileReference';
import { FileIndex, type Folder } from './fileIndex';
import { FileSearcher, clampMax, type CancelToken, type SearchRequest } from './fileSearch';
import { extensionOf, mimeTypeOf } from './mimeType';
import { compileExcludes } from './excludeGlobs';
import { recentFiles } from './recentFiles';
import { mergeHits, searchFolders } from './folderCandidates';

export type FileSearchPayload = PayloadOf<'control.file.search'>;
export type CandidatesPayload = PayloadOf<'session.file.candidates'>;
type Candidate = CandidatesPayload['candidates'][number];
/** A search request without its id (what the session's search port hands over). */
export type SearchInput = Pick<FileSearchPayload, 'query' | 'scope' | 'max_results' | 'filters'>;
/** A candidates payload without the echoed id (the search port adds it). */
export type CandidatesBody = Pick<CandidatesPayload, 'candidates' | 'total_count' | 'truncated'>;

export interface WorkspaceSearchOptions {
  /** Opens the index for scope `global`; default: the same roots without ignore files. */
  openGlobal?: () => Promise<FileIndex>;
  /** Fill size_bytes / modified_at from the disk (default true; false for in-memory indexes). */
  statResults?: boolean;
  /** Offer folders too (paths ending in `/`, decision 363): the product's pickers; default off. */
  folders?: boolean;
  /** Absolute paths of the files open in the editor: the empty query looks up their times first. */
  openFiles?: () => readonly string[];
}

export class WorkspaceSearch {
  private readonly searcher: FileSearcher;
  private globalIndex: Promise<FileIndex> | undefined;
  private globalSearcher: FileSearcher | undefined;
  /** Empty queries walk one at a time (recent()). */
  private recentChain: Promise<void> = Promise.resolve();
  /** Per lane, the empty query in line or walking (a newer one of the lane cancels it). */
  private readonly recentByLane = new Map<string, { cancelled: boolean }>();

  constructor(
    readonly index: FileIndex,
    private readonly options: WorkspaceSearchOptions = {},
  ) {
    this.searcher = new FileSearcher(index);
  }

  private async searcherFor(scope: SearchRequest['scope']): Promise<{ searcher: FileSearcher; index: FileIndex }> {
    if (scope !== 'global') return { searcher: this.searcher, index: this.index };
    this.globalIndex ??= (this.options.openGlobal ?? (() => FileIndex.open({ ...this.index.options, useIgnoreFiles: false })))();
    const index = await this.globalIndex;
    this.globalSearcher ??= new FileSearcher(index);
    return { searcher: this.globalSearcher, index };
  }

  /** The candidates payload without `query_id`, or undefined when cancelled. */
  async run(request: SearchInput, token: CancelToken = { cancelled: false }, lane?: string): Promise<CandidatesBody | undefined> {
    const { searcher, index } = await this.searcherFor(request.scope);
    if (token.cancelled) return undefined;
    const req: SearchRequest = { query: request.query, max_results: request.max_results, scope: request.scope, filters: request.filters, ...(lane !== undefined ? { lane } : {}) };
    if (request.query.trim().length === 0) return this.recent(index, searcher, req, token);
    const result = await searcher.search(req, token);
    if (!result) return undefined;
    let hits = result.hits;
    let total = result.total_count;
    // Folders have no extension: an extension filter asks for files only.
    if (this.options.folders && !(req.filters?.extensions?.length)) {
      const max = clampMax(req.max_results);
      const excluded = compileExcludes((req.filters?.exclude_patterns ?? []).filter(Boolean));
      const folders = searchFolders(searcher.foldersFor(req.scope), req.query, index.folders.length > 1, max);
      const kept = folders.hits.filter((h) => !excluded?.test(h.rel.slice(0, -1)));
      hits = mergeHits(hits, kept, max);
      total += folders.total;
    }
    const candidates = await Promise.all(hits.map((h) => this.candidate(h.folder, h.rel, h.path, { match_score: h.match_score, match_ranges: h.match_ranges })));
    if (token.cancelled) return undefined;
    return { candidates, total_count: total, truncated: this.options.folders ? total > candidates.length : result.truncated };
  }

  /**
   * §16.1.1: an empty query lists recently modified files, newest first (recentFiles.ts). One walk
   * at a time, and a newer empty query of the same lane (a master's picker) supersedes an older
   * one still waiting or walking: a burst of 150 empty queries from one master held the host for
   * 20 s and 1 GB, each walk with its own copy of every path (the review of 2026-12-05).
   */
  private async recent(index: FileIndex, searcher: FileSearcher, req: SearchRequest, token: CancelToken): Promise<CandidatesBody | undefined> {
    const lane = req.lane ?? '';
    const mine = { cancelled: false };
    const older = this.recentByLane.get(lane);
    if (older) older.cancelled = true;
    this.recentByLane.set(lane, mine);
    const gone = { get cancelled() { return token.cancelled || mine.cancelled; } };
    const run = this.recentChain.then(async () => {
      if (gone.cancelled) return undefined;
      return recentFiles(
        index,
        {
          folders: searcher.foldersFor(req.scope),
          max: clampMax(req.max_results),
          extensions: req.filters?.extensions ?? [],
          excludePatterns: req.filters?.exclude_patterns ?? [],
          openFiles: this.options.openFiles?.() ?? [],
          stat: this.options.statResults !== false,
        },
        gone,
      );
    });
    this.recentChain = run.then(() => undefined, () => undefined);
    let found;
    try {
      found = await run;
    } finally {
      if (this.recentByLane.get(lane) === mine) this.recentByLane.delete(lane);
    }
    if (!found || gone.cancelled) return undefined;
    const multi = index.folders.length > 1;
    const candidates = await Promise.all(found.rows.map((r) => this.candidate(r.folder, r.rel, multi ? `${r.folder.name}/${r.rel}` : r.rel, { match_ranges: [] })));
    if (token.cancelled) return undefined;
    // Partial while the times of every file are still being looked up: say so.
    return { candidates, total_count: found.total, truncated: found.total > candidates.length || !found.complete };
  }

  private async candidate(folder: Folder, rel: string, path: string, match: Pick<Candidate, 'match_score' | 'match_ranges'>): Promise<Candidate> {
    if (path.endsWith('/')) return folderCandidate(path, match);
    const slash = path.lastIndexOf('/');
    const name = path.slice(slash + 1);
    const c: Candidate = { path, name, directory: slash < 0 ? '' : path.slice(0, slash) };
    const extension = extensionOf(name);
    if (extension) c.extension = extension;
    const mime = mimeTypeOf(name);
    if (mime) c.mime_type = mime;
    if (this.options.statResults !== false && folder.source !== 'memory') {
      try {
        const st = folder.statFile ? await folder.statFile(rel) : await fsp.stat(join(folder.root, rel));
        if (st) {
          c.size_bytes = st.size;
          c.modified_at = new Date(st.mtimeMs).toISOString();
        }
      } catch {
        // deleted between search and stat: still a valid candidate name; leave metadata out
      }
    }
    if (match.match_score !== undefined) c.match_score = match.match_score;
    if (match.match_ranges) c.match_ranges = match.match_ranges;
    return c;
  }

  dispose(): void {
    // The scan workers let go of these indexes' snapshots (they would on collection anyway).
    this.searcher.release();
    this.globalSearcher?.release();
    void this.globalIndex?.then((g) => g.dispose());
  }
}

/** A folder candidate (decision 363): path and name as the picker shows them, the directory MIME type. */
function folderCandidate(path: string, match: Pick<Candidate, 'match_score' | 'match_ranges'>): Candidate {
  const bare = path.slice(0, -1);
  const slash = bare.lastIndexOf('/');
  const c: Candidate = { path, name: bare.slice(slash + 1), directory: slash < 0 ? '' : bare.slice(0, slash), mime_type: FOLDER_MIME_TYPE };
  if (match.match_score !== undefined) c.match_score = match.match_score;
  if (match.match_ranges) c.match_ranges = match.match_ranges;
  return c;
}
