// Transport inside VS Code: the webview API's postMessage both ways. Host messages are validated
// against the message map before anyone sees them; invalid ones are reported back to the host log.
import { parseHostMessage, webviewMessage, type HostMessage, type WebviewMessage } from '../../../src/protocol/webviewMessages';
import { Listeners, type Transport } from './types';

/** The part of `acquireVsCodeApi()` we use. */
export interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

/** How long the view waits for the host's `file.resolved`. */
const FILE_RESOLVE_MS = 15_000;

export class VsCodeTransport implements Transport {
  private readonly listeners = new Listeners<HostMessage>();
  private readonly fileWaits = new Map<string, ((uri: string | undefined) => void)[]>();

  constructor(
    private readonly api: VsCodeApi,
    target: Pick<Window, 'addEventListener'> = window,
  ) {
    target.addEventListener('message', (event: MessageEvent) => {
      const parsed = parseHostMessage(event.data);
      if (parsed.ok && parsed.message.kind === 'file.resolved') this.settleFile(parsed.message.payload.transfer_id, parsed.message.payload.uri);
      if (parsed.ok) this.listeners.emit(parsed.message);
      else this.send(webviewMessage('log', { level: 'warn', message: `webview ignored a host message: ${parsed.error}` }));
    });
  }

  send(message: WebviewMessage): void {
    this.api.postMessage(message);
  }

  resolveFile(session_id: string, transfer: { transfer_id: string }): Promise<string | undefined> {
    return new Promise((resolve) => {
      const id = transfer.transfer_id;
      const waits = this.fileWaits.get(id);
      if (waits) return void waits.push(resolve);
      this.fileWaits.set(id, [resolve]);
      this.send(webviewMessage('file.resolve', { session_id, transfer_id: id }));
      setTimeout(() => this.settleFile(id, undefined), FILE_RESOLVE_MS);
    });
  }

  private settleFile(transfer_id: string, uri: string | undefined): void {
    const waits = this.fileWaits.get(transfer_id);
    this.fileWaits.delete(transfer_id);
    for (const w of waits ?? []) w(uri);
  }

  onMessage(listener: (message: HostMessage) => void): () => void {
    return this.listeners.add(listener);
  }

  getState(): unknown {
    return this.api.getState();
  }

  setState(state: unknown): void {
    this.api.setState(state);
  }
}
