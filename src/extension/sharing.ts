// "Share session" in the editor: the host's sharing (src/host/sharing.ts) with the rawp.remote.*
// settings and the token from SecretStorage. The attach URL for the browser master carries the
// token in its fragment (which no server ever sees). Master counts feed the status bar and the
// session list.
import * as vscode from 'vscode';
import type { Logger } from '../session/ports';
import { HostSharing } from '../host/sharing';
import type { SessionHost } from '../host/sessionHost';
import type { Secrets } from './secrets';
import { settings } from './settings';

export class Sharing implements vscode.Disposable {
  private readonly sharing: HostSharing;
  private readonly listeners = new Set<() => void>();

  constructor(
    host: SessionHost,
    private readonly secrets: Secrets,
    logger: Logger,
  ) {
    this.sharing = new HostSharing({
      host,
      logger,
      changed: () => this.changed(),
      settings: async () => {
        const r = settings.remote();
        return { token: await this.secrets.remoteToken(), host: r.host, port: r.port, allowedOrigins: r.allowedOrigins, allowInsecureRemote: r.allowInsecure };
      },
    });
  }

  onDidChange(listener: () => void): vscode.Disposable {
    this.listeners.add(listener);
    return new vscode.Disposable(() => this.listeners.delete(listener));
  }

  isShared(session_id: string): boolean {
    return this.sharing.isShared(session_id);
  }

  masterCount(): Promise<number> {
    return this.sharing.masterCount();
  }

  /** Shares the session and returns the browser URL (token in the fragment). */
  async share(session_id: string): Promise<string> {
    const server = await this.sharing.share(session_id);
    return server.browserUrl({ session_id, token: await this.secrets.remoteToken() });
  }

  stop(session_id: string): Promise<void> {
    return this.sharing.stop(session_id);
  }

  private changed(): void {
    for (const l of [...this.listeners]) l();
  }

  dispose(): void {
    void this.sharing.close();
  }
}
