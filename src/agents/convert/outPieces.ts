// What `rawp convert`'s conversion thread sends back to be written (decision 726, 736): frames as
// JSON lines in pieces of about `pieceChars` characters. Small frames are joined, so the writer is
// called per piece rather than per frame; a big frame arrives in parts (frameJson.ts) and is spread
// over pieces, and whenever more than `flushChars` are waiting `flush` is called, which sends them
// and returns once they are written. So a frame carrying a line near the 64 Mi bound is neither
// made whole nor copied whole into the main thread: only `flushChars` of it are in flight.
import { jsonParts, weightOver } from './frameJson';

export class OutPieces {
  pieces: string[] = [];
  /** Frames begun since the last take (a frame spread over several messages counts in its first). */
  frames = 0;
  /** Characters added since the last take. */
  chars = 0;
  private open: string[] = [];
  private openChars = 0;

  constructor(
    private readonly pieceChars: number,
    private readonly flushChars: number,
    private readonly flush: () => void,
  ) {}

  /** One frame: its JSON (as JSON.stringify writes it) and a line break. */
  add(frame: unknown): void {
    this.frames++;
    const partChars = this.pieceChars >> 2;
    if (weightOver(frame, partChars)) {
      for (const part of jsonParts(frame, partChars)) this.put(part);
      this.put('\n');
    } else this.put(JSON.stringify(frame) + '\n');
  }

  take(): { out: string[]; frames: number } {
    this.close();
    const taken = { out: this.pieces, frames: this.frames };
    this.pieces = [];
    this.frames = 0;
    this.chars = 0;
    return taken;
  }

  private put(part: string): void {
    if (this.openChars + part.length > this.pieceChars) this.close();
    this.open.push(part);
    this.openChars += part.length;
    this.chars += part.length;
    if (this.chars > this.flushChars) this.flush();
  }

  private close(): void {
    if (this.open.length) this.pieces.push(this.open.length === 1 ? this.open[0] : this.open.join(''));
    this.open = [];
    this.openChars = 0;
  }
}
