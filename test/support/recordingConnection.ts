// A Connection that records what the hub sends it, for hub and end-to-end session tests.
import { EVERY_FEATURE, type FeatureSet } from '../../src/protocol/capabilities';
import type { Connection, ConnectionKind, WireFrame } from '../../src/session/connection';

export class RecordingConnection implements Connection {
  readonly frames: WireFrame[] = [];
  closed?: string;
  failSends = false;

  constructor(
    readonly id: string,
    readonly kind: ConnectionKind,
    readonly features?: FeatureSet,
  ) {}

  send(frame: WireFrame): void {
    if (this.failSends) throw new Error('socket gone');
    if (this.closed !== undefined) throw new Error(`send on closed connection ${this.id}`);
    this.frames.push(frame);
  }

  close(reason: string): void {
    this.closed = reason;
  }

  types(): string[] {
    return this.frames.map((f) => f.type);
  }

  ofType<T extends WireFrame['type']>(type: T): Extract<WireFrame, { type: T }>[] {
    return this.frames.filter((f) => f.type === type) as Extract<WireFrame, { type: T }>[];
  }
}

/** A peer that announced every optional feature. */
export const ALL_FEATURES: FeatureSet = EVERY_FEATURE;
