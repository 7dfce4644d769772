// Fitting a frame to the max_frame_size a peer announced (decision 515): strings cut in the middle
// (decision 516), a marked and valid frame, a history that keeps its newest frames and says what it lost.
import { strict as assert } from 'node:assert';
import { buildFrame, newId } from '../../../src/protocol/build';
import type { WireFrame } from '../../../src/protocol/frameTypes';
import { parseFrame } from '../../../src/protocol/parse';
import { CLIP_MARK, fitForPeer, fitFrame } from '../../../src/session/frameFit';
import { rememberSize } from '../../../src/session/frameSizes';
import { CUT_MARK_PATTERN } from '../../../src/protocol/cutMark';

const SESSION = newId();
const LIMIT = 64 * 1024;
const bytes = (f: unknown) => Buffer.byteLength(JSON.stringify(f), 'utf8');
const result = (output: {} | null) =>
  buildFrame('tool.invoke.result', { invocation_id: newId(), tool_name: 'Read', status: 'success', output, output_type: 'text' }, { session_id: SESSION }) as WireFrame;
/** A cut string's kept start, its kept end, and the count its mark gives. */
function cutParts(s: string): { head: string; tail: string; count: number } {
  const m = CUT_MARK_PATTERN.exec(s);
  assert.ok(m, `a cut mark in ${JSON.stringify(s.slice(0, 80))}…`);
  return { head: s.slice(0, m.index), tail: s.slice(m.index + m[0].length), count: Number(m[1]) };
}
const hasLoneSurrogate = (s: string) => /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);

