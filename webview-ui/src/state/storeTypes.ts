// The shapes the chat store holds besides the transcript (store.ts), kept apart so the store's
// file stays about what it does.
import type { PayloadOf } from '../../../src/protocol/frameTypes';
import type { EndedSessionSummary } from '../../../src/protocol/webviewMessages';

export interface Notice {
  id: number;
  level: 'info' | 'warning' | 'error';
  message: string;
  /** A refusal's code (e.g. ATTACHMENT_TOO_LARGE): shown as its sentence, the code in the tooltip. */
  code?: string;
}

export interface CandidatesView {
  queryId: string;
  /** The query these candidates answer. */
  query: string;
  candidates: PayloadOf<'session.file.candidates'>['candidates'];
  truncated: boolean;
}

export interface FlushStats {
  frames: number;
  ms: number;
}

/** An ended session the host offers to continue (session.list `ended`). */
export type EndedSession = EndedSessionSummary;
