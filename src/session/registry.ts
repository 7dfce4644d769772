// The sessions of one host (the VS Code extension or `rawp serve`): create, list, get, rename,
// delete. Each session is an AgentSession wired to the hub (its frames are published there, with
// a history buffer for reattach), and is forgotten once it has ended.
import type { AgentAdapter } from './agentAdapter';
import type { PayloadOf } from '../protocol/frameTypes';
import type { WireFrame } from './connection';
import { AgentSession, type AgentSessionOptions, type DeletedBy, type DeleteReason, type RenamedBy } from './engine';
import { DEFAULT_HISTORY, HistoryBuffer, type HistoryOptions } from './history';
import type { Hub, SessionOrigin } from './hub';

export interface CreateSessionOptions {
  adapter: AgentAdapter;
  /** `local`: created in the editor, visible to remote connections only once shared (§2.4). */
  origin: SessionOrigin;
  name?: string;
  workspacePath?: string;
  session_id?: string;
  history?: HistoryOptions;
  /** The session's one history buffer, made (and maybe restored, journaled) by the host. */
  historyBuffer?: HistoryBuffer<WireFrame>;
  /** Engine options for this session (timers, logger, prompt preparation, file search, …). */
  engine?: Omit<AgentSessionOptions, 'adapter' | 'out' | 'onEnded' | 'session_id' | 'name' | 'workspacePath'>;
}

export interface SessionInfo {
  session_id: string;
  name: string;
  agent: string;
  state: string;
  mode: PayloadOf<'session.turn.start'>['mode'];
  created_at: string;
  origin: SessionOrigin;
  shared: boolean;
}

export class SessionRegistry {
  private readonly sessions = new Map<string, { session: AgentSession; origin: SessionOrigin }>();

  constructor(
    readonly hub: Hub,
    private readonly defaults: CreateSessionOptions['engine'] = {},
  ) {}

  /** Create a session and start its agent; resolves once the §13.1 opening frames are out. */
  async create(options: CreateSessionOptions): Promise<AgentSession> {
    const history = options.historyBuffer ?? new HistoryBuffer<WireFrame>(options.history ?? DEFAULT_HISTORY);
    let session_id = '';
    const session = new AgentSession({
      maxFrameSize: this.hub.maxFrameSize,
      ...this.defaults,
      ...options.engine,
      adapter: options.adapter,
      session_id: options.session_id,
      name: options.name,
      workspacePath: options.workspacePath,
      out: (frame) => this.hub.publish(session_id, frame),
      onEnded: ({ reason }) => {
        this.sessions.delete(session_id);
        this.hub.removeSession(session_id, `session deleted (${reason})`);
      },
    });
    session_id = session.session_id;
    if (this.sessions.has(session_id)) throw new Error(`session ${session_id} already exists`);
    this.hub.addSession(session, { origin: options.origin, history });
    this.sessions.set(session_id, { session, origin: options.origin });
    await session.start(); // on failure the session has already ended itself and is gone
    return session;
  }

  get(session_id: string): AgentSession | undefined {
    return this.sessions.get(session_id)?.session;
  }

  list(filter: { sharedOnly?: boolean } = {}): SessionInfo[] {
    return [...this.sessions.values()]
      .map(({ session, origin }) => ({
        session_id: session.session_id,
        name: session.name,
        agent: session.agent.id,
        state: session.agentState(),
        mode: session.mode,
        created_at: session.created_at,
        origin,
        shared: this.hub.isShared(session.session_id),
      }))
      .filter((s) => !filter.sharedOnly || s.shared);
  }

  /** `person`: false for a name no person gave (a prompt's words), which an agent's title may replace (decision 725). */
  rename(session_id: string, name: string, renamed_by: RenamedBy = 'client', person = true): boolean {
    const s = this.get(session_id);
    if (!s) return false;
    return s.rename(name, renamed_by, person);
  }

  /** End a session with the §7.5.3 clean-up; false when there is no such session. */
  async delete(session_id: string, reason: DeleteReason = 'user_request', deleted_by: DeletedBy = 'client'): Promise<boolean> {
    const s = this.get(session_id);
    if (!s) return false;
    await s.end(reason, deleted_by);
    return true;
  }

  /** End every session (host shutting down). */
  async disposeAll(): Promise<void> {
    await Promise.all([...this.sessions.values()].map(({ session }) => session.end('user_request', 'system')));
  }
}
