// A hub Connection backed by one `ws` WebSocket of a remote master. Sending never blocks the
// agent: `ws.send` only queues, and when the queue (bufferedAmount) passes its bound the peer is
// too slow — it is closed with CLOSE.SLOW_CONSUMER and may reattach with last_message_id, losing
// nothing that is still in the ring buffer. The bound is on the live frames queued: the part of
// the connection's `session.history` not yet sent does not count (decision 564): that one frame
// is as big as the ring (8 MiB), and a master on a slow link was closed by the next few live
// frames, on every attach, and never got the transcript. The history goes out in fragments, so
// a peer reading it slowly shows it is alive (historyPump.ts, decision 571).
import type WebSocket from 'ws';
import type { CloseWhy, Connection, WireFrame } from '../session/connection';
import { CLOSE } from './controlPlane';
import { frameBytes } from './frameBytes';
import { FRAGMENT_BYTES, HistoryPump, wireLength } from './historyPump';

export interface WsConnectionOptions {
  id: string;
  /** Bytes the socket may have queued before the peer counts as stalled. */
  maxQueuedBytes: number;
  /** After a close frame is queued, how long the peer gets before the socket is destroyed. */
  closeGraceMs: number;
  /** A frame that could not be serialized was skipped (logged by the server). */
  onUnsendable?: (frame: WireFrame, error: unknown) => void;
  /**
   * The socket under the WebSocket (net or TLS). Frames sent in one tick are corked and go out
   * in one write at the end of it: a fan-out of a burst is one syscall per master, not one per
   * frame (the per-frame writev was most of the hub's time, issue 18). No frame waits for a timer.
   */
  transport?: { cork(): void; uncork(): void };
  /** Part of the connection's history was written out: the peer is reading (the heartbeat counts it as alive). */
  onProgress?: () => void;
}

export class WsConnection implements Connection {
  readonly kind = 'remote' as const;
  readonly id: string;
  /** Set before the hub drops us, so `close` knows which code to use. */
  private pendingClose?: { code: number; reason: string };
  private closed = false;
  private corked = false;
  /** Bytes (frames and their headers) handed to the socket since it opened. */
  private written = 0;
  /** `written` when the last `session.history` had been handed over: its end in the stream. */
  private historyEnd = 0;
  /** The history while it is handed to the socket in fragments; frames sent meanwhile wait in `held`. */
  private pump?: HistoryPump;
  private held: Buffer[] = [];
  /** Wire bytes of `held`: live frames, so they count against the queue limit. */
  private heldBytes = 0;
  private readonly uncork = (): void => {
    this.corked = false;
    this.options.transport?.uncork();
  };

  constructor(
    private readonly socket: WebSocket,
    private readonly options: WsConnectionOptions,
  ) {
    this.id = options.id;
  }

  send(frame: WireFrame): void {
    if (this.socket.readyState !== this.socket.OPEN) throw new Error('socket is not open');
    if (this.liveQueued() > this.options.maxQueuedBytes) {
      this.pendingClose = {
        code: CLOSE.SLOW_CONSUMER,
        reason: `slow consumer: over ${this.options.maxQueuedBytes} bytes queued; reattach with last_message_id`,
      };
      // The hub catches this, forgets the connection and calls close().
      throw new Error('send queue full (slow consumer)');
    }
    let bytes: Buffer;
    try {
      bytes = frameBytes(frame);
    } catch (e) {
      // A frame JSON cannot write (nested too deep): this peer misses it, nobody is dropped.
      this.options.onUnsendable?.(frame, e);
      return;
    }
    // §7.1.1 / §13.7: the hub sends a session.history only in a connection's opening.
    if (frame.type === 'session.history' && bytes.length > FRAGMENT_BYTES && !this.pump) return this.pumpHistory(bytes);
    // Between a message's fragments only control frames may go (RFC 6455 §5.4): the rest wait.
    if (this.pump) {
      this.held.push(bytes);
      this.heldBytes += wireLength(bytes.length);
      return;
    }
    this.write(bytes);
    if (frame.type === 'session.history') this.historyEnd = this.written;
  }

  /** The shared Buffer as one text frame (RFC 6455 opcode 1); `ws` does not copy or mask it (server). */
  private write(bytes: Buffer): void {
    if (this.options.transport && !this.corked) {
      this.corked = true;
      this.options.transport.cork();
      process.nextTick(this.uncork);
    }
    this.socket.send(bytes, { binary: false });
    this.written += wireLength(bytes.length);
  }

  private pumpHistory(bytes: Buffer): void {
    const pump = new HistoryPump(this.socket, bytes, {
      progress: () => this.options.onProgress?.(),
      handedOver: (wireBytes) => {
        this.written += wireBytes;
        this.historyEnd = this.written;
        // Then the frames that waited for the message to end.
        for (const b of this.endPump()) this.write(b);
      },
      failed: () => this.endPump(),
    });
    this.pump = pump;
    pump.start();
  }

  /** No more fragments; gives back the frames that waited behind them (sent, or dropped with the connection). */
  private endPump(): Buffer[] {
    this.pump?.stop();
    this.pump = undefined;
    const held = this.held;
    this.held = [];
    this.heldBytes = 0;
    return held;
  }

  /** Bytes of the connection's history not yet handed to the socket (tests). */
  get historyUnsent(): number {
    return this.pump?.left ?? 0;
  }

  /**
   * Bytes queued behind what is left of the history (decision 564). What left the queue left it
   * in order, so `written - bufferedAmount` bytes of the stream are gone; what of the history is
   * not is still queued, and the rest of the queue is live frames. Bytes the socket queued that
   * we did not count (a ping, a close) make it count a little less, only while they are queued.
   */
  private liveQueued(): number {
    // While the history is pumped the socket holds only its fragments (and the opening before
    // them); live frames wait in `held`.
    if (this.pump) return this.heldBytes;
    const queued = this.socket.bufferedAmount;
    const historyLeft = Math.max(0, this.historyEnd - (this.written - queued));
    return queued - historyLeft;
  }

  /** Choose the close code the next close() uses (unshare, shutdown). */
  closeWith(code: number, reason: string): void {
    this.pendingClose = { code, reason };
  }

  close(reason: string, why?: CloseWhy): void {
    if (this.closed) return;
    this.closed = true;
    this.endPump();
    const chosen = why === 'policy_violation' ? { code: CLOSE.POLICY_VIOLATION, reason } : this.pendingClose;
    const { code, reason: text } = chosen ?? { code: CLOSE.SESSION_ENDED, reason };
    try {
      this.socket.close(code, truncateReason(text));
    } catch {
      this.socket.terminate();
      return;
    }
    // The close frame waits behind the queued backlog: a peer that resumes reading within the
    // grace sees the code; one that stays stalled is cut so its backlog is freed.
    const timer = setTimeout(() => this.socket.terminate(), this.options.closeGraceMs);
    timer.unref();
    this.socket.once('close', () => clearTimeout(timer));
  }
}

/** A close reason is at most 123 bytes of UTF-8 (RFC 6455 §5.5). */
function truncateReason(reason: string): string {
  let r = reason;
  while (Buffer.byteLength(r) > 123) r = r.slice(0, -1);
  return r;
}
