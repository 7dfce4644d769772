// One transport attached to a session: a WebSocket of a remote master, or the VS Code webview's
// postMessage bridge (a local connection). The hub only ever calls these two methods, so backing
// one with `ws` is `send: f => socket.send(JSON.stringify(f))`, and with a webview is
// `send: f => webview.postMessage(f)`.
import type { FeatureSet } from '../protocol/capabilities';
import type { WireFrame } from '../protocol/frameTypes';

export type ConnectionKind = 'local' | 'remote';
export type CloseWhy = 'ended' | 'policy_violation';

/** Anything the hub puts on a wire: a known frame or a relayed vendor frame. */
export type { WireFrame };

export interface Connection {
  /** Unique among the hub's connections. */
  readonly id: string;
  /** `local`: this editor's own UI (§2.4 local UI WSS); `remote`: a master. */
  readonly kind: ConnectionKind;
  /**
   * Features the peer announced before attaching, if the transport knows them already (the
   * webview does). Otherwise the hub waits for the peer's own `session.capabilities` (§13.1).
   */
  readonly features?: FeatureSet;
  /** `session.capabilities.extensions` the transport knows already (the editor's own view). */
  readonly extensions?: Record<string, unknown>;
  /** Deliver one frame. May throw; the hub then drops the connection. */
  send(frame: WireFrame): void;
  /**
   * Close the transport (session deleted, unshared, or the hub is shutting down); `why` is
   * `policy_violation` when the peer is being cut off for what it sent (a WebSocket closes 1008).
   */
  close(reason: string, why?: CloseWhy): void;
}
