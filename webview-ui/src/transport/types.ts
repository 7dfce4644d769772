// The one small interface between the chat UI and whatever carries its messages: VS Code's
// postMessage bridge inside the editor, a WebSocket in a normal browser (the browser master), or a
// fake in tests. Messages are the typed map of src/protocol/webviewMessages.ts in both directions.
import type { HostMessage, WebviewMessage } from '../../../src/protocol/webviewMessages';

export interface Transport {
  /** Deliver one message to the host side. Never throws; a closed transport drops or queues. */
  send(message: WebviewMessage): void;
  /** Listen for host messages (already validated). Returns the unsubscribe function. */
  onMessage(listener: (message: HostMessage) => void): () => void;
  /** Small UI state that survives a reload of the view (drafts, prompt history). */
  getState(): unknown;
  setState(state: unknown): void;
  /**
   * §4.5.1: a URL the view may load the file of an `agent.file.transfer` from — in VS Code a
   * webview resource URI of the host's store (nothing leaves the machine), in the browser master a
   * `blob:` URL of the bytes fetched with the token — or undefined when it cannot be loaded here.
   */
  resolveFile?(session_id: string, transfer: { transfer_id: string; file_url: string }): Promise<string | undefined>;
  /**
   * `browser`: the page `rawp serve` serves, where VS Code's commands and settings are not there to
   * point at (its onboarding says what applies instead). Left out: inside VS Code.
   */
  readonly place?: 'browser';
}

/** Fan-out helper the implementations share. */
export class Listeners<T> {
  private readonly set = new Set<(value: T) => void>();

  add(listener: (value: T) => void): () => void {
    this.set.add(listener);
    return () => this.set.delete(listener);
  }

  emit(value: T): void {
    for (const l of [...this.set]) {
      try {
        l(value);
      } catch (e) {
        // One broken listener must not stop the others (or the transport).
        console.error('rawp: listener failed', e);
      }
    }
  }
}
