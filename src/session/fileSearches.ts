// §12.2.1 / §16.1 fuzzy file searches of one session: at most one per query_id (a new query with
// the same id replaces the old one), each cancellable, all stopped when the session ends.
import type { PayloadOf } from '../protocol/frameTypes';

export type FileSearch = (query: PayloadOf<'control.file.search'>, signal: AbortSignal) => Promise<PayloadOf<'session.file.candidates'>>;

export interface FileSearchOutlet {
  /** The candidates, answering the control.file.search `parent_id`. */
  candidates(result: PayloadOf<'session.file.candidates'>, parent_id: string): void;
  /** A non-fatal session.error answering `parent_id`. */
  error(error_code: string, message: string, parent_id: string): void;
  /** The session is ending: late results are dropped. */
  ending(): boolean;
}

export class FileSearches {
  private readonly running = new Map<string, AbortController>();

  constructor(
    private readonly fileSearch: FileSearch | undefined,
    private readonly out: FileSearchOutlet,
  ) {}

  async search(query: PayloadOf<'control.file.search'>, parent_id: string): Promise<void> {
    const fileSearch = this.fileSearch;
    if (!fileSearch) return this.out.error('FEATURE_NOT_SUPPORTED', 'file_search_fuzzy was not announced; control.file.search is not served (§12.2.1)', parent_id);
    this.running.get(query.query_id)?.abort();
    const controller = new AbortController();
    this.running.set(query.query_id, controller);
    try {
      const result = await fileSearch(query, controller.signal);
      if (!controller.signal.aborted && !this.out.ending()) this.out.candidates({ ...result, query_id: query.query_id }, parent_id);
    } catch (e) {
      if (!controller.signal.aborted) this.out.error('FILE_SEARCH_FAILED', `file search failed: ${e instanceof Error ? e.message : String(e)}`, parent_id);
    } finally {
      if (this.running.get(query.query_id) === controller) this.running.delete(query.query_id);
    }
  }

  cancel(query_id: string): void {
    this.running.get(query_id)?.abort();
  }

  cancelAll(): void {
    for (const c of this.running.values()) c.abort();
  }
}
