// What a SessionHost (sessionHost.ts) keeps per session, and the hidden local "recorder"
// connection of the hub that keeps it up to date: it feeds the host's events, the slash-command
// queue and the journal's index (renames), and when the hub closes it — the session ended, its
// §7.5.3 clean-up frames already out — it lets the session's host-side state go.
import { EVERY_FEATURE, type FeatureSet } from '../protocol/capabilities';
import { nameFromPrompt } from '../protocol/sessionName';
import type { Frame, FrameOf, PayloadOf } from '../protocol/frameTypes';
import type { Connection, WireFrame } from '../session/connection';
import type { HistoryBuffer } from '../session/history';
import type { SessionMeta } from './journal/format';
import type { SessionJournal } from './journal/sessionJournal';
import type { SessionAdmission } from './promptAdmission';
import type { SessionCommands } from './sessionCommands';
import type { HostEvent } from './sessionHostOptions';

/** A local view renders every frame type, so it announces every feature (§12.2.1). */
export const LOCAL_VIEW_FEATURES: FeatureSet = EVERY_FEATURE;

export interface SessionEntry {
  history: HistoryBuffer<WireFrame>;
  journal?: SessionJournal;
  /** The newest frame from before a restart, if the session was restored (the view's replay split). */
  restoredThrough?: string;
  agent: string;
  recorderId: string;
  commands?: SessionCommands;
  /** Where every control.prompt.request of the session is admitted (promptAdmission.ts). */
  admission?: SessionAdmission;
  /** No name was asked for: the session carries its agent's display name (a switch renames it). */
  defaultName: boolean;
  /** Its first turn's prompt may name it (decision 651): not a restored chat, nor a headless run. */
  namesFromPrompt: boolean;
  /** The name the prompt admitted last gives, applied when its turn starts (notePromptName). */
  promptName?: string;
  /** §18.3: the agent's own session id, as it named it or as the session was restored with. */
  agentSessionId?: string;
}

/**
 * A session still named after its agent takes the words of the prompt of its first turn as its name
 * (decision 651): two chats both called "Built-in (offline)" could not be told apart in any list.
 * Each prompt admitted before that turn starts is noted; the turn's start applies the last one, so a
 * prompt the engine refuses (no turn) names nothing.
 */
export function notePromptName(entry: SessionEntry, prompt: PayloadOf<'control.prompt.request'>): void {
  if (entry.defaultName && entry.namesFromPrompt) entry.promptName = nameFromPrompt(prompt) || undefined;
}

/**
 * How a session starts named: with its agent's name (`defaultName`), and whether a person gave the
 * name. The latter is journaled, so after a restart an agent's title or a prompt's words stay
 * replaceable and a person's name stays (decision 728); an older journal's name other than the
 * agent's counts as a person's.
 */
export function startingName(name: string | undefined, restored: SessionMeta | undefined, agentName: string): { defaultName: boolean; nameByPerson: boolean } {
  const defaultName = name === undefined || (restored !== undefined && name === agentName);
  return { defaultName, nameByPerson: restored?.name_by_person ?? !defaultName };
}

/** What the recorder does to the host (sessionHost.ts wires it). */
export interface RecorderHost {
  /** The journal's index entry follows a rename. */
  renamed(session_id: string, name: string): void;
  /** The first turn started: the session takes its prompt's name (decision 651). */
  promptNamed(session_id: string, name: string): void;
  emit(e: HostEvent): void;
  /** The hub closed the recorder: the session ended; forget what the host kept for it. */
  ended(session_id: string, entry: SessionEntry): void;
  /** The session's `session.deleted` went out (its history still holds every frame). */
  deleted(frame: FrameOf<'session.deleted'>, entry: SessionEntry): void;
}

export function recorderConnection(session_id: string, entry: SessionEntry, host: RecorderHost): Connection {
  return {
    id: entry.recorderId,
    kind: 'local',
    features: LOCAL_VIEW_FEATURES,
    send: (frame: WireFrame) => {
      // Deferred: a prompt the queue releases on turn.end must not overtake that turn.end on the
      // other connections (this runs inside the hub's fan-out of it).
      if (entry.admission && 'payload' in frame) queueMicrotask(() => entry.admission?.observe(frame as Frame));
      if (frame.type === 'session.deleted') host.deleted(frame, entry);
      if (frame.type === 'session.turn.start' && entry.namesFromPrompt) {
        entry.namesFromPrompt = false;
        const name = entry.promptName;
        // After this fan-out: the rename's own frame must not overtake the turn's start.
        if (name !== undefined && entry.defaultName) queueMicrotask(() => host.promptNamed(session_id, name));
      }
      if (frame.type === 'session.renamed') {
        entry.defaultName = false;
        host.renamed(session_id, frame.payload.name);
      }
      host.emit({ kind: 'frame', session_id, frame });
      if (frame.type === 'session.renamed' || frame.type === 'agent.state.changed') host.emit({ kind: 'sessions' });
    },
    close: () => {
      // The hub closes every connection when the session ends (§7.5.3 order already done).
      host.ended(session_id, entry);
      host.emit({ kind: 'ended', session_id });
      host.emit({ kind: 'sessions' });
    },
  };
}
