import { strict as assert } from 'node:assert';
import { HistoryBuffer } from '../../../src/session/history';
import { knownSize } from '../../../src/session/frameSizes';

// Frames of a fixed serialized size make byte budgets easy to reason about.
function frame(n: number, pad = 0): { message_id: string; n: number; pad: string } {
  return { message_id: `m${n}`, n, pad: 'x'.repeat(pad) };
}
type F = { message_id: string; n?: number; pad?: string; text?: string };
const size = (f: object) => Buffer.byteLength(JSON.stringify(f));

describe('session/history: the reattach buffer (§7.1.1)', () => {
  it('§7.1.1 since(id) returns exactly the frames after that id, not truncated', () => {
    const h = new HistoryBuffer<F>({ policy: 'RING', maxBytes: 10_000 });
    for (let i = 0; i < 5; i++) h.append(frame(i));
    const r = h.since('m1');
    assert.deepEqual(r.frames.map((f) => f.message_id), ['m2', 'm3', 'm4']);
    assert.equal(r.buffer_status.truncated, false);
    assert.equal(r.buffer_status.lost_frame_count, 0);
    assert.equal(r.buffer_status.policy_applied, 'RING');
    assert.equal(r.last_message_id, 'm4');
  });

  it('§7.1.1 the sizes the budget counted name exactly the kept frames bigger than a limit, in bytes (Korean included)', () => {
    const h = new HistoryBuffer<F>({ policy: 'RING', maxBytes: 100_000 });
    const small = frame(0, 10);
    const big = frame(1, 5_000);
    const korean: F = { message_id: 'ko', text: '한'.repeat(1_000) }; // 1,000 units, 3,000 bytes
    for (const f of [small, big, korean, frame(3, 20)]) h.append(f);
    const limit = 2_500;
    assert.ok(size(korean) > limit && JSON.stringify(korean).length < limit, 'the fixture is over in bytes, under in units');
    const over = (bytes: number) => h.all().filter((f) => knownSize(f)! > bytes).map((f) => f.message_id);
    assert.deepEqual(over(limit), ['m1', 'ko']);
    assert.deepEqual(over(Infinity), []);
  });

  it('§7.1.1 every frame the history measures has its size remembered (exactly its JSON\'s UTF-8 bytes), kept or not', () => {
    const h = new HistoryBuffer<F>({ policy: 'RING', maxBytes: 200 });
    const small: F = { message_id: 'a', text: '한국어 text' };
    const tooBig = frame(1, 500); // over the whole budget: not kept, still measured
    h.append(small);
    h.append(tooBig);
    assert.equal(knownSize(small), size(small));
    assert.equal(knownSize(tooBig), size(tooBig));
    assert.equal(knownSize({ message_id: 'never appended' }), undefined);
  });

  it('§7.1.1 since(the newest id) is empty and keeps that id as last_message_id', () => {
    const h = new HistoryBuffer<F>({ policy: 'RING', maxBytes: 10_000 });
    h.append(frame(0));
    const r = h.since('m0');
    assert.deepEqual(r.frames, []);
    assert.equal(r.last_message_id, 'm0');
    assert.equal(r.buffer_status.truncated, false);
  });

  it('§7.1.1 RING evicts the oldest frames to stay within the byte budget', () => {
    const one = size(frame(0, 100));
    const h = new HistoryBuffer<F>({ policy: 'RING', maxBytes: one * 3 });
    for (let i = 0; i < 6; i++) h.append(frame(i, 100));
    assert.deepEqual(h.all().map((f) => f.n), [3, 4, 5]);
    assert.ok(h.usedBytes <= one * 3);
  });

  it('§7.1.1 RING: an id that fell out gives truncated true and the count of lost frames', () => {
    const one = size(frame(0, 100));
    const h = new HistoryBuffer<F>({ policy: 'RING', maxBytes: one * 3 });
    for (let i = 0; i < 6; i++) h.append(frame(i, 100));
    const r = h.since('m0'); // m1, m2 were evicted; m3..m5 are kept
    assert.equal(r.buffer_status.truncated, true);
    assert.equal(r.buffer_status.lost_frame_count, 2);
    assert.deepEqual(r.frames.map((f) => f.n), [3, 4, 5]);
  });

  it('§7.1.1 an unknown id gives truncated true and everything still buffered', () => {
    const h = new HistoryBuffer<F>({ policy: 'RING', maxBytes: 10_000 });
    for (let i = 0; i < 3; i++) h.append(frame(i));
    const r = h.since('never-seen');
    assert.equal(r.buffer_status.truncated, true);
    assert.deepEqual(r.frames.map((f) => f.n), [0, 1, 2]);
  });

  it('§7.1.1 DROP keeps the oldest frames and drops the newest when full, and reports them lost', () => {
    const one = size(frame(0, 100));
    const h = new HistoryBuffer<F>({ policy: 'DROP', maxBytes: one * 2 });
    for (let i = 0; i < 5; i++) h.append(frame(i, 100));
    assert.deepEqual(h.all().map((f) => f.n), [0, 1]);
    const r = h.since('m0');
    assert.deepEqual(r.frames.map((f) => f.n), [1]);
    assert.equal(r.buffer_status.policy_applied, 'DROP');
    assert.equal(r.buffer_status.truncated, true);
    assert.equal(r.buffer_status.lost_frame_count, 3);
  });

  it('§7.1.1 NONE keeps nothing: anything published after the id is reported lost', () => {
    const h = new HistoryBuffer<F>({ policy: 'NONE', maxBytes: 10_000 });
    for (let i = 0; i < 4; i++) h.append(frame(i));
    const r = h.since('m1');
    assert.deepEqual(r.frames, []);
    assert.equal(r.buffer_status.truncated, true);
    assert.equal(r.buffer_status.lost_frame_count, 2);
    assert.equal(h.since('m3').buffer_status.truncated, false, 'nothing was missed after the newest frame');
  });

  it('§7.1.1 buffer_high_watermark is the most bytes ever buffered', () => {
    const one = size(frame(0, 50));
    const h = new HistoryBuffer<F>({ policy: 'RING', maxBytes: one * 2 });
    h.append(frame(0, 50));
    h.append(frame(1, 50));
    h.append(frame(2, 50));
    assert.equal(h.since('m2').buffer_status.buffer_high_watermark, one * 2);
  });

  it('§7.1.1 budgets count UTF-8 bytes, not UTF-16 units', () => {
    const f = { message_id: 'm0', text: '한국어' };
    const h = new HistoryBuffer<F>({ policy: 'RING', maxBytes: JSON.stringify(f).length + 2 });
    h.append(f);
    assert.equal(h.size, 0, 'the frame is more bytes than characters and does not fit');
  });

  it('§13.7 an aliased handshake id points at the end of history at the time it was sent', () => {
    const h = new HistoryBuffer<F>({ policy: 'RING', maxBytes: 10_000 });
    h.append(frame(0));
    h.alias('handshake-1');
    h.append(frame(1));
    const r = h.since('handshake-1');
    assert.deepEqual(r.frames.map((f) => f.n), [1]);
    assert.equal(r.buffer_status.truncated, false);
  });

  it('§7.1.1 a frame bigger than the whole budget is lost, never buffered', () => {
    const h = new HistoryBuffer<F>({ policy: 'RING', maxBytes: 50 });
    h.append(frame(0));
    h.append(frame(1, 500));
    assert.deepEqual(h.all().map((f) => f.n), [0]);
    assert.equal(h.since('m0').buffer_status.lost_frame_count, 1);
  });
});
