// A token holder opening attach after attach without reading (found while hardening issue 12): each
// fresh attach gets the ring as one session.history frame, held in memory while the peer does not
// read — 150 idle attaches to a 6 MB history took `rawp serve` from 101 MB to 2.2 GB. Masters
// attached at once are now capped (32 by default): beyond it an upgrade gets 503 + Retry-After.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import WebSocket from 'ws';
import { buildFrame } from '../../src/protocol/build';
import { http, waitFor } from '../unit/remote/harness';
import { serve, stopAll, type ServeChild } from './serveProcess';

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;

/** An attach that never reads what it is sent (its socket is paused); resolves with its HTTP status. */
function idleAttach(s: ServeChild, sockets: WebSocket[]): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${s.url.replace('http', 'ws')}/v1/sessions/${s.session_id}/stream`, ['rawp-dps-1.0'], { headers: { authorization: `Bearer ${s.token}` } });
    sockets.push(ws);
    ws.on('unexpected-response', (_q, res) => {
      resolve(res.statusCode === 503 && res.headers['retry-after'] === '5' ? 503 : (res.statusCode ?? 0));
      res.resume();
    });
    ws.on('open', () => {
      ws.send(JSON.stringify(buildFrame('session.capabilities', { protocol_version: 'rawp-dps-1.0', supported_namespaces: ['agent', 'tool', 'session', 'control'] }, { session_id: s.session_id })));
      (ws as unknown as { _socket: { pause(): void } })._socket.pause();
      resolve(101);
    });
    ws.on('error', () => resolve(0));
  });
}

describe('security/masters: idle attaches cannot exhaust the host’s memory', function () {
  this.timeout(180_000);
  const sockets: WebSocket[] = [];
  afterEach(async () => {
    for (const w of sockets.splice(0)) w.terminate();
    await stopAll();
  });

  it('with a 6 MB history, 100 idle attaches: 32 are accepted, the rest get 503 + Retry-After: 5; memory stays bounded; a freed place is taken again', async () => {
    const s = await serve();
    const m = await s.master();
    for (let i = 0; i < 2; i++) {
      m.client.send('control.prompt.request', { prompt_text: `help ${'x'.repeat(3_000_000)}` });
      await waitFor(() => m.transcript.turns[i]?.usage !== undefined, `turn ${i}`, 60_000);
    }
    const before = rssMb(s.proc.pid!);
    const statuses: number[] = [];
    for (let i = 0; i < 100; i++) statuses.push(await idleAttach(s, sockets));
    // The master that filled the history is one of the 32.
    assert.equal(statuses.filter((x) => x === 101).length, 31, statuses.join(','));
    assert.equal(statuses.filter((x) => x === 503).length, 69);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const after = rssMb(s.proc.pid!);
    console.log(`      figures: ${JSON.stringify({ rss_before_mb: Math.round(before), rss_after_100_idle_attaches_mb: Math.round(after) })}`);
    assert.ok(after - before < 900, `memory grew by ${Math.round(after - before)} MB`);
    assert.ok(s.alive());
    assert.equal((await http(`${s.url}/v1/health`)).status, 200);
    // One leaves: its place can be taken.
    sockets.find((w) => w.readyState === WebSocket.OPEN)?.terminate();
    let again = 0;
    for (let i = 0; i < 50 && again !== 101; i++) {
      again = await idleAttach(s, sockets);
      if (again !== 101) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal(again, 101);
  });
});
