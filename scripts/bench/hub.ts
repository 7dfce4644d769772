// npm run bench:hub — frames/s through the hub and the remote server to 1, 4 and 16 masters, and
// the p99 latency a frame sees with 4 and 16 masters at 2,000 frames/s, beside raw `ws` in the same
// run (issue 18 item 3; each count runs raw then hub back to back, so both see the same load;
// latency in alternating raw/hub rounds with the samples pooled).
// Also measured: 4 masters of which one stops reading (a stalled peer, §2.4): the other three's
// rate, which must not fall below the 4-master rate.
//
// Both paths send the same prebuilt agent.text.delta frames over loopback to clients in this
// process that do the same work (count; for latency, JSON.parse to find the message_id). The hub
// path adds what a real session pays: history ring buffer, per-connection capability filter,
// per-master bounded queue. Throughput runs use a flow-control window so no client is ever cut
// as a slow consumer. Ends with one JSON line.
import { performance } from 'node:perf_hooks';
import WebSocket, { WebSocketServer } from 'ws';
import { buildFrame } from '../../src/protocol/build';
import type { Frame } from '../../src/protocol/frameTypes';
import { generateToken } from '../../src/remote/auth';
import { RemoteServer } from '../../src/remote/server';
import type { AgentAdapter } from '../../src/session/agentAdapter';
import { Hub } from '../../src/session/hub';
import { SessionRegistry } from '../../src/session/registry';

const THROUGHPUT_FRAMES = Number(process.env.BENCH_FRAMES ?? 100_000);
/** 16 masters receive 16× the messages; fewer frames keep the run short (the rate is what counts). */
const THROUGHPUT_FRAMES_16 = Number(process.env.BENCH_FRAMES_16 ?? 30_000);
const WINDOW = 2_000;
const RATE = 2_000;
/** Latency: raw and hub alternate in rounds, so a load spike of this shared machine hits both alike. */
const LATENCY_SECONDS = Number(process.env.BENCH_LATENCY_SECONDS ?? 1);
const LATENCY_ROUNDS = Number(process.env.BENCH_LATENCY_ROUNDS ?? 3);
const TEXT = 'The quick brown fox jumps over the lazy dog while the agent streams its answer. ';

const idle: AgentAdapter = {
  info: { id: 'bench', displayName: 'Bench', adapter_type: 'sdk' },
  start: async () => ({ capabilities: { features: {} }, tools: [], commands: [] }),
  prompt: async () => ({ stop_reason: 'end_turn' }),
  dispose: async () => {},
};

function frames(session_id: string, n: number): Frame[] {
  const turn_id = crypto.randomUUID();
  return Array.from({ length: n }, () => buildFrame('agent.text.delta', { content_index: 0, text: TEXT }, { session_id, turn_id }) as Frame);
}

interface Client {
  count: number;
  latencies: number[];
  measure: boolean;
  /** A stalled master: not counted in throughput (the others' rate is what is measured). */
  stalled?: boolean;
}

/** A client that counts messages and, when measuring, records latency by message_id. */
function client(url: string, headers: Record<string, string>, sentAt: Map<string, number>, session_id: string | undefined): Promise<{ c: Client; ws: WebSocket }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, ['rawp-dps-1.0'], { headers, perMessageDeflate: false });
    const c: Client = { count: 0, latencies: [], measure: false };
    let ready = session_id === undefined;
    ws.on('message', (data) => {
      if (!ready) {
        // The hub's opening (§13.1) ends with agent.state.changed.
        if (String(data).includes('"agent.state.changed"')) {
          ready = true;
          resolve({ c, ws });
        }
        return;
      }
      c.count++;
      if (c.measure) {
        const id = (JSON.parse(String(data)) as { message_id: string }).message_id;
        const t0 = sentAt.get(id);
        if (t0 !== undefined) c.latencies.push(performance.now() - t0);
      }
    });
    ws.on('open', () => {
      if (session_id !== undefined) {
        ws.send(JSON.stringify(buildFrame('session.capabilities', { protocol_version: 'rawp-dps-1.0', supported_namespaces: ['agent', 'tool', 'session', 'control'], features: {} }, { session_id })));
      } else resolve({ c, ws });
    });
    ws.on('error', reject);
  });
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

