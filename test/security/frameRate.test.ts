// Found while hardening issue 12: 3,000 control.file.search frames sent at once by one master are
// each cheap and valid, yet together kept `rawp serve`'s event loop busy for 4.9 s (/v1/health
// waited that long). A remote master now has a frame rate (a burst of 200, then 100 a second):
// beyond it each frame is refused unparsed, and the refusals close it with 1008.
import { strict as assert } from 'node:assert';
import type { Frame, FrameOf, VendorFrame } from '../../src/protocol/frameTypes';
import { CLOSE } from '../../src/remote/controlPlane';
import { http, waitFor } from '../unit/remote/harness';
import { serve, stopAll } from './serveProcess';

const answers = (frames: Array<Frame | VendorFrame>) => frames.filter((f) => f.type === 'session.file.candidates');

describe('security/frame rate: one master cannot keep the host busy with valid frames', function () {
  this.timeout(180_000);
  afterEach(stopAll);

  it('3,000 file searches at once: at most the burst is served, the master is closed with 1008 (and reattaches), /v1/health keeps answering, another master is untouched', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 3000; i++) files[`f${i}-${'abcdefghij'.repeat(3)}.ts`] = 'x';
    const s = await serve({ files });
    const a = await s.master();
    const b = await s.master();
    a.client.send('control.file.search', { query_id: 'warm', query: 'abc' });
    await waitFor(() => answers(a.frames).length > 0, 'the index is built', 60_000);
    const latencies: number[] = [];
    let probing = true;
    const probe = (async () => {
      for (let i = 0; probing && i < 2000; i++) {
        const t = performance.now();
        await http(`${s.url}/v1/health`);
        latencies.push(performance.now() - t);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    for (let i = 0; i < 3000; i++) a.client.send('control.file.search', { query_id: `q${i}`, query: `f${i % 97}ab` });
    await waitFor(() => a.closes.length > 0, 'A is closed', 60_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    probing = false;
    await probe;
    assert.equal(a.closes[0].code, CLOSE.POLICY_VIOLATION);
    const served = answers(a.frames).length - 1;
    assert.ok(served <= 230, `${served} searches served`);
    const limited = a.frames.filter((f): f is FrameOf<'session.error'> => f.type === 'session.error' && f.payload.error_code === 'RATE_LIMITED');
    assert.ok(limited.length >= 1 && limited.length <= 21, `${limited.length} RATE_LIMITED`);
    const max = Math.max(...latencies);
    console.log(`      figures: ${JSON.stringify({ searches_sent: 3000, served, health_samples: latencies.length, health_max_ms: Math.round(max) })}`);
    assert.ok(max < 1500, `/v1/health waited ${Math.round(max)} ms (4,856 ms before the limit)`);
    assert.equal(b.closes.length, 0);
    await waitFor(() => a.connects >= 2, 'A reattached');
    assert.ok(s.alive());
  });

  it('a person typing in the @-picker (a search and a cancel per key, 20 keys a second) is never limited', async () => {
    const s = await serve({ files: { 'alpha.ts': 'a', 'beta.ts': 'b' } });
    const a = await s.master();
    for (let i = 0; i < 60; i++) {
      if (i > 0) a.client.send('control.file.search.cancel', { query_id: `k${i - 1}` });
      a.client.send('control.file.search', { query_id: `k${i}`, query: 'alpha'.slice(0, 1 + (i % 5)) });
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await waitFor(() => answers(a.frames).length > 0, 'answers');
    assert.ok(!a.frames.some((f) => f.type === 'session.error' && (f as FrameOf<'session.error'>).payload.error_code === 'RATE_LIMITED'));
    assert.equal(a.closes.length, 0);
  });
});
