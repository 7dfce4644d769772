// Issue 12 #1 against a real `rawp serve`: a control frame nesting 5,000 levels (~30 KB) used to
// pass parsing and make JSON.stringify in HistoryBuffer.append throw inside the ws message
// handler — the process exited and every master dropped. Now depth and size are checked at parse
// time: the sender gets a non-fatal session.error, its connection stays, the server stays, and a
// second master keeps receiving frames.
import { strict as assert } from 'node:assert';
import { buildFrame } from '../../src/protocol/build';
import type { FrameOf } from '../../src/protocol/frameTypes';
import { http, waitFor } from '../unit/remote/harness';
import { serve, stopAll } from './serveProcess';

/** A valid control.prompt.request whose payload carries an extra key nested `depth` levels. */
function deepPrompt(session_id: string, depth: number): { text: string; message_id: string } {
  const f = buildFrame('control.prompt.request', { prompt_text: 'deep' }, { session_id });
  const text = JSON.stringify(f).replace('"prompt_text":"deep"', `"prompt_text":"deep","x":${'['.repeat(depth)}${']'.repeat(depth)}`);
  return { text, message_id: f.message_id };
}

function errorsOf(frames: { type: string }[]): FrameOf<'session.error'>[] {
  return frames.filter((f): f is FrameOf<'session.error'> => f.type === 'session.error');
}

describe('security/input limits: hostile frames against a real rawp serve (issue 12 #1)', function () {
  this.timeout(120_000);
  afterEach(stopAll);

  it('§14.2 a frame nesting 5,000 levels (~30 KB) gets a non-fatal FRAME_TOO_DEEP; the server, the sender and a second master stay up', async () => {
    const s = await serve();
    const a = await s.master();
    const b = await s.master();
    const deep = deepPrompt(s.session_id, 5000);
    assert.ok(deep.text.length > 10_000 && deep.text.length < 40_000, `${deep.text.length} bytes`);
    a.client.sendRaw(deep.text);
    await waitFor(() => errorsOf(a.frames).length > 0 || !s.alive(), 'the refusal');
    assert.ok(s.alive(), `rawp serve exited: ${s.err}`);
    const [e] = errorsOf(a.frames);
    assert.deepEqual([e.payload.error_code, e.payload.fatal], ['FRAME_TOO_DEEP', false]);
    assert.ok(!b.frames.some((f) => f.message_id === deep.message_id), 'the deep frame was not relayed');
    // Both connections still work: a prompt from A runs, B sees the whole turn.
    a.client.send('control.prompt.request', { prompt_text: 'read a.txt' });
    await waitFor(() => b.transcript.turns[0]?.usage !== undefined, 'the turn reaches B');
    assert.match(JSON.stringify(b.transcript.turns[0].blocks), /hello from a/);
    assert.equal(a.closes.length + b.closes.length, 0, 'nobody was disconnected');
    assert.equal(JSON.parse((await http(`${s.url}/v1/health`)).body).ok, true);
  });

  it('§14.2 depth is measured on the text, linearly: 1 MB of brackets is refused at once, and a 60-level payload is accepted', async () => {
    const s = await serve();
    const a = await s.master();
    const huge = deepPrompt(s.session_id, 500_000);
    const t0 = performance.now();
    a.client.sendRaw(huge.text);
    await waitFor(() => errorsOf(a.frames).length > 0, 'the refusal');
    const ms = performance.now() - t0;
    assert.equal(errorsOf(a.frames)[0].payload.error_code, 'FRAME_TOO_DEEP');
    assert.ok(ms < 5000, `refused after ${ms} ms`);
    const fine = deepPrompt(s.session_id, 60);
    a.client.sendRaw(fine.text);
    await waitFor(() => a.transcript.turns[0]?.usage !== undefined, 'the 60-level prompt ran');
    assert.equal(errorsOf(a.frames).length, 1);
    assert.ok(s.alive());
  });

  it('§2.2 malformed, non-object and truncated frames are each answered with a non-fatal error; 20 of them in a row leave the connection and the server up', async () => {
    const s = await serve();
    const a = await s.master();
    const junk = ['{', '[]', '"x"', 'null', '{"v":1}', '{"v":1,"type":"control.prompt.request"}', '\u0000\uffff', '{"v":1,"type":"x-vendor","payload":' + '{"a":'.repeat(100) + '1' + '}'.repeat(100) + '}'];
    for (let i = 0; i < 20; i++) a.client.sendRaw(junk[i % junk.length]);
    await waitFor(() => errorsOf(a.frames).length >= 20, '20 refusals');
    assert.ok(errorsOf(a.frames).every((e) => e.payload.fatal === false));
    assert.equal(a.closes.length, 0, 'twenty refusals are within the limit');
    assert.ok(s.alive());
  });
});
