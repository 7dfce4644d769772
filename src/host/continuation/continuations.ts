// "Continue this conversation" (decision 630), the same for the editor's view and every master:
// a session that an error ended stays ended (§18.2, §17.2.2 — its frames, its id, its
// session.deleted are never touched); the host keeps a small record of it, and on request starts a
// NEW session with the same agent, in the same workspace, given the ended session's own agent
// conversation id (§18.3 `agent_session_id`) so the agent goes on remembering. The new session
// names the ended one and carries a digest of what was said there (src/protocol/continuation.ts).
// Asking twice (a double click, the editor and a master at once) gives the one continuation.
import type { ContinuedFrom } from '../../protocol/continuation';
import type { FrameOf } from '../../protocol/frameTypes';
import type { AgentSummary } from '../../protocol/webviewMessages';
import type { SessionEntry } from '../sessionEntry';
import { earlierChatOf } from './earlierChat';

/** What continuing gave: the new session, and whether the agent was asked to resume. */
export interface Continuation {
  session_id: string;
  continued_from: string;
  /** The agent was started with the ended conversation's id; false: it starts afresh. */
  resumed: boolean;
  /** False when an earlier request's continuation, still running, was given again. */
  created: boolean;
}

/** The ended session is not one this host keeps for continuing (never was, forgotten, or invisible to the asker). */
export class NoEndedSession extends Error {
  constructor(session_id: string) {
    super(`there is no ended session ${session_id} to continue`);
    this.name = 'NoEndedSession';
  }
}

export interface ContinuationPorts {
  /** Start a session (the host's own start: admission, journal, checkpoints). */
  start(request: { agent: string; name?: string; resumeSessionId?: string; continuedFrom: ContinuedFrom }): Promise<string>;
  has(session_id: string): boolean;
  share(session_id: string): void;
  /** The host's agents now (an agent that went away cannot continue). */
  agents(): readonly AgentSummary[];
  /** Why no agent may run right now (Restricted Mode), or undefined. */
  blocked(): string | undefined;
}

/** What is kept of a session an error ended. */
interface EndedRecord {
  link: Pick<ContinuedFrom, 'session_id' | 'name' | 'agent' | 'reason' | 'ended_at' | 'earlier' | 'left_out'>;
  agent_session_id?: string;
  /** No name was given: the continuation carries its agent's name too. */
  defaultName: boolean;
  /** Visible to remote masters when it ended (§2.4): they may continue it, and the new one is shared. */
  shared: boolean;
  continuation?: Promise<Continuation>;
}

/** Ended sessions kept at once, newest last (each is a small digest, not its frames). */
export const ENDED_KEPT = 16;

export class Continuations {
  private readonly kept = new Map<string, EndedRecord>();

  constructor(private readonly ports: ContinuationPorts) {}

  /**
   * A session's `session.deleted` went out. Only an error's end is kept: a session the user (or a
   * master) ended was meant to end. Built now, while the history still holds the frames.
   */
  sessionEnded(frame: FrameOf<'session.deleted'>, entry: Pick<SessionEntry, 'agent' | 'defaultName' | 'agentSessionId' | 'history'>, s: { name: string | undefined; shared: boolean }): void {
    if (frame.payload.reason !== 'error') return;
    const { earlier, left_out } = earlierChatOf(entry.history.all());
    const id = frame.payload.session_id;
    this.kept.delete(id);
    this.kept.set(id, {
      link: { session_id: id, name: s.name ?? entry.agent, agent: entry.agent, reason: frame.payload.reason, ended_at: frame.timestamp, earlier, ...(left_out > 0 ? { left_out } : {}) },
      ...(entry.agentSessionId ? { agent_session_id: entry.agentSessionId } : {}),
      defaultName: entry.defaultName,
      shared: s.shared,
    });
    for (const oldest of this.kept.keys()) {
      if (this.kept.size <= ENDED_KEPT) break;
      this.kept.delete(oldest);
    }
  }

  /** Can this ended session be continued (by a remote master: only one that was shared, §2.4)? */
  continuable(session_id: string, o: { sharedOnly?: boolean } = {}): boolean {
    const r = this.kept.get(session_id);
    return r !== undefined && (!o.sharedOnly || r.shared);
  }

  /** Start (or give again) the continuation of an ended session; NoEndedSession when there is none. */
  async continueSession(session_id: string, o: { sharedOnly?: boolean } = {}): Promise<Continuation> {
    const r = this.kept.get(session_id);
    if (!r || (o.sharedOnly && !r.shared)) throw new NoEndedSession(session_id);
    const previous = r.continuation;
    if (previous) {
      const earlier = await previous.catch(() => undefined);
      if (earlier && this.ports.has(earlier.session_id)) return { ...earlier, created: false };
      // Another request started a new one while this waited: that one is the continuation.
      if (r.continuation !== previous) return this.continueSession(session_id, o);
      // It failed to start, or the user ended it since: a new one.
    }
    const started = this.start(r);
    r.continuation = started;
    started.catch(() => {
      if (r.continuation === started) r.continuation = undefined;
    });
    return started;
  }

  private async start(r: EndedRecord): Promise<Continuation> {
    const blocked = this.ports.blocked();
    if (blocked !== undefined) throw new Error(blocked);
    // Never another agent in its place: that one has no memory of the conversation to go on with.
    const agent = this.ports.agents().find((a) => a.id === r.link.agent);
    if (!agent?.available) throw new Error(`${agent?.name ?? r.link.agent} cannot run now${agent?.unavailable_reason ? `: ${agent.unavailable_reason}` : ''}`);
    const resumed = r.agent_session_id !== undefined;
    const session_id = await this.ports.start({
      agent: r.link.agent,
      ...(r.defaultName ? {} : { name: r.link.name }),
      ...(r.agent_session_id ? { resumeSessionId: r.agent_session_id } : {}),
      continuedFrom: { ...r.link, resumed },
    });
    if (r.shared) this.ports.share(session_id);
    return { session_id, continued_from: r.link.session_id, resumed, created: true };
  }
}
