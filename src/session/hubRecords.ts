// The hub's bookkeeping (hub.ts): what it keeps per session and per connection, and the
// per-frame delivery rule of §12.2.1.
import type { FrameFactory } from '../protocol/build';
import { requiredFeature, type FeatureSet } from '../protocol/capabilities';
import { isControlType, type FrameType } from '../protocol/frameTypes';
import type { Connection, WireFrame } from './connection';
import type { HistoryBuffer } from './history';
import type { SessionOrigin, HubSessionSource } from './hubContract';
import type { Inbox } from './inbox';
import type { FrameBudget, RefusalWindow } from './refusals';
import type { TimerHandle } from './ports';

/** Bidirectional frames a peer may send besides control.* (§B: "양방향"). */
export const PEER_SESSION_TYPES = new Set<FrameType>(['session.renamed', 'session.deleted', 'session.usage', 'session.error', 'agent.file.transfer']);
export const MAX_SEEN_CONTROLS = 10_000;

export interface HubSession {
  source: HubSessionSource;
  origin: SessionOrigin;
  shared: boolean;
  history: HistoryBuffer<WireFrame>;
  factory: FrameFactory;
  /** control message_id -> the connection it came from (idempotency and echo suppression). */
  seenControls: Map<string, string>;
  /** While a peer's control is being handled: what it caused, kept in history only afterwards. */
  handling?: Handling;
  /** Bytes of controls without user text the remote masters may still have kept (refusals.ts; decision 547). */
  plainControlBytes?: FrameBudget;
}

/** Frames published while one control is handled, in order; `keep: false` for its refusal. */
export interface Handling {
  control: WireFrame;
  refused: boolean;
  published: { frame: WireFrame; keep: boolean }[];
  /** Sent once history has them: a journaled history never misses a frame a peer saw (decision 121). */
  deliveries: { frame: WireFrame; except: string | undefined }[];
  /**
   * A refused frame stays with its sender, and so does its refusal (a master's upload
   * announcement: the others never saw it, §4.5.1); controls are relayed refused or not (§2.4).
   */
  privateIfRefused?: boolean;
}

export interface ConnRecord {
  conn: Connection;
  session_id: string;
  features: FeatureSet | undefined;
  phase: 'handshake' | 'live';
  /** Frames published while the opening sequence runs; sent after it. */
  queue: WireFrame[];
  last_message_id?: string;
  /** Fresh attach: send the ring's transcript after the opening frames. */
  freshHistory: boolean;
  /** The largest frame the peer takes (its session.capabilities `max_frame_size`; decision 515). */
  maxFrameSize?: number;
  /** The largest frame worth sending it, each frame of a history too (`x-rawp.frame_budget`; decision 516). */
  frameBudget?: number;
  /** Extensions of the peer's own session.capabilities (e.g. the follow-up queue, decision 101). */
  extensions?: Record<string, unknown>;
  /** History position when the connection attached: what it has seen once its queue is sent. */
  attachedAt: number;
  timer?: TimerHandle;
  refusals: RefusalWindow;
  budget: FrameBudget;
  /** Its frames in arrival order; a prompt being admitted holds the ones after it (inbox.ts). */
  inbox: Inbox<{ raw: unknown; admitted: boolean }>;
}

/** Frames one connection may send while its prompt is being admitted before they are refused. */
export const MAX_BACKLOG = 1000;

/**
 * §12.2.1 filters what the client sends by the features the receiving peer announced; relayed
 * control.* frames are another master's words, not the client's events, and §2.4-3 relays them
 * to every other connection (a master without `plan_mode` still sees master A's mode switch).
 */
export function mayDeliver(type: string, features: FeatureSet | undefined): boolean {
  // Per frame and connection, so no allocation (maySend's decision object) on this path.
  const feature = requiredFeature(type);
  return feature === undefined || features?.[feature] === true || isControlType(type);
}
