// "Continue this conversation" (decisions 630, 641), the same for the editor's view and every
// master: a session that an error ended stays ended (§18.2, §17.2.2 — its frames, its id, its
// session.deleted are never touched); the host keeps a small record of it, and on request starts a
// NEW session with the same agent, in the same workspace, given the ended session's own agent
// conversation id (§18.3 `agent_session_id`) so the agent goes on remembering. The new session
// links to the ended one in its capabilities and carries a digest of what was said there in its
// own first vendor frame (src/protocol/continuation.ts).
// One live session per agent conversation: asking twice (a double click, the editor and a master
// at once), or asking for two links of one chain, gives the session that already goes on with it.
import { continuedFromOf, type ContinuedFrom, type EarlierChat } from '../../protocol/continuation';
import type { FrameOf } from '../../protocol/frameTypes';
import { phrasedReason } from '../../protocol/hostPhrases';
import type { AgentSummary, EndedSessionSummary } from '../../protocol/webviewMessages';
import type { SessionEntry } from '../sessionEntry';
import { agentSessionIdOf } from '../restore';
import { earlierChatOf, endedByAgentFailure, type EarlierDigest } from './earlierChat';

/** What continuing gave: the new session, and whether the agent was asked to resume. */
export interface Continuation {
  session_id: string;
  /** The ended session the given session goes on from (another link of the chain when that one already went on). */
  continued_from: string;
  /** The agent was started with the ended conversation's id; false: it starts afresh. */
  resumed: boolean;
  /** False when a session that already goes on with the conversation was given again. */
  created: boolean;
}

/** The ended session is not one this host keeps for continuing (never was, forgotten, or invisible to the asker). */
export class NoEndedSession extends Error {
  constructor(session_id: string) {
    super(`there is no ended session ${session_id} to continue`);
    this.name = 'NoEndedSession';
  }
}

/** The agent's conversation already goes on in a session the asker cannot be given (not shared, §2.4). */
export class ConversationGoesOn extends Error {
  constructor(session_id: string) {
    super(`the agent's conversation of session ${session_id} already goes on in another session of this host`);
    this.name = 'ConversationGoesOn';
  }
}

/**
 * The ended session's agent cannot run now: never another agent in its place (that one has no
 * memory of the conversation). Carries the agent's own reason and its phrases, so each reader
 * says it in its language (decision 609).
 */
export class AgentCannotRun extends Error {
  constructor(readonly agent: Pick<AgentSummary, 'name' | 'unavailable_reason' | 'unavailable_words'>) {
    super(`${agent.name} cannot run now${agent.unavailable_reason ? `: ${agent.unavailable_reason}` : ''}`);
    this.name = 'AgentCannotRun';
  }
}

/** Runs what makes a session within a limit (the sharing server's session cap); a refusal throws. */
export type WithinCap = <T>(make: () => Promise<T>) => Promise<T>;

export interface ContinueOptions {
  /** A remote master asks: only a session that was shared when it ended (§2.4). */
  sharedOnly?: boolean;
  /** Wraps only the start of a NEW session: the answer "asked again" is never refused by a cap. */
  within?: WithinCap;
}

export interface ContinuationPorts {
  /** Start a session (the host's own start: admission, journal, checkpoints). */
  start(request: { agent: string; name?: string; resumeSessionId?: string; continuedFrom: ContinuedFrom }): Promise<string>;
  /** Publish the digest into the new session: its history, journal and every connection, fitted to each. */
  publish(session_id: string, digest: EarlierChat): void;
  has(session_id: string): boolean;
  share(session_id: string): void;
  isShared(session_id: string): boolean;
  /** A live session of `agent` that goes on with its conversation `agent_session_id` (§18.3), if any. */
  liveOn(agent: string, agent_session_id: string): string | undefined;
  /** The host's agents now (an agent that went away cannot continue). */
  agents(): readonly ContinuableAgent[];
  /** Detects the agents again (one's executable went away since detection); never rejects. Absent: none. */
  detectAgain?(): Promise<void>;
  /** Why no agent may run right now (Restricted Mode), or undefined. */
  blocked(): string | undefined;
  /** Where records are kept between runs, once the host's state folder is open (undefined: not yet, or never). */
  store?(): EndedRecordsStore | undefined;
}

