// "Share session": a local session becomes visible to remote masters through the remote layer's
// server (src/remote), started on first use with the rawp.remote.* settings and the token from
// SecretStorage. The attach URL for the browser master carries the token in its fragment (which
// no server ever sees). Master counts feed the status bar and the session list.
import * as vscode from 'vscode';
import { RemoteServer } from '../remote';
import type { Logger } from '../session/ports';
import type { Secrets } from './secrets';
import type { SessionHost } from '../host/sessionHost';
import { settings } from './settings';

export class Sharing implements vscode.Disposable {
  private server?: Promise<RemoteServer>;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly host: SessionHost,
    private readonly secrets: Secrets,
    private readonly logger: Logger,
  ) {}

  onDidChange(listener: () => void): vscode.Disposable {
    this.listeners.add(listener);
    return new vscode.Disposable(() => this.listeners.delete(listener));
  }

  isShared(session_id: string): boolean {
    return this.host.hub.isShared(session_id);
  }

  /** Masters attached to any session (0 while the server is not running). */
  async masterCount(): Promise<number> {
    return this.server ? (await this.server).masterCount() : 0;
  }

  /** Shares the session and returns the browser URL (token in the fragment). */
  async share(session_id: string): Promise<string> {
    const server = await this.ensureServer();
    server.share(session_id);
    this.changed();
    return server.browserUrl({ session_id, token: await this.secrets.remoteToken() });
  }

  async stop(session_id: string): Promise<void> {
    if (!this.server) return;
    (await this.server).unshare(session_id);
    this.changed();
  }

  private ensureServer(): Promise<RemoteServer> {
    if (!this.server) {
      const r = settings.remote();
      this.server = this.secrets.remoteToken().then((token) =>
        RemoteServer.start({
          registry: this.host.registry,
          token,
          host: r.host,
          port: r.port,
          allowedOrigins: r.allowedOrigins,
          allowInsecureRemote: r.allowInsecure,
          createSession: async (req) => {
            const session_id = await this.host.create({ agent: req.agent, name: req.name });
            (await this.server)?.share(session_id); // created by a master: visible to masters
            return { session_id };
          },
          logger: this.logger,
        }).then((server) => {
          server.onMastersChanged(() => this.changed());
          this.logger.info(`sharing server listening on ${server.url}`);
          return server;
        }),
      );
      this.server.catch(() => (this.server = undefined));
    }
    return this.server;
  }

  private changed(): void {
    for (const l of [...this.listeners]) l();
  }

  dispose(): void {
    void this.server?.then((s) => s.close()).catch(() => undefined);
  }
}
