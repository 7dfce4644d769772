// TCP relays between a master and the server, for the tests of slow and broken links: the
// master's bytes pass at once, the server's as `onServerBytes` decides.
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface Relay {
  port: number;
  /** Connections the relay took. */
  connections: number;
  close(): Promise<void>;
}

/** What happens to a chunk of the server's bytes on connection `n` (0 for the first). */
type OnServerBytes = (chunk: Buffer, sides: { inbound: Socket; outbound: Socket }, n: number) => void;

async function relay(port: number, onServerBytes: OnServerBytes): Promise<Relay> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((inbound) => {
    const n = state.connections++;
    const outbound = connect(port, '127.0.0.1');
    for (const s of [inbound, outbound]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {});
    }
    inbound.pipe(outbound);
    outbound.on('data', (chunk: Buffer) => onServerBytes(chunk, { inbound, outbound }, n));
    outbound.on('close', () => inbound.destroy());
    inbound.on('close', () => outbound.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const state: Relay = {
    port: (server.address() as { port: number }).port,
    connections: 0,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
  return state;
}

/** Cuts its first connection once `cutAfter` bytes of the server's have passed. */
export async function cuttingRelay(port: number, cutAfter: number): Promise<Relay & { cuts: number }> {
  let passed = 0;
  const r = await relay(port, (chunk, { inbound, outbound }, n) => {
    if (n === 0 && (passed += chunk.length) > cutAfter) {
      cut.cuts++;
      inbound.destroy();
      outbound.destroy();
    } else inbound.write(chunk);
  });
  const cut = Object.assign(r, { cuts: 0 });
  return cut;
}

/** Passes the server's bytes on at `bytesPerSecond`. */
export function slowRelay(port: number, bytesPerSecond: number): Promise<Relay> {
  return relay(port, (chunk, { inbound, outbound }) => {
    inbound.write(chunk);
    outbound.pause();
    setTimeout(() => outbound.resume(), (chunk.length / bytesPerSecond) * 1000);
  });
}