/** An agent as continuing sees it: its summary, and whether its executable is still there (agentChoice.ts). */
export type ContinuableAgent = AgentSummary & { stillThere?(): boolean };

/** What is kept of a session an error ended. */
type EndedRecord = StoredEndedRecord;

/** What a record keeps across restarts (endedStore.ts, decision 646). */
export interface StoredEndedRecord {
  /**
   * The newest continuation started from it. Kept on disk too: a restored continuation is found by
   * its id — the agent's conversation id alone cannot, when the chat ended before naming one.
   */
  continuation?: Continuation;
  link: Pick<ContinuedFrom, 'session_id' | 'name' | 'agent' | 'reason' | 'ended_at'>;
  digest: EarlierDigest;
  agent_session_id?: string;
  /** No name was given: the continuation carries its agent's name too. */
  defaultName: boolean;
  /** Visible to remote masters when it ended (§2.4): they may continue it, and the new one is shared. */
  shared: boolean;
  /** The ended chats of the chain this one went on from (A continued as this one): asking for one of them is asking for this. */
  supersedes?: string[];
}

/** Where the records are kept between runs (the state folder's `ended.json`). */
export interface EndedRecordsStore {
  load(): StoredEndedRecord[];
  save(records: readonly StoredEndedRecord[]): void;
}

/** An ended session the person may continue, as a list shows it (newest first). */
export type EndedSummary = EndedSessionSummary;

/** Ended sessions kept at once in each pool, newest last (each is a small digest, not its frames). */
export const ENDED_KEPT = 16;

export class Continuations {
  /**
   * Two pools of ENDED_KEPT each: sessions that ended unshared (the user's own in the editor, which
   * no master can reach) and shared ones (any master may end its sessions with errors: those never
   * push the user's records out, decision 641).
   */
  private readonly local = new Map<string, EndedRecord>();
  private readonly shared = new Map<string, EndedRecord>();
  /** The continuations started here that still run, by their session id (a later ask's answer). */
  private readonly started = new Map<string, Continuation>();
  /** One ask at a time per agent conversation (or per ended session that never named one). */
  private readonly asks = new Map<string, Promise<unknown>>();

  /** The store the records were loaded from, once the state folder is open (decision 646). */
  private store: EndedRecordsStore | undefined;

  constructor(private readonly ports: ContinuationPorts) {}

  /**
   * The records of earlier runs, read once the state folder is open (until then, only this run's
   * are known). A record of this run wins over a stored one of the same session.
   */
  private loaded(): void {
    if (this.store) return;
    const store = this.ports.store?.();
    if (!store) return;
    this.store = store;
    const stored = store.load();
    const mine = new Set([...this.local.keys(), ...this.shared.keys()]);
    // Stored ones are older than this run's: they go first, so they are the first dropped.
    for (const pool of [this.local, this.shared]) {
      const current = [...pool];
      pool.clear();
      for (const r of stored) if (r.shared === (pool === this.shared) && !mine.has(r.link.session_id)) pool.set(r.link.session_id, r);
      for (const [id, r] of current) pool.set(id, r);
      this.trim(pool);
    }
    if (mine.size > 0) this.save();
  }

  private trim(pool: Map<string, EndedRecord>): void {
    for (const oldest of pool.keys()) {
      if (pool.size <= ENDED_KEPT) break;
      pool.delete(oldest);
    }
  }

  private save(): void {
    this.store?.save([...this.local.values(), ...this.shared.values()]);
  }

  /**
   * The ended sessions that can be continued and do not go on already (newest first): the
   * editor's list after a reload (decision 646). `sharedOnly`: a remote master's (§2.4).
   */
  endedList(o: { sharedOnly?: boolean } = {}): EndedSummary[] {
    this.loaded();
    const out: EndedSummary[] = [];
    // The person's own (unshared) first, then the shared ones, which masters may have started
    // too: a master's chats never push the person's down the list (the review of 2026-12-05).
    for (const pool of o.sharedOnly ? [this.shared] : [this.local, this.shared]) {
      const part: EndedSummary[] = [];
      for (const r of pool.values()) {
        if (r.continuation && this.ports.has(r.continuation.session_id)) continue;
        if (r.agent_session_id !== undefined && this.ports.liveOn(r.link.agent, r.agent_session_id) !== undefined) continue;
        part.push({ session_id: r.link.session_id, name: r.link.name, agent: r.link.agent, ended_at: r.link.ended_at, ...(r.shared ? { shared: true } : {}) });
      }
      out.push(...part.sort((a, b) => (a.ended_at < b.ended_at ? 1 : a.ended_at > b.ended_at ? -1 : 0)));
    }
    return out;
  }

