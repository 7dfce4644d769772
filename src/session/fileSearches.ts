// §12.2.1 / §16.1 fuzzy file searches of one session, each owned by the connection (master) that
// sent it. A query_id names a search of its sender only (decision 557): §16.1.1 makes it the
// sender's way to tell its own answers apart, and §2.4 relays every control to the other masters,
// so a session-wide id would let master B cancel or replace master A's search by repeating the id
// it saw. Per connection: at most one search per query_id (a new query with the same id replaces
// the old one), each cancellable by its sender; a connection's searches stop when it leaves the
// session (closed, dropped, kicked), and all of them when the session ends.
import type { PayloadOf } from '../protocol/frameTypes';

/** `lane`: the connection that sent the search, so the search layer stops only that connection's
 * older scans for a newer one (decision 558), never another master's. */
export type FileSearch = (query: PayloadOf<'control.file.search'>, signal: AbortSignal, lane: string) => Promise<PayloadOf<'session.file.candidates'>>;

export interface FileSearchOutlet {
  /** The candidates, answering the control.file.search `parent_id`. */
  candidates(result: PayloadOf<'session.file.candidates'>, parent_id: string): void;
  /** A non-fatal session.error answering `parent_id`. */
  error(error_code: string, message: string, parent_id: string): void;
  /** The session is ending: late results are dropped. */
  ending(): boolean;
}

export class FileSearches {
  /** Running searches: connection id → query_id → its abort. */
  private readonly running = new Map<string, Map<string, AbortController>>();

  constructor(
    private readonly fileSearch: FileSearch | undefined,
    private readonly out: FileSearchOutlet,
  ) {}

  /** A search `owner` (a connection id) sent. Answered unless it is cancelled, its owner leaves or the session ends. */
  async search(query: PayloadOf<'control.file.search'>, parent_id: string, owner: string): Promise<void> {
    const fileSearch = this.fileSearch;
    if (!fileSearch) return this.out.error('FEATURE_NOT_SUPPORTED', 'file_search_fuzzy was not announced; control.file.search is not served (§12.2.1)', parent_id);
    let mine = this.running.get(owner);
    if (!mine) this.running.set(owner, (mine = new Map()));
    mine.get(query.query_id)?.abort();
    const controller = new AbortController();
    mine.set(query.query_id, controller);
    try {
      const result = await fileSearch(query, controller.signal, owner);
      if (!controller.signal.aborted && !this.out.ending()) this.out.candidates({ ...result, query_id: query.query_id }, parent_id);
    } catch (e) {
      if (!controller.signal.aborted) this.out.error('FILE_SEARCH_FAILED', `file search failed: ${e instanceof Error ? e.message : String(e)}`, parent_id);
    } finally {
      const now = this.running.get(owner);
      if (now?.get(query.query_id) === controller) {
        now.delete(query.query_id);
        if (now.size === 0) this.running.delete(owner);
      }
    }
  }

  /** §16.1.3 from `owner`: stops its own search with that id; another connection's is not touched. */
  cancel(query_id: string, owner: string): void {
    this.running.get(owner)?.get(query_id)?.abort();
  }

  /** `owner` left the session: nobody waits for its searches any more. */
  ownerLeft(owner: string): void {
    const mine = this.running.get(owner);
    if (!mine) return;
    this.running.delete(owner);
    for (const c of mine.values()) c.abort();
  }

  cancelAll(): void {
    for (const mine of this.running.values()) for (const c of mine.values()) c.abort();
  }
}
