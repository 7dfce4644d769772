// What a command printed, kept within a fixed size while it runs (decision 537): its first half
// and its last half, and a count of what lies between. The start says what ran, the end is where
// an error or a summary is; a command that prints without end (`yes`, a big `cat`) costs no more
// memory than a quiet one. Before, every chunk was appended to one string and cut at the end, and
// past V8's longest string (~512 MiB) the append threw inside the pipe's 'data' listener and ended
// the host process.
import { cutMark } from '../../protocol/cutMark';

export class HeadTail {
  private head = '';
  private tail = '';
  private readonly headMax: number;
  private readonly tailMax: number;
  /** Every character ever added. */
  private total = 0;

  constructor(max: number) {
    this.headMax = Math.ceil(max / 2);
    this.tailMax = Math.floor(max / 2);
  }

  add(chunk: string): void {
    this.total += chunk.length;
    if (this.head.length < this.headMax) {
      const room = this.headMax - this.head.length;
      this.head += chunk.slice(0, room);
      chunk = chunk.slice(room);
      if (chunk === '') return;
    }
    // The tail may grow to twice its size before it is cut back, so a cut (a copy) happens once
    // per tailMax characters, not once per chunk.
    this.tail += chunk.length > this.tailMax ? chunk.slice(chunk.length - this.tailMax) : chunk;
    if (this.tail.length > 2 * this.tailMax) this.tail = this.tail.slice(this.tail.length - this.tailMax);
  }

  /** Characters added but not kept. */
  get dropped(): number {
    return this.total - this.head.length - Math.min(this.tail.length, this.tailMax);
  }

  /** All of it when it fit; else the head, a mark saying how many characters are left out, the tail. */
  text(): { text: string; dropped: number } {
    const tail = this.tail.length > this.tailMax ? this.tail.slice(this.tail.length - this.tailMax) : this.tail;
    const dropped = this.dropped;
    if (dropped === 0) return { text: this.head + tail, dropped };
    // Never show half of a surrogate pair at either edge of the cut: count it as left out.
    let head = this.head;
    let end = tail;
    let extra = 0;
    if (isHighSurrogate(head.charCodeAt(head.length - 1))) (head = head.slice(0, -1)), extra++;
    if (isLowSurrogate(end.charCodeAt(0))) (end = end.slice(1)), extra++;
    return { text: head + cutMark(dropped + extra) + end, dropped: dropped + extra };
  }
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}