  /** The person dismissed an ended session: it is no longer offered (nor kept). False: none such. */
  forget(session_id: string): boolean {
    this.loaded();
    const gone = this.local.delete(session_id) || this.shared.delete(session_id);
    if (gone) this.save();
    return gone;
  }

  /**
   * A session's `session.deleted` went out. Only an end the agent side caused is kept (§17.2.2 a
   * fatal agent.error, §7.4.1 the adapter's fatal session.error): a session the user or a master
   * ended — a master's fatal session.error too — was meant to end. Built now, while the history
   * still holds the frames.
   */
  sessionEnded(frame: FrameOf<'session.deleted'>, entry: Pick<SessionEntry, 'agent' | 'defaultName' | 'agentSessionId' | 'history'>, s: { name: string | undefined; shared: boolean }): void {
    this.loaded();
    if (frame.payload.reason !== 'error' || frame.payload.deleted_by !== 'client') return this.continuationDeleted(frame.payload.session_id);
    const frames = entry.history.all();
    if (!endedByAgentFailure(frames)) return;
    const id = frame.payload.session_id;
    // A continuation that ended too goes on from here: the chat it continued is this one's past
    // (its digest holds that chat's first), so only this one is offered (one row per conversation).
    const before = continuedFromOf(frames.flatMap((f) => (f.type === 'session.capabilities' ? [f.payload] : [])));
    let supersedes: string[] = [];
    if (before) {
      const past = this.local.get(before.session_id) ?? this.shared.get(before.session_id);
      supersedes = [before.session_id, ...(past?.supersedes ?? [])].slice(0, 64);
      this.local.delete(before.session_id);
      this.shared.delete(before.session_id);
    }
    // §18.3: the id the agent named, in a turn or (an ACP agent) in its capabilities before its first turn ended.
    const agent_session_id = entry.agentSessionId ?? agentSessionIdOf(frames);
    this.local.delete(id);
    this.shared.delete(id);
    const pool = s.shared ? this.shared : this.local;
    pool.set(id, {
      link: { session_id: id, name: s.name ?? entry.agent, agent: entry.agent, reason: frame.payload.reason, ended_at: frame.timestamp },
      digest: earlierChatOf(frames),
      ...(agent_session_id ? { agent_session_id } : {}),
      defaultName: entry.defaultName,
      shared: s.shared,
      ...(supersedes.length > 0 ? { supersedes } : {}),
    });
    this.trim(pool);
    this.save();
    for (const sid of this.started.keys()) if (!this.ports.has(sid)) this.started.delete(sid);
  }

  /**
   * A continuation was ended on purpose (the person deleted it, a master did): the conversation is
   * over, and the ended chat it went on from is not offered again — its digest holds what the
   * person just deleted (the trial of 2026-12-05).
   */
  private continuationDeleted(session_id: string): void {
    let gone = false;
    for (const pool of [this.local, this.shared]) {
      for (const [id, r] of pool) {
        if (r.continuation?.session_id !== session_id) continue;
        pool.delete(id);
        gone = true;
      }
    }
    if (gone) this.save();
  }

  /** Can this ended session be continued (by a remote master: only one that was shared, §2.4)? */
  continuable(session_id: string, o: { sharedOnly?: boolean } = {}): boolean {
    return this.record(session_id, o) !== undefined;
  }

