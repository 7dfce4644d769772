// What the hub (hub.ts) asks of a session and offers its users: the session source the engine
// implements, attach options and results, and the hub's own options.
import type { Frame, PayloadOf, VendorFrame } from '../protocol/frameTypes';
import type { PromptAdmission } from './admission';
import type { ConnectionKind } from './connection';
import type { FrameRate, RefusalLimit } from './refusals';
import type { Clock, Logger, Timers } from './ports';

/** What the hub needs from a session (the engine implements it). */
export interface HubSessionSource {
  readonly session_id: string;
  /** The client's own `session.capabilities` payload (§12.2.1, §17.4). */
  capabilities(): PayloadOf<'session.capabilities'>;
  /** The last published catalog and commands, re-announced to every new connection. */
  catalog(): PayloadOf<'tool.catalog.publish'>;
  commands(): PayloadOf<'agent.commands.publish'>;
  /** Current agent state, for the `agent.state.changed` that ends a fresh attach (§13.1). */
  agentState(): string;
  /** An accepted frame from a peer (controls, and the bidirectional session.* frames). */
  handle(frame: Frame, from: { connection_id: string; kind: ConnectionKind }): void;
  /**
   * A connection left the session (its transport closed, it was dropped or cut off): what it
   * started for itself alone, and nobody else waits for, can stop (its file searches). Never throws.
   */
  detached?(connection_id: string): void;
  /** The session's own clock, so the frames the hub stamps for it keep its strict order (§2.3). */
  readonly clock?: Clock;
  /** Every control.prompt.request passes this first, from any connection (admission.ts). */
  readonly admission?: PromptAdmission;
}

export type SessionOrigin = 'local' | 'remote';

/**
 * What a transport hands `Hub.receive` for a message that cannot be a frame: a binary WebSocket
 * message (§2.1: frames are JSON text; §4.5.1: binary content never travels on the stream). It is
 * refused like malformed JSON, and counts like any refusal.
 */
export class BinaryMessage {
  constructor(readonly bytes: number) {}
}

/** Where a vendor frame (§3.1.1) a peer sent goes: the host's handler of that type. */
export type VendorFrameHandler = (frame: VendorFrame, from: { connection_id: string; kind: ConnectionKind }) => void;

export interface AttachOptions {
  /** Reattach (§13.7): the last message_id the peer saw; it gets `session.history`. */
  last_message_id?: string;
  /**
   * A fresh attach (no last_message_id) gets, after the §13.1 opening, a `session.history` with
   * every frame the ring still holds (issue 11: every master shows the whole transcript). `false`
   * for a connection that keeps its own copy (the host's recorder).
   */
  history?: boolean;
}

export type AttachResult = { ok: true } | { ok: false; code: 'SESSION_NOT_FOUND' | 'SESSION_NOT_SHARED' | 'DUPLICATE_CONNECTION'; message: string };

export interface HubOptions {
  clock?: Clock;
  timers?: Timers;
  logger?: Logger;
  /** How long to wait for a peer's `session.capabilities` before going on without it. */
  handshakeTimeoutMs?: number;
  /** Largest incoming frame accepted (also announced as `max_frame_size`). */
  maxFrameSize?: number;
  /** Refusals one connection may cause before it is closed as a policy violation. */
  refusalLimit?: RefusalLimit;
  /** Frames a remote connection may send (burst, then per second); beyond, each is refused. */
  frameRate?: FrameRate;
}
