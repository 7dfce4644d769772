// Sharing sessions with remote masters, the same for the editor and `rawp serve`: one RemoteServer
// (src/remote) on the host's registry, started on first use; sessions a master creates
// (POST /v1/sessions) are created by the host — with its slash commands, prompt admission and
// journal — and shared at once; DELETE /v1/sessions/{id} ends them through the host too, and
// POST /v1/sessions/{id}/continue continues an ended one through it (decisions 630, 641).
// The editor supplies its settings and SecretStorage token; `rawp serve` its command line.
import { RemoteServer, type RemoteServerOptions } from '../remote';
import type { Logger } from '../session/ports';
import type { SessionHost } from './sessionHost';
import { RefusedRequest } from '../remote/serverLimits';
import { ConversationGoesOn, NoEndedSession } from './continuation/continuations';

/** How to start the server: everything but what the host itself provides. */
export type ServerSettings = Omit<RemoteServerOptions, 'registry' | 'createSession' | 'deleteSession' | 'permissionRules' | 'files' | 'logger' | 'agents' | 'switchAgent' | 'continueSession'>;

export interface HostSharingOptions {
  host: SessionHost;
  settings: () => Promise<ServerSettings>;
  logger: Logger;
  /** The agent id a master's POST asks for (`rawp serve`: unknown names are an error). Default: as asked. */
  resolveAgent?: (requested: string) => Promise<string>;
  /** A master attached or left, or a session was shared or unshared. */
  changed?: () => void;
}

export class HostSharing {
  private server?: Promise<RemoteServer>;

  constructor(private readonly o: HostSharingOptions) {}

  /** The server, started once (a failed start is tried again on the next call). */
  start(): Promise<RemoteServer> {
    if (!this.server) {
      this.server = this.o.settings().then((settings) =>
        RemoteServer.start({
          ...settings,
          registry: this.o.host.registry,
          logger: this.o.logger,
          createSession: async (req) => {
            const agent = req.agent !== undefined && this.o.resolveAgent ? await this.o.resolveAgent(req.agent) : req.agent;
            const session_id = await this.o.host.create({ agent, name: req.name });
            // Created by a master: visible to masters (an editor session is local until shared, §2.4).
            (await this.server)?.share(session_id);
            this.o.changed?.();
            return { session_id };
          },
          deleteSession: (session_id) => this.o.host.delete(session_id, 'master'),
          permissionRules: () => this.o.host.permissionRules(),
          // A master's agent pick is the host's decision, as for the editor's own view (decision 361).
          agents: () => this.o.host.agents(),
          switchAgent: async (session_id, agent) => {
            const r = await this.o.host.switchAgent(session_id, agent);
            if (r.kind === 'replaced') (await this.server)?.share(r.session_id);
            this.o.changed?.();
            return { kind: r.kind, session_id: r.session_id };
          },
          // An ended session's continuation is the host's, as for the editor's view (decisions 630,
          // 641); a master reaches only one that was shared, and the continuation is shared as it
          // was. The server's session cap applies only where a new session is started (`within`).
          endedSessions: () => this.o.host.continuations.endedList({ sharedOnly: true }),
          continueSession: async (session_id, within) => {
            try {
              const c = await this.o.host.continueSession(session_id, { sharedOnly: true, within });
              this.o.changed?.();
              return c;
            } catch (e) {
              if (e instanceof NoEndedSession) return undefined;
              // The conversation goes on in a session of the user's that is not shared: not given.
              if (e instanceof ConversationGoesOn) throw new RefusedRequest(409, e.message);
              throw e;
            }
          },
          // GET/PUT /v1/files/{id} (§4.5.1): the host's store, when it has one.
          ...(this.o.host.fileStore ? { files: this.o.host.fileStore } : {}),
        }).then((server) => {
          server.onMastersChanged(() => this.o.changed?.());
          this.o.logger.info(`sharing server listening on ${server.url}`);
          return server;
        }),
      );
      this.server.catch(() => (this.server = undefined));
    }
    return this.server;
  }

  isShared(session_id: string): boolean {
    return this.o.host.hub.isShared(session_id);
  }

  /** Masters attached to any session (0 while the server is not running). */
  async masterCount(): Promise<number> {
    return this.server ? (await this.server).masterCount() : 0;
  }

  /** Shares the session (starting the server if needed); the server gives the attach URLs. */
  async share(session_id: string): Promise<RemoteServer> {
    const server = await this.start();
    server.share(session_id);
    this.o.changed?.();
    return server;
  }

  async stop(session_id: string): Promise<void> {
    if (!this.server) return;
    (await this.server).unshare(session_id);
    this.o.changed?.();
  }

  /** Closes the server (masters get 1001); the sessions are the host's to end. */
  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    await server?.then((s) => s.close()).catch(() => undefined);
  }
}