  /** Start (or give again) the continuation of an ended session; NoEndedSession when there is none. */
  continueSession(session_id: string, o: ContinueOptions = {}): Promise<Continuation> {
    const r = this.record(session_id, o);
    if (!r) return Promise.reject(new NoEndedSession(session_id));
    // Asks about one conversation wait for each other: the second finds the session the first started.
    const key = r.agent_session_id !== undefined ? `conversation:${r.link.agent}:${r.agent_session_id}` : `ended:${session_id}`;
    const before = this.asks.get(key) ?? Promise.resolve();
    const mine = before.then(() => this.continueNow(session_id, o));
    const tail = mine.catch(() => undefined);
    this.asks.set(key, tail);
    void tail.then(() => this.asks.get(key) === tail && this.asks.delete(key));
    return mine;
  }

  private record(session_id: string, o: { sharedOnly?: boolean }): EndedRecord | undefined {
    this.loaded();
    const r = this.local.get(session_id) ?? this.shared.get(session_id) ?? [...this.local.values(), ...this.shared.values()].find((x) => x.supersedes?.includes(session_id));
    return r && (!o.sharedOnly || r.shared) ? r : undefined;
  }

  private async continueNow(session_id: string, o: ContinueOptions): Promise<Continuation> {
    const r = this.record(session_id, o);
    if (!r) throw new NoEndedSession(session_id);
    const again = (c: Continuation): Continuation => {
      // A master is never given a session the user has not shared (§2.4).
      if (o.sharedOnly && !this.ports.isShared(c.session_id)) throw new ConversationGoesOn(session_id);
      return { ...c, created: false };
    };
    if (r.continuation && this.ports.has(r.continuation.session_id)) return again(r.continuation);
    // One live session per agent conversation: two agent processes resuming one conversation would
    // both write to it (Claude Code's --resume, Codex's exec resume, ACP session/load).
    if (r.agent_session_id !== undefined) {
      const live = this.ports.liveOn(r.link.agent, r.agent_session_id);
      if (live !== undefined) return again(this.started.get(live) ?? { session_id: live, continued_from: session_id, resumed: true, created: false });
    }
    const c = await this.start(r, o.within);
    r.continuation = c;
    this.save();
    this.started.set(c.session_id, c);
    return c;
  }

  /**
   * The agent as it is now. A continuation may come long after detection: an executable removed
   * since would start a session that dies at once and offers Continue again, for ever (decision
   * 644). So one gone is detected again — found elsewhere, or listed unavailable with why.
   */
  private async runnable(id: string): Promise<ContinuableAgent | undefined> {
    const find = () => this.ports.agents().find((a) => a.id === id);
    const before = find();
    // Listed and still there: runs. Listed unavailable may be stale too (installed since, or put
    // back after a refusal: the trial of 2026-12-05), so it is detected again as well.
    if (before?.available && before.stillThere?.() !== false) return before;
    if (this.ports.blocked() !== undefined) return before;
    await this.ports.detectAgain?.();
    const after = find();
    if (!after?.available || after.stillThere?.() !== false) return after;
    const { reason, words } = phrasedReason(['agent_reason.not_available']);
    return { ...after, available: false, unavailable_reason: reason, unavailable_words: words };
  }

  private async start(r: EndedRecord, within: WithinCap | undefined): Promise<Continuation> {
    const blocked = this.ports.blocked();
    if (blocked !== undefined) throw new Error(blocked);
    // Never another agent in its place: that one has no memory of the conversation to go on with.
    const agent = await this.runnable(r.link.agent);
    if (!agent?.available) throw new AgentCannotRun(agent ?? { name: r.link.agent });
    const resumed = r.agent_session_id !== undefined;
    const { earlier, left_out } = r.digest;
    const counts = { messages: earlier.length, ...(left_out > 0 ? { left_out } : {}) };
    const make = () =>
      this.ports.start({
        agent: r.link.agent,
        ...(r.defaultName ? {} : { name: r.link.name }),
        ...(r.agent_session_id ? { resumeSessionId: r.agent_session_id } : {}),
        continuedFrom: { ...r.link, resumed, ...counts },
      });
    const session_id = await (within ? within(make) : make());
    // Once, right after the opening: a restore finds it in the session's own history.
    if (earlier.length > 0 || left_out > 0) this.ports.publish(session_id, { continued_from: r.link.session_id, earlier, ...(left_out > 0 ? { left_out } : {}) });
    if (r.shared) this.ports.share(session_id);
    return { session_id, continued_from: r.link.session_id, resumed, created: true };
  }
}
