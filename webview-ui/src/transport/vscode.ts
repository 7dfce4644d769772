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

export class VsCodeTransport implements Transport {
  private readonly listeners = new Listeners<HostMessage>();

  constructor(
    private readonly api: VsCodeApi,
    target: Pick<Window, 'addEventListener'> = window,
  ) {
    target.addEventListener('message', (event: MessageEvent) => {
      const parsed = parseHostMessage(event.data);
      if (parsed.ok) this.listeners.emit(parsed.message);
      else this.send(webviewMessage('log', { level: 'warn', message: `webview ignored a host message: ${parsed.error}` }));
    });
  }

  send(message: WebviewMessage): void {
    this.api.postMessage(message);
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
