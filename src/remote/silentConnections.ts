// The connections that have not sent a request, grouped by source (decision 574), for the
// connection cap (connectionCap.ts): at the cap, room is made by the source holding the most of
// them, oldest first. So a flood from one source churns through its own connections and leaves a
// slower client's from another source alone; within one source the oldest goes, as before.
import type { Socket } from 'node:net';
import { connectionSource } from './connectionSource';

export class SilentConnections {
  /** Per source, its silent connections in the order they became silent (a Set keeps it). */
  private readonly bySource = new Map<string, Set<Socket>>();
  /** Each silent connection's source (its address may be gone once it is destroyed) and its place in time. */
  private readonly entries = new Map<Socket, { source: string; since: number }>();
  private clock = 0;

  get size(): number {
    return this.entries.size;
  }

  /** `socket` is silent from now on (again, for a kept-alive connection: it is then the newest). */
  add(socket: Socket): void {
    this.delete(socket);
    const source = connectionSource(socket.remoteAddress);
    let group = this.bySource.get(source);
    if (group === undefined) this.bySource.set(source, (group = new Set()));
    group.add(socket);
    this.entries.set(socket, { source, since: this.clock++ });
  }

  delete(socket: Socket): void {
    const entry = this.entries.get(socket);
    if (entry === undefined) return;
    this.entries.delete(socket);
    const group = this.bySource.get(entry.source);
    group?.delete(socket);
    if (group?.size === 0) this.bySource.delete(entry.source);
  }

  /**
   * The connection to close to make room for `incoming`: the oldest silent one of the source that
   * holds the most silent connections (ties: the source whose oldest is older). Never `incoming`,
   * never one already destroyed.
   */
  victim(incoming: Socket): Socket | undefined {
    let best: Socket | undefined;
    let bestCount = 0;
    let bestSince = Infinity;
    for (const group of this.bySource.values()) {
      let count = 0;
      let oldest: Socket | undefined;
      for (const s of group) {
        if (s === incoming || s.destroyed) continue;
        count++;
        oldest ??= s;
      }
      if (oldest === undefined) continue;
      const since = this.entries.get(oldest)?.since ?? Infinity;
      if (count > bestCount || (count === bestCount && since < bestSince)) {
        best = oldest;
        bestCount = count;
        bestSince = since;
      }
    }
    return best;
  }
}
