// §16.1 fuzzy file search for the sessions of `rawp serve`: one workspace file index (git ls-files
// or a walk, ignore files honoured, kept live by the Node backend's watcher), opened on the first
// search so start-up stays fast. The editor lists files through VS Code's own search instead
// (src/extension/editorFileSearch.ts, issue 13).
import type { PayloadOf } from '../protocol/frameTypes';
import type { FsBackend } from './fsBackend';
import { FileIndex } from './fileIndex';
import { WorkspaceSearch } from './workspaceSearch';

export class LazyFileSearch {
  private search?: Promise<WorkspaceSearch>;
  private index?: FileIndex;

  constructor(
    private readonly roots: () => readonly string[],
    private readonly fs: () => FsBackend,
    /** `rawp serve --include-ignored` (decision 363). */
    private readonly options: { includeIgnored?: boolean } = {},
  ) {}

  /** `lane`: the master that sent it (decision 558: only its own newer searches stop this one). */
  readonly run = async (query: PayloadOf<'control.file.search'>, signal: AbortSignal, lane?: string): Promise<PayloadOf<'session.file.candidates'>> => {
    this.search ??= FileIndex.open({ roots: this.roots(), ...(this.options.includeIgnored ? { includeIgnored: true } : {}) }).then((index) => {
      this.index = index;
      index.attach((listener) => this.fs().watch(listener));
      return new WorkspaceSearch(index, { folders: true });
    });
    this.search.catch(() => (this.search = undefined));
    const token = { cancelled: signal.aborted };
    signal.addEventListener('abort', () => (token.cancelled = true), { once: true });
    const body = await (await this.search).run(query, token, lane);
    return { query_id: query.query_id, candidates: body?.candidates ?? [], total_count: body?.total_count ?? 0, truncated: body?.truncated ?? false };
  };

  dispose(): void {
    this.index?.dispose();
  }
}