/** Publish every frame as fast as the slowest client keeps up (window), frames/s at the clients. */
async function throughput(send: (f: Frame) => void, fs: Frame[], clients: Client[]): Promise<number> {
  const live = clients.filter((c) => !c.stalled);
  const base = live.map((c) => c.count);
  const got = () => Math.min(...live.map((c, i) => c.count - base[i]));
  const t0 = performance.now();
  let i = 0;
  while (i < fs.length) {
    while (i < fs.length && i - got() < WINDOW) send(fs[i++]);
    await tick();
  }
  while (got() < fs.length) await tick();
  return fs.length / ((performance.now() - t0) / 1000);
}

/** Publish at RATE frames/s; p99 of publish→receive over every client (samples also into `pool`). */
async function latency(send: (f: Frame) => void, fs: Frame[], clients: Client[], sentAt: Map<string, number>, pool: number[] | undefined): Promise<number> {
  for (const c of clients) {
    c.latencies = [];
    c.measure = true;
  }
  const n = Math.min(fs.length, RATE * LATENCY_SECONDS);
  const base = clients.map((c) => c.count);
  const t0 = performance.now();
  let i = 0;
  while (i < n) {
    const due = Math.min(n, Math.floor(((performance.now() - t0) / 1000) * RATE) + 1);
    while (i < due) {
      sentAt.set(fs[i].message_id, performance.now());
      send(fs[i++]);
    }
    await tick();
  }
  while (clients.some((c, k) => c.count - base[k] < n)) await tick();
  for (const c of clients) c.measure = false;
  const all = clients.flatMap((c) => c.latencies);
  pool?.push(...all);
  return p99Of(all);
}

function p99Of(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length * 0.99)];
}

/** Frames for a run: latency runs send RATE × seconds, throughput runs fewer at 16 masters. */
const frameCount = (masters: number, measureLatency: boolean) =>
  warmingUp ? 20_000 : measureLatency ? RATE * LATENCY_SECONDS : masters > 4 ? THROUGHPUT_FRAMES_16 : THROUGHPUT_FRAMES;
/** A first, unreported run of each path, so neither is measured while the JIT still compiles it. */
let warmingUp = false;

/** The last `stalled` clients stop reading: their socket is paused, the kernel buffers fill. */
function stall(cs: { c: Client; ws: WebSocket }[], stalled: number): void {
  for (const x of cs.slice(cs.length - stalled)) {
    x.c.stalled = true;
    x.ws.pause();
  }
}

async function hubRun(masters: number, measureLatency: boolean, stalled = 0, pool?: number[]): Promise<number> {
  const hub = new Hub();
  const registry = new SessionRegistry(hub);
  const session = await registry.create({ adapter: idle, origin: 'remote' });
  const token = generateToken();
  const server = await RemoteServer.start({ registry, token, maxQueuedBytes: 64 * 1024 * 1024 });
  const sentAt = new Map<string, number>();
  const cs = await Promise.all(Array.from({ length: masters }, () => client(server.attachUrl(session.session_id), { authorization: `Bearer ${token}` }, sentAt, session.session_id)));
  stall(cs, stalled);
  const fs = frames(session.session_id, frameCount(masters, measureLatency));
  const send = (f: Frame) => hub.publish(session.session_id, f);
  const result = measureLatency ? await latency(send, fs, cs.map((x) => x.c), sentAt, pool) : await throughput(send, fs, cs.map((x) => x.c));
  for (const { ws } of cs) ws.terminate();
  await registry.disposeAll();
  await server.close();
  return result;
}

