// The engine side of §16.1: answers `control.file.search` with `session.file.candidates` and stops
// work on `control.file.search.cancel`. Self-contained so the session engine only wires it in.
//
// API (for the session engine):
//
//   const responder = new FileSearchResponder({
//     session_id,
//     search: new WorkspaceSearch(index),          // anything with run(request, token)
//     emit: (frame) => hub.broadcast(frame),       // receives FrameOf<'session.file.candidates'>
//     announced: () => ourCapabilities.features,   // what THIS client announced (§12.2.1)
//     onError: (message, frame) => …,              // optional: e.g. a non-fatal session.error
//   });
//   const outcome = responder.handle(frame);      // a control.file.search or .cancel frame
//   // outcome.accepted === false → refused (reason says why; nothing will be emitted)
//   responder.dispose();                           // cancels everything in flight
//
// Rules it guarantees:
//  - the answer's `parent_id` is the search frame's `message_id`, its `query_id` is echoed;
//  - a newer search supersedes every older one: older ones are cancelled and their results are
//    never delivered, so a stale result can never arrive after a newer one;
//  - cancel stops the search (it is checked between scan slices) and nothing is emitted for it;
//  - §12.2.1: when this client did not announce `file_search_fuzzy`, a master must not search; a
//    search that arrives anyway is refused (use `fileSearchAllowed` to decide up front);
//  - never throws: a failing search goes to `onError` (or is answered with no candidates).
import { buildFrame, type Clock } from '../protocol/build';
import type { FeatureSet } from '../protocol/capabilities';
import { supports } from '../protocol/capabilities';
import type { FrameOf } from '../protocol/frameTypes';
import type { CancelToken } from './fileSearch';
import type { CandidatesBody, SearchInput } from './workspaceSearch';

export interface CandidateSource {
  run(request: SearchInput, token: CancelToken): Promise<CandidatesBody | undefined>;
}

export interface FileSearchResponderOptions {
  session_id: string;
  search: CandidateSource;
  emit: (frame: FrameOf<'session.file.candidates'>) => void;
  /** The features this client announced in its `session.capabilities`. */
  announced: () => FeatureSet | undefined;
  onError?: (message: string, frame: FrameOf<'control.file.search'>) => void;
  clock?: Clock;
}

export type HandleOutcome = { accepted: true } | { accepted: false; reason: string };

/** §12.2.1: may file searches be served, given what this client announced? */
export function fileSearchAllowed(announced: FeatureSet | undefined): HandleOutcome {
  return supports(announced, 'file_search_fuzzy')
    ? { accepted: true }
    : { accepted: false, reason: 'this client did not announce file_search_fuzzy: control.file.search is not served (§12.2.1)' };
}

interface Job {
  query_id: string;
  seq: number;
  token: { cancelled: boolean };
}

export class FileSearchResponder {
  private seq = 0;
  private readonly active = new Map<string, Job>();
  private disposed = false;

  constructor(private readonly options: FileSearchResponderOptions) {}

  /** Number of searches still running (tests, diagnostics). */
  get inFlight(): number {
    return this.active.size;
  }

  handle(frame: FrameOf<'control.file.search'> | FrameOf<'control.file.search.cancel'>): HandleOutcome {
    if (this.disposed) return { accepted: false, reason: 'the session is closed' };
    const allowed = fileSearchAllowed(this.options.announced());
    if (!allowed.accepted) return allowed;
    if (frame.type === 'control.file.search.cancel') {
      const job = this.active.get(frame.payload.query_id);
      if (job) {
        job.token.cancelled = true;
        this.active.delete(job.query_id);
      }
      return { accepted: true };
    }
    this.start(frame);
    return { accepted: true };
  }

  private start(frame: FrameOf<'control.file.search'>): void {
    // A newer query supersedes every older one.
    for (const job of this.active.values()) job.token.cancelled = true;
    this.active.clear();
    const job: Job = { query_id: frame.payload.query_id, seq: ++this.seq, token: { cancelled: false } };
    this.active.set(job.query_id, job);
    const { query, scope, max_results, filters } = frame.payload;
    const request: SearchInput = { query, scope, max_results, filters };
    const finish = (payload: CandidatesBody): void => {
      if (this.active.get(job.query_id) === job) this.active.delete(job.query_id);
      // Delivered only if nothing newer started and it was not cancelled.
      if (this.disposed || job.token.cancelled || job.seq !== this.seq) return;
      this.options.emit(
        buildFrame('session.file.candidates', { query_id: job.query_id, ...payload }, { session_id: this.options.session_id, parent_id: frame.message_id }, this.options.clock),
      );
    };
    let running: Promise<CandidatesBody | undefined>;
    try {
      running = this.options.search.run(request, job.token);
    } catch (e) {
      running = Promise.reject(e);
    }
    running.then(
      (payload) => {
        if (payload) finish(payload);
        else if (this.active.get(job.query_id) === job) this.active.delete(job.query_id);
      },
      (e: unknown) => {
        const message = `file search failed: ${e instanceof Error ? e.message : String(e)}`;
        if (this.options.onError) {
          if (this.active.get(job.query_id) === job) this.active.delete(job.query_id);
          if (!job.token.cancelled && job.seq === this.seq) this.options.onError(message, frame);
        } else {
          finish({ candidates: [], total_count: 0, truncated: false });
        }
      },
    );
  }

  dispose(): void {
    this.disposed = true;
    for (const job of this.active.values()) job.token.cancelled = true;
    this.active.clear();
  }
}
