// Found by an adversarial trial in ordinary use (decision 564), against a real `rawp serve`:
// - when the session's 8 MiB history ring is full, the session.history of an attach is one frame
//   of 8.4 MB, and it counted against the master's 8 MiB send queue: a master reading at 1 MB/s was
//   closed 1013 as soon as another master's turn produced any frame, on every attach;
// - `rawp attach` took its opening to end at agent.state.changed, which came before that history,
//   so after such a drop it resumed from its attach position: it never showed the transcript before
//   it, and never said that the host no longer held the start of it.
// Now the history does not count against the queue (only what is queued behind it does), a fresh
// attach's history comes before agent.state.changed, and a client cut off before the history
// attaches afresh. One served session, its ring filled once (12 turns of ~1 MB of Bash output).
import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, connect, type Server, type Socket } from 'node:net';
import WebSocket from 'ws';
import { buildFrame } from '../../src/protocol/build';
import { EVERY_FEATURE } from '../../src/protocol/capabilities';
import type { Frame, FrameOf } from '../../src/protocol/frameTypes';
import { DPS_SUBPROTOCOL, streamPath } from '../../src/remote/controlPlane';
import { waitFor, type TestMaster } from '../unit/remote/harness';
import { CLI, ROOT, serve, stopAll, type ServeChild } from './serveProcess';

const MB = 1_000_000;

/** One prompt from `m`, every permission question answered allow_once, until its turn ends. */
async function turn(m: TestMaster, prompt_text: string): Promise<void> {
  let seen = m.frames.length;
  let ended = false;
  m.client.send('control.prompt.request', { prompt_text });
  await waitFor(() => {
    // Only the frames that arrived since the last look: a filled ring is hundreds of thousands.
    for (; seen < m.frames.length && !ended; seen++) {
      const f = m.frames[seen];
      if (f.type === 'session.turn.end') ended = true;
      if (f.type !== 'agent.interaction.request') continue;
      const { interaction_id } = (f as FrameOf<'agent.interaction.request'>).payload;
      m.client.send('control.interaction.response', { interaction_id, selected_value: 'allow_once' });
    }
    return ended;
  }, `the turn of "${prompt_text}"`, 120_000);
}

/** The session.history a fresh attach gets now (a bare WebSocket that reads at full speed). */
async function freshHistory(s: ServeChild): Promise<FrameOf<'session.history'>['payload']> {
  const ws = new WebSocket(`${s.url.replace('http', 'ws')}${streamPath(s.session_id)}`, [DPS_SUBPROTOCOL], { headers: { authorization: `Bearer ${s.token}` } });
  try {
    return await new Promise((resolve, reject) => {
      ws.on('open', () => ws.send(JSON.stringify(buildFrame('session.capabilities', { protocol_version: DPS_SUBPROTOCOL, supported_namespaces: ['agent', 'tool', 'session', 'control'], features: EVERY_FEATURE }, { session_id: s.session_id }))));
      ws.on('message', (data) => {
        const f = JSON.parse(String(data)) as Frame;
        if (f.type === 'session.history') resolve(f.payload);
      });
      ws.on('close', (code) => reject(new Error(`closed ${code} before session.history`)));
    });
  } finally {
    ws.terminate();
  }
}

/**
 * A master over a bare WebSocket on a poor link: it reads nothing until `go()`, then `bytesPerSecond`
 * at most (its TCP socket is paused between slices of a tenth of a second).
 */
function slowMaster(s: ServeChild, bytesPerSecond: number) {
  const frames: Array<{ frame: Frame; at: number }> = [];
  const m = { frames, close: undefined as number | undefined, opened: false, go: () => {}, stop: () => {} };
  const ws = new WebSocket(`${s.url.replace('http', 'ws')}${streamPath(s.session_id)}`, [DPS_SUBPROTOCOL], { headers: { authorization: `Bearer ${s.token}` } });
  ws.on('message', (data) => frames.push({ frame: JSON.parse(String(data)) as Frame, at: Date.now() }));
  ws.on('close', (code) => (m.close = code));
  let timer: ReturnType<typeof setInterval> | undefined;
  ws.on('open', () => {
    ws.send(JSON.stringify(buildFrame('session.capabilities', { protocol_version: DPS_SUBPROTOCOL, supported_namespaces: ['agent', 'tool', 'session', 'control'], features: EVERY_FEATURE }, { session_id: s.session_id })));
    const tcp = (ws as unknown as { _socket: Socket })._socket;
    tcp.pause();
    m.opened = true;
    const slice = bytesPerSecond / 10;
    let read = 0;
    tcp.on('data', (chunk: Buffer) => {
      read += chunk.length;
      if (read >= slice) tcp.pause();
    });
    m.go = () => {
      timer = setInterval(() => {
        read = 0;
        tcp.resume();
      }, 100);
    };
  });
  m.stop = () => {
    if (timer) clearInterval(timer);
    ws.terminate();
  };
  return m;
}