describe('session/frameFit: no frame bigger than the peer takes (§12.2 max_frame_size, decision 515)', () => {
  it('§12.2 a frame within the limit goes unchanged (the same object)', () => {
    const f = result('small');
    assert.equal(fitFrame(f, LIMIT), f);
  });

  it('§12.2 §5.3.1 a 300 KB tool result is cut in the middle to fit, marked with the count, still valid, and says truncated', () => {
    const text = 'first line\n' + 'line of output\n'.repeat(20_000) + 'the last line: error 42';
    const f = result(text);
    const out = fitFrame(f, LIMIT) as WireFrame & { payload: { output: string; truncated?: boolean }; metadata?: Record<string, unknown> };
    assert.ok(out && out !== f);
    assert.ok(bytes(out) <= LIMIT, `${bytes(out)} bytes`);
    assert.equal(parseFrame(JSON.stringify(out)).kind, 'accepted');
    const { head, tail, count } = cutParts(out.payload.output);
    assert.ok(head.startsWith('first line\n') && text.startsWith(head), 'the start of the text is kept');
    assert.ok(tail.endsWith('the last line: error 42') && text.endsWith(tail), 'and its end');
    assert.ok(Math.abs(head.length - tail.length) <= 1, `as much of each (${head.length}, ${tail.length})`);
    assert.equal(count, text.length - head.length - tail.length, 'the mark counts what is left out');
    assert.ok(out.payload.output.length > LIMIT / 2, 'no more is cut than needed');
    assert.equal(out.payload.truncated, true);
    assert.deepEqual(out.metadata?.x_rawp_clipped, { original_bytes: bytes(f), max_frame_size: LIMIT, fields: ['payload.output'] });
    assert.equal((f as unknown as { payload: { output: string } }).payload.output, text, 'the published frame is not touched');
  });

  it('§12.2 multi-byte text (Korean, emoji) is measured in UTF-8 and never cut inside a character', () => {
    for (const unit of ['가나다라 ', '😀😃 ', 'a😀']) {
      const out = fitFrame(result(unit.repeat(40_000)), LIMIT) as WireFrame & { payload: { output: string } };
      assert.ok(out && bytes(out) <= LIMIT, `${unit}: ${out && bytes(out)} bytes`);
      assert.equal(hasLoneSurrogate(out.payload.output), false, `${unit}: a character was split`);
      const { head, tail, count } = cutParts(out.payload.output);
      assert.equal(head.length + count + tail.length, unit.length * 40_000, `${unit}: the count is what is left out`);
      assert.equal(parseFrame(JSON.stringify(out)).kind, 'accepted');
    }
  });

  it('§12.2 the longest strings go first, and only as many as needed', () => {
    const f = result({ a: 'x'.repeat(50_000), b: 'y'.repeat(40_000), c: 'keep me' });
    const out = fitFrame(f, LIMIT) as WireFrame & { payload: { output: Record<string, string> }; metadata: { x_rawp_clipped: { fields: string[] } } };
    assert.ok(bytes(out) <= LIMIT);
    assert.equal(out.payload.output.c, 'keep me');
    assert.ok(out.metadata.x_rawp_clipped.fields.includes('payload.output.a'));
  });

  it('§12.2 §5.3.1 a result of thousands of short strings has its list replaced by the mark (still a valid result)', () => {
    const f = result(Array.from({ length: 10_000 }, (_, i) => `item ${i}`));
    const out = fitFrame(f, LIMIT) as WireFrame & { payload: { output: unknown; truncated?: boolean }; metadata: { x_rawp_clipped: { fields: string[] } } };
    assert.ok(out && bytes(out) <= LIMIT);
    assert.equal(out.payload.output, CLIP_MARK);
    assert.equal(out.payload.truncated, true);
    assert.deepEqual(out.metadata.x_rawp_clipped.fields, ['payload.output']);
  });

  it('§12.2 a frame whose schema refuses the clipped form cannot be fitted: undefined', () => {
    // session.history-like lists inside a typed payload: a tool catalog of 5,000 tools.
    const tools = Array.from({ length: 5_000 }, (_, i) => ({ name: `tool${i}`, description: 'd', category: 'search' }));
    const f = buildFrame('tool.catalog.publish', { tools } as never, { session_id: SESSION }) as WireFrame;
    assert.equal(parseFrame(JSON.stringify(f)).kind, 'accepted', 'the fixture is a valid catalog');
    assert.equal(fitFrame(f, LIMIT), undefined);
  });

  it('§7.1.1 decision 516: with a frame budget alone, a history keeps every frame, only the ones over the budget cut; sizes the history measured are read, not measured again', () => {
    const inner = [result('small one'), result('x'.repeat(100_000)), result('small two')];
    const make = (frames: WireFrame[]) =>
      buildFrame('session.history', { frames: frames as unknown as Record<string, unknown>[], buffer_status: { policy_applied: 'RING', truncated: false }, last_sync_timestamp: new Date().toISOString(), last_message_id: frames[frames.length - 1].message_id }, { session_id: SESSION }) as WireFrame;
    const history = make(inner);
    const out = fitForPeer(history, undefined, 20_000) as WireFrame & { payload: { frames: WireFrame[]; buffer_status: { truncated: boolean } } };
    assert.deepEqual(out.payload.frames.map((f) => f.message_id), inner.map((f) => f.message_id), 'none left out');
    assert.equal(out.payload.buffer_status.truncated, false);
    assert.ok(bytes(out) > 20_000, 'the whole may be bigger than the budget');
    for (const f of out.payload.frames) assert.ok(bytes(f) <= 20_000);
    assert.deepEqual(out.payload.frames[0], inner[0], 'a frame within the budget is as it was');
    // Sizes known from the history are trusted: all small here, so the history goes as it is.
    const smalls = [result('a'), result('b')];
    const known = make(smalls);
    assert.equal(fitForPeer(known, undefined, 20_000), known, 'nothing over: the same frame');
    rememberSize(smalls[1], 30_000); // what the history would have measured had it been that big
    assert.notEqual(fitForPeer(known, undefined, 20_000), known, 'the remembered size is what is checked');
    // fitFrame too: a frame the history measured within the limit goes as it is, unserialized.
    const measured = result('x'.repeat(100_000));
    rememberSize(measured, 1_000);
    assert.equal(fitFrame(measured, 20_000), measured);
  });

  it('§7.1.1 §7.8.3 a session.history keeps its newest frames, each fitted, and says how many it lost', () => {
    const inner = Array.from({ length: 40 }, (_, i) => result(`${i} `.repeat(5_000)));
    inner.push(result('z'.repeat(200_000))); // the newest, itself too big
    const history = buildFrame(
      'session.history',
      { frames: inner as unknown as Record<string, unknown>[], buffer_status: { policy_applied: 'RING', truncated: false }, last_sync_timestamp: new Date().toISOString(), last_message_id: inner[inner.length - 1].message_id },
      { session_id: SESSION },
    ) as WireFrame;
    const out = fitFrame(history, LIMIT) as WireFrame & { payload: { frames: { message_id: string; payload: { output: string } }[]; buffer_status: { truncated: boolean; lost_frame_count?: number }; last_message_id: string } };
    assert.ok(out && bytes(out) <= LIMIT, `${out && bytes(out)} bytes`);
    assert.equal(parseFrame(JSON.stringify(out)).kind, 'accepted');
    const kept = out.payload.frames;
    assert.ok(kept.length >= 2, 'more than the newest frame fits');
    assert.equal(kept[kept.length - 1].message_id, inner[inner.length - 1].message_id, 'the newest frame is kept (clipped)');
    const newest = cutParts(kept[kept.length - 1].payload.output);
    assert.equal(newest.head.length + newest.count + newest.tail.length, 200_000);
    assert.deepEqual(kept.map((f) => f.message_id), inner.slice(inner.length - kept.length).map((f) => f.message_id), 'the newest, in order');
    assert.equal(out.payload.buffer_status.truncated, true);
    assert.equal(out.payload.buffer_status.lost_frame_count, inner.length - kept.length);
    assert.equal(out.payload.last_message_id, history.payload && (history as unknown as { payload: { last_message_id: string } }).payload.last_message_id);
  });
});
