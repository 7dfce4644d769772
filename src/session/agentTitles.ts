// The agent's own title for its session (ACP `session_info_update`, decision 725): it names the
// session through the engine's rename, `renamed_by: 'edge'` (§7.6: the edge node, where the agent
// runs, asked for it), unless a person named the session (the create API's name, a user's /rename,
// a master's session.renamed): from then on the agent's titles are ignored. A title equal to the
// name does nothing; a flood is bounded: at most one rename per TITLE_EVERY_MS, the latest title
// held back in the meantime winning when the wait ends. Titles before the session's opening went
// out (§13.1) wait the same way.
import { cleanSessionName } from '../protocol/sessionName';
import type { TimerHandle, Timers } from './ports';

/** At most one agent-given name per this many milliseconds. */
export const TITLE_EVERY_MS = 10_000;

export interface AgentTitlesSession {
  /** The session's current name. */
  name(): string;
  /** Rename as the agent's title (the engine's own rename, renamed_by 'edge'). */
  apply(name: string): void;
  /** The opening frames are out: a rename may be said. */
  ready(): boolean;
  ending(): boolean;
  timers: Timers;
}

export class AgentTitles {
  private personNamed: boolean;
  /** The latest title held back while a wait runs. */
  private held: string | undefined;
  private wait: TimerHandle | undefined;

  constructor(
    private readonly s: AgentTitlesSession,
    /** The session was created with a name a person gave. */
    named: boolean,
    private readonly everyMs = TITLE_EVERY_MS,
  ) {
    this.personNamed = named;
  }

  /** A person named the session: what a restart keeps (decision 728). */
  get byPerson(): boolean {
    return this.personNamed;
  }

  /** A person renamed the session: agent titles are ignored from now on. */
  namedByPerson(): void {
    this.personNamed = true;
    this.dispose();
  }

  /** The agent titled its session. */
  offer(raw: string): void {
    if (this.personNamed || this.s.ending()) return;
    const name = cleanSessionName(raw);
    if (!name) return;
    if (this.wait !== undefined) {
      // The latest wins; back to the current name means nothing is left to say.
      this.held = name === this.s.name() ? undefined : name;
      return;
    }
    if (name === this.s.name()) return;
    if (!this.s.ready()) {
      this.held = name;
      return this.startWait();
    }
    this.s.apply(name);
    this.startWait();
  }

  /** The session ends: nothing more is said. */
  dispose(): void {
    if (this.wait !== undefined) this.s.timers.clearTimeout(this.wait);
    this.wait = undefined;
    this.held = undefined;
  }

  private startWait(): void {
    this.wait = this.s.timers.setTimeout(() => {
      this.wait = undefined;
      const name = this.held;
      this.held = undefined;
      if (name !== undefined) this.offer(name);
    }, this.everyMs);
  }
}
