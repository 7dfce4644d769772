// The socket review of 2026-12-06 against the built `rawp serve`, three findings:
// 1. With no token, one connection of 1,000 pipelined `GET /webview.js` that never reads took the
//    host from 83 MB to 1.59 GB and stalled /v1/health 7.9 s: every answer read its own copy of the
//    1.5 MB bundle. Now every answer shares one Buffer and a connection gets 100 requests.
// 2. A master's ids had no length bound and the hub remembers ids by count (idempotency, history):
//    4 MiB message_ids under the refusal rate limit kept 470 MB for good, and each refusal echoed
//    the id back. A peer's id is now held to 256 characters and never echoed when longer.
// 3. The Host check took `localhost/;script-src …` (a URL with a loopback hostname) and the page's
//    CSP repeated it. Host must be `name[:port]`.
import { strict as assert } from 'node:assert';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import type { FrameOf } from '../../src/protocol/frameTypes';
import { INCOMING_MAX_ID_CHARS } from '../../src/protocol/idLength';
import { http, waitFor } from '../unit/remote/harness';
import { serve, stopAll } from './serveProcess';

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;
const errorsOf = (frames: { type: string }[]) => frames.filter((f): f is FrameOf<'session.error'> => f.type === 'session.error');

/** One raw HTTP request; the status line and headers of the answer. */
function rawRequest(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let got = '';
    const s = connect(port, '127.0.0.1', () => s.write(text));
    s.setEncoding('latin1');
    s.on('data', (d: string) => {
      got += d;
      if (got.includes('\r\n\r\n')) {
        s.destroy();
        resolve(got.slice(0, got.indexOf('\r\n\r\n')));
      }
    });
    s.on('error', reject);
    s.setTimeout(10_000, () => reject(new Error('no answer')));
  });
}

describe('security/serve: what a client can make the host keep (the socket review of 2026-12-06)', function () {
  this.timeout(120_000);
  afterEach(stopAll);

  it('§2.1 a tokenless connection of 1,000 pipelined GETs of the bundle that never reads does not make the host hold a copy per request, and /v1/health keeps answering', async () => {
    const s = await serve();
    const pid = s.proc.pid!;
    const port = Number(new URL(s.url).port);
    const bundle = await http(`${s.url}/webview.js`);
    assert.equal(bundle.status, 200, 'the bundle is built and served');
    const before = rssMb(pid);
    const sock = connect(port, '127.0.0.1', () => {
      sock.pause();
      sock.write(`GET /webview.js HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`.repeat(1000));
    });
    sock.on('error', () => undefined);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const t = performance.now();
    const health = await http(`${s.url}/v1/health`);
    const waited = performance.now() - t;
    const grew = rssMb(pid) - before;
    sock.destroy();
    console.log(`      figures: ${JSON.stringify({ rss_growth_mb: Math.round(grew), health_ms: Math.round(waited) })}`);
    assert.equal(health.status, 200);
    assert.ok(grew < 150, `the host grew ${Math.round(grew)} MB (1,500 MB before: a copy of the bundle per request)`);
    assert.ok(waited < 2000, `/v1/health waited ${Math.round(waited)} ms`);
  });

  it('§2.1 a master\'s message_id or payload id longer than 256 characters is refused without being echoed or kept; one of 256 passes', async () => {
    const s = await serve();
    const a = await s.master();
    const long = `${randomUUID()}-${'i'.repeat(300_000)}`;
    a.client.sendRaw(JSON.stringify({ v: 1, type: 'control.prompt.request', message_id: long, timestamp: new Date().toISOString(), session_id: s.session_id, payload: { prompt_text: 'read a.txt' } }));
    await waitFor(() => errorsOf(a.frames).length > 0, 'the refusal');
    const [e] = errorsOf(a.frames);
    assert.equal(e.payload.error_code, 'INVALID_ENVELOPE');
    assert.match(e.payload.message, /message_id of 300,037 characters is longer than the 256/);
    assert.equal(e.parent_id, undefined, 'the id is not echoed back');
    assert.ok(JSON.stringify(e).length < 2000, `the refusal is ${JSON.stringify(e).length} bytes`);

    a.client.sendRaw(JSON.stringify({ v: 1, type: 'control.interaction.response', message_id: randomUUID(), timestamp: new Date().toISOString(), session_id: s.session_id, payload: { interaction_id: 'x'.repeat(10_000), selected_value: 'allow_once' } }));
    await waitFor(() => errorsOf(a.frames).length > 1, 'the second refusal');
    const second = errorsOf(a.frames)[1];
    assert.equal(second.payload.error_code, 'INVALID_PAYLOAD');
    assert.match(second.payload.message, /payload\.interaction_id of 10,000 characters/);

    // An id at the bound is taken: the prompt runs and a second master sees it.
    const b = await s.master();
    const edge = 'e'.repeat(INCOMING_MAX_ID_CHARS);
    a.client.sendRaw(JSON.stringify({ v: 1, type: 'control.prompt.request', message_id: edge, timestamp: new Date().toISOString(), session_id: s.session_id, payload: { prompt_text: 'read a.txt' } }));
    await waitFor(() => b.frames.some((f) => f.message_id === edge), 'the prompt with a 256-character id reaches B');
    // The refused id was not remembered: a fresh master's history does not hold it.
    const c = await s.master();
    assert.ok(!c.frames.some((f) => f.message_id === long), 'not kept in history');
    assert.equal(errorsOf(a.frames).length, 2, 'the 256-character id was not refused');
  });

  it('§2.1 a Host that is more than name[:port] is refused (421) and never reaches the page\'s CSP', async () => {
    const s = await serve();
    const port = Number(new URL(s.url).port);
    for (const host of ["localhost/;script-src 'unsafe-inline' *;x", 'evil.example@localhost', `localhost:${port}/x`]) {
      const head = await rawRequest(port, `GET / HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      assert.match(head, /^HTTP\/1\.1 421 /, `${host}: ${head.split('\r\n')[0]}`);
      assert.doesNotMatch(head, /unsafe-inline/);
    }
    const fine = await rawRequest(port, `GET / HTTP/1.1\r\nHost: localhost:${port}\r\nConnection: close\r\n\r\n`);
    assert.match(fine, /^HTTP\/1\.1 200 /);
    assert.match(fine, new RegExp(`connect-src 'self' ws://localhost:${port}[; ]`));
  });
});
