// The per-session history of frames for reattach (§7.1.1, §13.7): a buffer with a byte budget
// (UTF-8 length of each frame's JSON) and one of three policies:
//   RING  evict the oldest frames until the new one fits,
//   DROP  keep what is there and drop the newest frame when it does not fit,
//   NONE  keep nothing.
// Every frame gets a sequence number whether it is kept or not, so `since()` can say exactly how
// many frames after a given id are missing: published after it minus still buffered after it.
import type { PayloadOf } from '../protocol/frameTypes';
import { frameText } from './frameText';
import { rememberSize } from './frameSizes';
import { utf8Length } from './ports';

export type HistoryPolicy = PayloadOf<'session.history'>['buffer_status']['policy_applied'];
export type BufferStatus = PayloadOf<'session.history'>['buffer_status'];

/** The smallest shape history needs: any envelope (known, vendor or relayed control frame). */
export interface HistoryFrame {
  message_id: string;
}

export interface HistoryOptions {
  policy: HistoryPolicy;
  /** Byte budget of the buffered frames' JSON. */
  maxBytes: number;
  /** How many message ids (buffered or not) we remember the position of. */
  maxKnownIds?: number;
}

export const DEFAULT_HISTORY: HistoryOptions = { policy: 'RING', maxBytes: 8 * 1024 * 1024 };

/**
 * Where a buffer mirrors what it records, in order (the host's journal, so a restarted host can
 * `restore` the same positions): every appended frame, kept or not, and every alias.
 */
export interface HistorySink<F> {
  appended(frame: F, seq: number): void;
  aliased(message_id: string, at: number): void;
}

/** One recorded step, as a sink saw it: a frame at its position, or an alias pointing at one. */
export type HistoryRecord<F> = { seq: number; frame: F } | { seq: number; alias: string };

interface Entry<F> {
  seq: number;
  frame: F;
  bytes: number;
}

export interface SinceResult<F> {
  frames: F[];
  buffer_status: BufferStatus;
  /** The newest frame the receiver now has: the last returned frame, else the id it asked with. */
  last_message_id: string;
}

export class HistoryBuffer<F extends HistoryFrame = HistoryFrame> {
  private readonly entries: Entry<F>[] = [];
  private head = 0; // index of the oldest live entry in `entries` (amortized O(1) eviction)
  private bytes = 0;
  private highWatermark = 0;
  private lastSeq = -1;
  /** message id -> sequence position, for ids of frames and of aliases (handshake frames). */
  private readonly positions = new Map<string, number>();
  private readonly maxKnownIds: number;
  private sink?: HistorySink<F>;

  constructor(private readonly options: HistoryOptions = DEFAULT_HISTORY) {
    this.maxKnownIds = options.maxKnownIds ?? 20_000;
  }

  get policy(): HistoryPolicy {
    return this.options.policy;
  }

  /** Frames currently kept. */
  get size(): number {
    return this.entries.length - this.head;
  }

  get usedBytes(): number {
    return this.bytes;
  }

  get buffer_high_watermark(): number {
    return this.highWatermark;
  }

  /** Mirror every later append and alias to `sink` (or stop, with undefined). */
  setSink(sink: HistorySink<F> | undefined): void {
    this.sink = sink;
  }

  append(frame: F): void {
    const seq = ++this.lastSeq;
    this.keep(frame, seq);
    this.sink?.appended(frame, seq);
  }

  /**
   * Replay what a sink recorded (a previous process's journal) into an empty buffer: positions
   * are the recorded ones, so gaps (records the journal's budget dropped) count as lost frames and
   * a peer's last_message_id from before the restart resumes exactly (§13.7). Not mirrored.
   */
  restore(records: Iterable<HistoryRecord<F>>): void {
    if (this.lastSeq !== -1) throw new Error('restore() needs an empty history');
    for (const r of records) {
      if ('frame' in r) {
        if (r.seq <= this.lastSeq) continue; // out of order: a damaged journal, never trusted
        this.lastSeq = r.seq;
        this.keep(r.frame, r.seq);
      } else if (r.seq <= this.lastSeq) {
        this.remember(r.alias, r.seq);
      }
    }
  }