async function rawRun(masters: number, measureLatency: boolean, pool?: number[]): Promise<number> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
  await new Promise((resolve) => wss.once('listening', resolve));
  const port = (wss.address() as { port: number }).port;
  const sockets: WebSocket[] = [];
  wss.on('connection', (ws) => sockets.push(ws));
  const sentAt = new Map<string, number>();
  const cs = await Promise.all(Array.from({ length: masters }, () => client(`ws://127.0.0.1:${port}`, {}, sentAt, undefined)));
  while (sockets.length < masters) await tick();
  const fs = frames('raw-session', frameCount(masters, measureLatency));
  const send = (f: Frame) => {
    const text = JSON.stringify(f);
    for (const s of sockets) s.send(text);
  };
  const result = measureLatency ? await latency(send, fs, cs.map((x) => x.c), sentAt, pool) : await throughput(send, fs, cs.map((x) => x.c));
  for (const { ws } of cs) ws.terminate();
  await new Promise((resolve) => wss.close(resolve));
  return result;
}

async function main(): Promise<void> {
  // BENCH_HUB_PROFILE=N: only the hub's throughput to N masters (for `node --cpu-prof`).
  if (process.env.BENCH_HUB_PROFILE) {
    const n = Number(process.env.BENCH_HUB_PROFILE);
    console.log(`hub → ${n} master(s): ${Math.round(await hubRun(n, false))} frames/s`);
    return;
  }
  const round = (n: number, d = 0) => Number(n.toFixed(d));
  warmingUp = true;
  await rawRun(4, false);
  await hubRun(4, false);
  warmingUp = false;
  const fps: Record<number, { raw: number; hub: number }> = {};
  for (const n of [1, 4, 16]) fps[n] = { raw: await rawRun(n, false), hub: await hubRun(n, false) };
  const p99: Record<number, { raw: number; hub: number }> = {};
  for (const n of [4, 16]) {
    const raw: number[] = [];
    const hub: number[] = [];
    for (let round = 0; round < LATENCY_ROUNDS; round++) {
      await rawRun(n, true, raw);
      await hubRun(n, true, 0, hub);
    }
    p99[n] = { raw: p99Of(raw), hub: p99Of(hub) };
  }
  const fps_4_one_stalled = await hubRun(4, false, 1);
  for (const n of [1, 4, 16]) {
    const { raw, hub } = fps[n];
    console.log(`hub → ${String(n).padStart(2)} master(s): ${round(hub)} frames/s each   (raw ws: ${round(raw)}; ${round(hub / raw, 2)}×)`);
  }
  for (const n of [4, 16]) {
    const { raw, hub } = p99[n];
    console.log(`p99 latency, ${n} masters at ${RATE} frames/s (${LATENCY_ROUNDS} alternating rounds of ${LATENCY_SECONDS} s): hub ${round(hub, 3)} ms   (raw ws: ${round(raw, 3)} ms; added ${round(hub - raw, 3)} ms)`);
  }
  console.log(`4 masters, one stalled: the other three get ${round(fps_4_one_stalled)} frames/s (4 live: ${round(fps[4].hub)})`);
  console.log(
    JSON.stringify({
      bench: 'hub',
      fps_1: round(fps[1].hub),
      fps_4: round(fps[4].hub),
      raw_ws_fps_1: round(fps[1].raw),
      p99_ms_4_at_2k: round(p99[4].hub, 3),
      raw_ws_p99_ms_4_at_2k: round(p99[4].raw, 3),
      raw_ws_fps_4: round(fps[4].raw),
      fps_16: round(fps[16].hub),
      raw_ws_fps_16: round(fps[16].raw),
      p99_ms_16_at_2k: round(p99[16].hub, 3),
      raw_ws_p99_ms_16_at_2k: round(p99[16].raw, 3),
      fps_4_one_stalled: round(fps_4_one_stalled),
    }),
  );
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