/**
 * A TCP relay to `port` passing the server's bytes at `bytesPerSecond`; its first connection is cut
 * once `cutAfter` bytes have passed (a network drop in the middle of the attach's history).
 */
async function slowRelay(port: number, bytesPerSecond: number, cutAfter: number): Promise<{ port: number; cuts: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const timers = new Set<ReturnType<typeof setInterval>>();
  let first = true;
  const server: Server = createServer((inbound) => {
    const outbound = connect(port, '127.0.0.1');
    const cut = first;
    first = false;
    for (const sock of [inbound, outbound]) {
      sockets.add(sock);
      sock.on('close', () => sockets.delete(sock));
      sock.on('error', () => {});
    }
    inbound.pipe(outbound);
    const queue: Buffer[] = [];
    let queued = 0;
    let passed = 0;
    outbound.on('data', (chunk: Buffer) => {
      queue.push(chunk);
      queued += chunk.length;
      if (queued > bytesPerSecond / 4) outbound.pause();
    });
    const timer = setInterval(() => {
      let budget = bytesPerSecond / 10;
      while (queue.length > 0 && budget > 0) {
        let chunk = queue.shift()!;
        if (chunk.length > budget) {
          queue.unshift(chunk.subarray(budget));
          chunk = chunk.subarray(0, budget);
        }
        budget -= chunk.length;
        queued -= chunk.length;
        passed += chunk.length;
        inbound.write(chunk);
      }
      if (cut && passed > cutAfter && !inbound.destroyed) {
        state.cuts++;
        inbound.destroy();
        outbound.destroy();
      }
      if (queued <= bytesPerSecond / 4) outbound.resume();
    }, 100);
    timers.add(timer);
    outbound.on('close', () => {
      // What is still queued goes on to the client, then the relay lets go.
      const done = setInterval(() => {
        if (queue.length === 0 || inbound.destroyed) {
          clearInterval(done);
          clearInterval(timer);
          inbound.end();
        }
      }, 100);
      timers.add(done);
    });
    inbound.on('close', () => outbound.destroy());
  });
  const state = {
    port: 0,
    cuts: 0,
    close: async () => {
      for (const t of timers) clearInterval(t);
      for (const sock of sockets) sock.destroy();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.port = (server.address() as { port: number }).port;
  return state;
}

const count = (text: string, what: string) => text.split(what).length - 1;

describe('security/fullRingAttach: an attach to a full 8 MiB history ring gets that history, slow link or not (decision 564)', function () {
  this.timeout(300_000);
  let s: ServeChild;
  let a: TestMaster;
  /** Prompts of the turns that filled the ring. */
  let filled = 0;
  before(async () => {
    s = await serve();
    a = await s.master();
    for (; filled < 12; filled++) await turn(a, `run \`seq ${filled + 1} 150000\``);
  });
  after(stopAll);

  it('§7.1.1 §13.1 a master that stalls, then reads at 1 MB/s, gets the whole 8.4 MB history and is not closed (1013) by another master’s turn meanwhile; it gets that turn too, after the history', async () => {
    const expected = await freshHistory(s);
    assert.ok(JSON.stringify(expected).length > 8 * MB, 'the ring is full');
    assert.equal(expected.buffer_status.truncated, true);
    const slow = slowMaster(s, MB);
    try {
      await waitFor(() => slow.opened, 'attached');
      // Its capabilities reach the host at once, and its opening is queued there: the history first.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const from = a.frames.length;
      await turn(a, 'run `seq 1 20000`'); // 109 kB of output: more than what the history leaves of 8 MiB
      const liveEnded = Date.now();
      slow.go();
      await waitFor(() => slow.frames.some((f) => f.frame.type === 'session.turn.end') || slow.close !== undefined, 'the slow master got the live turn', 120_000);
      assert.equal(slow.close, undefined, 'the slow master was closed (1013) while its history was queued');
      const types = slow.frames.map((f) => f.frame.type);
      assert.deepEqual(types.slice(0, 5), ['session.capabilities', 'tool.catalog.publish', 'agent.commands.publish', 'session.history', 'agent.state.changed']);
      const history = slow.frames[3];
      assert.ok(history.at > liveEnded, 'the live turn was over before the history had reached the slow master');
      const got = (history.frame as FrameOf<'session.history'>).payload;
      assert.deepEqual(got.frames.map((f) => f.message_id), expected.frames.map((f) => f.message_id), 'the whole history');
      assert.deepEqual(got.buffer_status, expected.buffer_status);
      const upToEnd = (frames: Array<{ type: string; message_id: string }>) => frames.slice(0, frames.findIndex((f) => f.type === 'session.turn.end') + 1).map((f) => f.message_id);
      const live = slow.frames.slice(5).map((f) => f.frame).filter((f) => !f.type.startsWith('control.')); // A's own prompt and answer, relayed
      assert.deepEqual(upToEnd(live), upToEnd(a.frames.slice(from)), 'and then every frame of the live turn');
      assert.ok(s.alive());
    } finally {
      slow.stop();
    }
  });

  it('§7.1.1-1 §7.8.3 rawp attach over a 2 MB/s link cut in the middle of the history shows the earlier transcript once, says the host no longer holds its start, then says it is attached; a turn run meanwhile is shown once', async () => {
    const history = await freshHistory(s);
    const texts = history.frames.filter((f): f is FrameOf<'control.prompt.request'> => (f as Frame).type === 'control.prompt.request').map((f) => f.payload.prompt_text);
    const seqs = texts.filter((t) => t.startsWith('run `seq')).length;
    const reads = texts.filter((t) => t === 'read a.txt').length;
    assert.ok(seqs >= 5 && seqs < filled, `${seqs} of the ${filled} long turns are still in the ring`);
    const relay = await slowRelay(Number(new URL(s.url).port), 2 * MB, 3 * MB);
    let attach: ChildProcess | undefined;
    let out = '';
    try {
      attach = spawn(process.execPath, [CLI, 'attach', `http://127.0.0.1:${relay.port}`, '--session', s.session_id], { cwd: ROOT, env: { ...process.env, RAWP_TOKEN: s.token }, stdio: ['pipe', 'pipe', 'pipe'] });
      attach.stdout!.on('data', (d: Buffer) => (out += d.toString()));
      attach.stderr!.on('data', (d: Buffer) => (out += d.toString()));
      await waitFor(() => relay.cuts === 1, 'the first connection is cut mid-history', 60_000);
      await turn(a, 'read a.txt');
      await waitFor(() => out.includes('[attached to session'), 'rawp attach attached', 120_000);
      await waitFor(() => count(out, 'hello from a') === reads + 1 && /ended: end_turn/.test(out.slice(out.lastIndexOf('hello from a'))), 'the live turn shown', 60_000);
      const attachedAt = out.indexOf('[attached to session');
      const before = out.slice(0, attachedAt);
      assert.match(out, /\[connection lost \(1006\); reconnecting in \d+ ms\]/);
      assert.ok(out.indexOf('[connection lost') < attachedAt, 'the cut came before it said it was attached');
      assert.ok(!out.includes('[reconnected]'), 'it attached afresh (a reattach from its attach position would not show the transcript)');
      assert.equal(count(out, '[attached to session'), 1);
      assert.match(before, /⚠ Part of this session's history \(about \d+ frames\) is beyond the history budget the host keeps and is not shown\./);
      for (const t of texts.filter((x) => x.startsWith('run `seq'))) assert.equal(count(before, `› ${t}\n`), 1, `${t} shown once`);
      assert.equal(count(before, '› run `seq '), seqs, 'and no other long turn');
      assert.ok(texts.includes(`run \`seq ${filled} 150000\``), 'the newest long turn is among them');
      // The turn run meanwhile is in the history or after it, depending on when the reattach
      // reached the host; either way it is shown once, and so is every earlier one.
      assert.equal(count(out, 'hello from a'), reads + 1);
      assert.equal(count(out, '⚠ Part of this session'), 1);
    } finally {
      if (attach && attach.exitCode === null) attach.kill('SIGKILL');
      await relay.close();
    }
  });
});