  private keep(frame: F, seq: number): void {
    this.remember(frame.message_id, seq);
    if (this.options.policy === 'NONE') return;
    let bytes: number;
    try {
      bytes = utf8Length(frameText(frame)); // shared with the sockets it fans out to next
    } catch {
      return; // cannot be serialized (e.g. nested too deep for JSON.stringify): lost, counted as such
    }
    rememberSize(frame, bytes);
    if (bytes > this.options.maxBytes) return; // can never fit: lost under every policy
    if (this.bytes + bytes > this.options.maxBytes) {
      if (this.options.policy === 'DROP') return;
      while (this.size > 0 && this.bytes + bytes > this.options.maxBytes) this.evictOldest();
    }
    this.entries.push({ seq, frame, bytes });
    this.bytes += bytes;
    if (this.bytes > this.highWatermark) this.highWatermark = this.bytes;
  }

  /**
   * Remember an id that is not itself kept (a per-connection handshake frame such as
   * `session.capabilities` or `session.history`) as pointing at the current end (or at `at`), so a
   * peer whose last frame was that one reattaches without a false "truncated" and misses nothing.
   */
  alias(message_id: string, at: number = this.lastSeq): void {
    this.remember(message_id, at);
    this.sink?.aliased(message_id, at);
  }

  /** Whether `message_id` is a frame or alias id this history still remembers. */
  knows(message_id: string): boolean {
    return this.positions.has(message_id);
  }

  /** The position of the newest frame appended so far (for `alias(id, at)`). */
  get position(): number {
    return this.lastSeq;
  }

  /** Exactly the frames after `last_message_id`, and an honest account of what is missing. */
  since(last_message_id: string): SinceResult<F> {
    const known = this.positions.get(last_message_id);
    const live = this.entries.slice(this.head);
    const published = this.lastSeq + 1;
    let frames: F[];
    let lost: number;
    let truncated: boolean;
    if (known === undefined) {
      // An id we never saw or no longer remember: give everything we have and say so.
      frames = live.map((e) => e.frame);
      lost = published - live.length;
      truncated = true;
    } else {
      frames = live.filter((e) => e.seq > known).map((e) => e.frame);
      lost = this.lastSeq - known - frames.length;
      truncated = lost > 0;
    }
    return {
      frames,
      buffer_status: {
        policy_applied: this.options.policy,
        truncated,
        lost_frame_count: lost,
        buffer_high_watermark: this.highWatermark,
      },
      last_message_id: frames.length > 0 ? frames[frames.length - 1].message_id : last_message_id,
    };
  }

  /** The newest kept frame's id (where a replay of `all()` ends). */
  get lastMessageId(): string | undefined {
    return this.entries.length > this.head ? this.entries[this.entries.length - 1].frame.message_id : undefined;
  }

  /**
   * Everything still kept up to `position` (default: now), for a fresh attach (no last_message_id):
   * the whole transcript the ring holds, with an honest count of what it no longer holds.
   */
  upTo(position: number = this.lastSeq): SinceResult<F> {
    const frames = this.entries.slice(this.head).filter((e) => e.seq <= position).map((e) => e.frame);
    const lost = Math.max(0, position + 1 - frames.length);
    return {
      frames,
      buffer_status: {
        policy_applied: this.options.policy,
        truncated: lost > 0,
        lost_frame_count: lost,
        buffer_high_watermark: this.highWatermark,
      },
      // The schema's "empty when nothing was ever sent"; otherwise the newest frame given.
      last_message_id: frames.length > 0 ? frames[frames.length - 1].message_id : '',
    };
  }

  /** All kept frames, oldest first. */
  all(): F[] {
    return this.entries.slice(this.head).map((e) => e.frame);
  }

  private evictOldest(): void {
    const e = this.entries[this.head++];
    this.bytes -= e.bytes;
    // Compact the array now and then so evicted entries are not held forever.
    if (this.head > 1024 && this.head * 2 > this.entries.length) {
      this.entries.splice(0, this.head);
      this.head = 0;
    }
  }

  private remember(id: string, seq: number): void {
    this.positions.delete(id);
    this.positions.set(id, seq);
    if (this.positions.size > this.maxKnownIds) {
      // Forget the oldest tenth at once: a walk from the front of a Map also steps over the slots
      // earlier deletions left there, so forgetting one id per append cost O(ids forgotten so far).
      const keys = this.positions.keys();
      for (let n = this.positions.size - Math.floor(this.maxKnownIds * 0.9); n > 0; n--) {
        const oldest = keys.next().value;
        if (oldest === undefined) break;
        this.positions.delete(oldest);
      }
    }
  }
}
