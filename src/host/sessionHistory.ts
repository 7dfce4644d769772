// The one history buffer of a session (issue 11 item 5): it serves §13.7 reattach, the chat view's
// replay and persistence at once — the journal is its sink. For a session restored from a journal
// the buffer gets the journaled positions back, and what the dead process left running is closed
// with synthetic frames (§7.8.2) before the new engine publishes anything.
import { systemClock, type Clock } from '../protocol/build';
import type { WireFrame } from '../session/connection';
import { DEFAULT_HISTORY, HistoryBuffer, type HistoryOptions } from '../session/history';
import type { SessionMeta } from './journal/format';
import type { Journal, RestoredSession } from './journal/journal';
import type { SessionJournal } from './journal/sessionJournal';
import { clockAfter, closingFrames } from './journal/closing';
import { lastTimestampOf, nextTurnIndex } from './restore';

export interface SessionHistory {
  history: HistoryBuffer<WireFrame>;
  /** Undefined when the host keeps no journal (or it could not be opened). */
  journal?: SessionJournal;
  /** The id of the newest frame from before the restart (restored and closing frames), if any. */
  restoredThrough?: string;
  /** What the engine of a restored session needs to go on where it stopped. */
  engine: { firstTurnIndex?: number; created_at: string; clock?: Clock };
}

export function prepareHistory(o: {
  meta: SessionMeta;
  options?: HistoryOptions;
  journal?: Journal;
  restored?: RestoredSession;
  /** The host's clock (tests); sessions otherwise use a monotonic wall clock (§2.3). */
  clock?: Clock;
}): SessionHistory {
  const history = new HistoryBuffer<WireFrame>(o.options ?? DEFAULT_HISTORY);
  const r = o.restored;
  if (r) history.restore(r.records);
  const journal = o.journal?.open(o.meta, r);
  history.setSink(journal);
  if (!r) return { history, journal, engine: { created_at: o.meta.created_at, ...(o.clock ? { clock: o.clock } : {}) } };
  // Stamps after the newest journaled frame even if the wall clock went back (§2.3 order).
  const clock = o.clock ?? clockAfter(lastTimestampOf(r.frames), systemClock);
  for (const f of closingFrames(o.meta.session_id, r.frames, clock)) history.append(f);
  return {
    history,
    journal,
    restoredThrough: history.lastMessageId,
    engine: { firstTurnIndex: nextTurnIndex(r.frames), created_at: o.meta.created_at, clock },
  };
}

/** The kept frames split where the previous process stopped: the view replays both halves. */
export function splitRestored(history: HistoryBuffer<WireFrame>, restoredThrough: string | undefined): { restored: WireFrame[]; live: WireFrame[] } {
  const all = history.all();
  const i = restoredThrough === undefined ? -1 : all.findIndex((f) => f.message_id === restoredThrough);
  return { restored: all.slice(0, i + 1), live: all.slice(i + 1) };
}
