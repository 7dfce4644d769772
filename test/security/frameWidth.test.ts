// Found while hardening (decision 563): one valid 4 MiB control.prompt.request with 471,000 unknown
// payload keys kept `rawp serve` busy for 5 s (/v1/health waited 4.2–5.1 s) — JSON.parse, zod and
// every copy of the payload pay per key — and was then relayed and kept; frames of an unknown type
// with as many keys cost ~0.5 s each and were "ignored", never refused, so only the frame rate
// bounded them. A peer's frame is now held to 1,000 members per object and 25,000 values in all,
// counted on its text before JSON.parse; over that it is refused whatever its type, and the
// refusals count towards the 1008 close.
import { strict as assert } from 'node:assert';
import { randomUUID } from 'node:crypto';
import type { FrameOf } from '../../src/protocol/frameTypes';
import { CLOSE } from '../../src/remote/controlPlane';
import { http, waitFor } from '../unit/remote/harness';
import { serve, stopAll } from './serveProcess';

const MAX_FRAME = 4 * 1024 * 1024;

/** `"prompt_text":"…"` followed by short unknown keys up to ~4 MiB (the trial's frame). */
function manyKeys(type: string, session_id: string): { text: string; message_id: string; keys: number } {
  const parts: string[] = [];
  let len = 400;
  for (let i = 0; len < MAX_FRAME - 400; i++) {
    const p = `"${i.toString(36)}":0`;
    parts.push(p);
    len += p.length + 1;
  }
  const message_id = randomUUID();
  const text = `{"v":1,"type":"${type}","message_id":"${message_id}","timestamp":"${new Date().toISOString()}","session_id":"${session_id}","payload":{"prompt_text":"read a.txt",${parts.join(',')}}}`;
  return { text, message_id, keys: parts.length };
}

/** /v1/health asked every 20 ms until stopped; the longest wait. */
function healthProbe(url: string): () => Promise<{ samples: number; max: number }> {
  const latencies: number[] = [];
  let probing = true;
  const done = (async () => {
    for (let i = 0; probing && i < 5000; i++) {
      const t = performance.now();
      await http(`${url}/v1/health`);
      latencies.push(performance.now() - t);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  return async () => {
    probing = false;
    await done;
    return { samples: latencies.length, max: Math.round(Math.max(...latencies)) };
  };
}

const errorsOf = (frames: { type: string }[]) => frames.filter((f): f is FrameOf<'session.error'> => f.type === 'session.error');

describe('security/frame width: a frame of very many keys cannot freeze the host (decision 563)', function () {
  this.timeout(180_000);
  afterEach(stopAll);

  it('§14.2 a 4 MiB prompt with ~470,000 unknown payload keys is refused FRAME_TOO_WIDE, not relayed or kept; /v1/health keeps answering; 900 unknown keys still pass and reach the other master', async () => {
    const s = await serve();
    const a = await s.master();
    const b = await s.master();
    const wide = manyKeys('control.prompt.request', s.session_id);
    assert.ok(wide.keys > 400_000 && wide.text.length < MAX_FRAME, `${wide.keys} keys, ${wide.text.length} bytes`);
    const stop = healthProbe(s.url);
    await new Promise((resolve) => setTimeout(resolve, 100));
    a.client.sendRaw(wide.text);
    await waitFor(() => errorsOf(a.frames).length > 0 || b.frames.some((f) => f.message_id === wide.message_id), 'the refusal (or the relay)', 60_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const health = await stop();
    console.log(`      figures: ${JSON.stringify({ keys: wide.keys, bytes: wide.text.length, health_samples: health.samples, health_max_ms: health.max })}`);
    const [e] = errorsOf(a.frames);
    assert.deepEqual([e?.payload.error_code, e?.payload.fatal], ['FRAME_TOO_WIDE', false], JSON.stringify(e));
    assert.match(e.payload.message, /more than 1,000 members/);
    assert.ok(health.max < 1000, `/v1/health waited ${health.max} ms (4,220–5,100 ms before the bound)`);
    assert.ok(!b.frames.some((f) => f.message_id === wide.message_id), 'not relayed');
    const c = await s.master();
    assert.ok(!c.frames.some((f) => f.message_id === wide.message_id), 'not in the history a fresh master gets');
    // Unknown payload keys within the bound are kept and relayed (decision 002).
    const extras = Object.fromEntries(Array.from({ length: 900 }, (_, i) => [`x_future_${i}`, i]));
    const fine = a.client.send('control.prompt.request', { prompt_text: 'read a.txt', ...extras } as FrameOf<'control.prompt.request'>['payload']);
    await waitFor(() => b.frames.some((f) => f.message_id === fine?.message_id), 'the 900-key prompt reaches B');
    const relayed = b.frames.find((f) => f.message_id === fine?.message_id);
    assert.equal(Object.keys(relayed?.payload ?? {}).filter((k) => k.startsWith('x_future_')).length, 900, 'with its unknown keys');
    await waitFor(() => b.transcript.turns[0]?.usage !== undefined, 'its turn ends');
    assert.match(JSON.stringify(b.transcript.turns[0].blocks), /hello from a/);
    assert.equal(errorsOf(a.frames).length, 1);
    assert.equal(a.closes.length + b.closes.length, 0, 'nobody was disconnected');
    assert.ok(s.alive());
  });

  it('§2.2 unknown-type frames of ~470,000 keys are refused, not ignored: the sender is closed with 1008 after its 21st refusal, /v1/health keeps answering, another master is untouched', async () => {
    const s = await serve();
    const a = await s.master();
    const b = await s.master();
    // The same text 25 times: refused unread, its message_id never matters (and this process, where
    // the probe runs, holds 4 MiB instead of 100).
    const frame = manyKeys('x.unknown.thing', s.session_id).text;
    const frames = Array.from({ length: 25 }, () => frame);
    const stop = healthProbe(s.url);
    await new Promise((resolve) => setTimeout(resolve, 100));
    // One at a time: the probe runs in this process, which must not be busy writing 100 MB at once.
    // (Before the bound each cost the host ~0.5 s and was ignored: A was never closed.)
    for (const f of frames) {
      // Once closed (the 21st refusal), A's client reconnects: what is left is not sent on the new socket.
      if (a.closes.length > 0) break;
      a.client.sendRaw(f);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await waitFor(() => a.closes.length > 0, 'A is closed', 60_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const health = await stop();
    const refused = errorsOf(a.frames).filter((e) => e.payload.error_code === 'FRAME_TOO_WIDE').length;
    console.log(`      figures: ${JSON.stringify({ frames: frames.length, refused, health_samples: health.samples, health_max_ms: health.max })}`);
    assert.equal(a.closes[0].code, CLOSE.POLICY_VIOLATION);
    assert.ok(refused >= 15 && refused <= 21, `${refused} FRAME_TOO_WIDE`);
    assert.ok(health.max < 1000, `/v1/health waited ${health.max} ms`);
    assert.equal(b.closes.length, 0);
    b.client.send('control.prompt.request', { prompt_text: 'read a.txt' });
    await waitFor(() => b.transcript.turns.at(-1)?.usage !== undefined, 'B still works');
    assert.ok(s.alive());
  });
});
