// Hands an attach's `session.history` to the socket a few fragments at a time (decision 571).
//
// The history is one WebSocket message as big as the ring (8 MiB). Written whole it is one socket
// write: nothing shows how much of it the peer has read until all of it has, and the heartbeat's
// ping waits behind it — a master reading under ~140 kB/s could not answer in time and was dropped
// as dead, on every attach. Sent as fragments of one message (RFC 6455 §5.4: the peer still gets one
// message) with only `WINDOW` of them handed to the socket at once, each fragment's write callback
// says the peer took more (once the kernel's buffers are full, only its reading makes room), and a
// ping goes out between fragments instead of after the whole history (§5.4 lets control frames
// interleave).
import type WebSocket from 'ws';

/** Bytes per fragment. */
export const FRAGMENT_BYTES = 64 * 1024;
/** Fragments handed to the socket and not yet written out, at most. */
const WINDOW = 8;

export interface PumpEvents {
  /** A fragment has been written out: the peer is reading. */
  progress(): void;
  /** The last fragment (`fin`) was handed to the socket, `wireBytes` in all (headers included): frames may follow it now. */
  handedOver(wireBytes: number): void;
  /** A fragment could not be written (the socket closed): the pump stopped. */
  failed(): void;
}

export class HistoryPump {
  private offset = 0;
  private wireBytes = 0;
  private inFlight = 0;
  private stopped = false;

  constructor(
    private readonly socket: WebSocket,
    private readonly bytes: Buffer,
    private readonly events: PumpEvents,
  ) {}

  /** Whether the whole message has been handed to the socket. */
  get done(): boolean {
    return this.offset >= this.bytes.length;
  }

  /** Bytes not yet handed to the socket. */
  get left(): number {
    return this.bytes.length - this.offset;
  }

  start(): void {
    this.fill();
  }

  /** No more fragments (the connection is closing). */
  stop(): void {
    this.stopped = true;
  }

  private fill(): void {
    while (!this.stopped && !this.done && this.inFlight < WINDOW) {
      const end = Math.min(this.offset + FRAGMENT_BYTES, this.bytes.length);
      const fin = end === this.bytes.length;
      const chunk = this.bytes.subarray(this.offset, end);
      this.offset = end;
      this.inFlight++;
      // A text message's first fragment carries the opcode, the rest are continuations (`ws`
      // tracks that); the Buffer is not copied (a server does not mask).
      this.socket.send(chunk, { binary: false, fin }, (error) => this.written(error));
      this.wireBytes += wireLength(chunk.length);
      if (fin) this.events.handedOver(this.wireBytes);
    }
  }

  private written(error: Error | undefined | null): void {
    this.inFlight--;
    if (error) {
      if (!this.stopped) this.events.failed();
      this.stopped = true;
      return;
    }
    this.events.progress();
    this.fill();
  }
}

/** A server's frame of `payload` bytes on the wire: an unmasked header (RFC 6455 §5.2) and the payload. */
export function wireLength(payload: number): number {
  return payload + (payload < 126 ? 2 : payload < 65536 ? 4 : 10);
}
