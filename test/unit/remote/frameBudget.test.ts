// A master of ours announces `x-rawp.frame_budget` (decision 516): over a real socket it gets every
// frame, big ones cut in the middle to the budget, and on a late attach a session.history that keeps
// every frame (only each one is cut); a raw RAWP-DPS master that announced nothing gets them whole.
import { strict as assert } from 'node:assert';
import type { Frame, FrameOf, VendorFrame } from '../../../src/protocol/frameTypes';
import { CUT_MARK_PATTERN } from '../../../src/protocol/cutMark';
import { RAWP_EXTENSION_KEY } from '../../../src/protocol/rawpExtension';
import { rig, TestMaster, waitFor, type Rig } from './harness';

const BUDGET = 64 * 1024;
const EXTENSIONS = { [RAWP_EXTENSION_KEY]: { follow_up_queue: true, notices: true, frame_budget: BUDGET } };
const BIG = 'build started\n' + 'step ok\n'.repeat(40_000) + 'FAILED: 3 tests'; // about 320 KB
const idle = (frames: Array<Frame | VendorFrame>) => frames.some((f) => f.type === 'session.turn.end') && frames.at(-1)?.type === 'agent.state.changed';
const resultsOf = (frames: Array<Frame | VendorFrame>) => frames.filter((f) => f.type === 'tool.invoke.result') as FrameOf<'tool.invoke.result'>[];
const bytes = (f: unknown) => Buffer.byteLength(JSON.stringify(f));

function assertCut(output: unknown): void {
  const text = output as string;
  const m = CUT_MARK_PATTERN.exec(text);
  assert.ok(m, 'the output says where it was cut');
  const head = text.slice(0, m.index);
  const tail = text.slice(m.index + m[0].length);
  assert.ok(head.startsWith('build started') && BIG.startsWith(head) && tail.endsWith('FAILED: 3 tests') && BIG.endsWith(tail));
  assert.equal(head.length + Number(m[1]) + tail.length, BIG.length);
}

describe('remote/frame budget: x-rawp.frame_budget cuts each frame, never a history as a whole (decision 516)', () => {
  let r: Rig | undefined;
  afterEach(async () => {
    await r?.close();
    r = undefined;
  });

  it('§12.2 §7.1.1 a master with a 64 KB budget gets three 320 KB results cut, live and in its history on reattach, with no frame left out; a raw master gets them whole', async () => {
    const step = { kind: 'tool' as const, name: 'Bash', input: { command: 'npm test' }, output: BIG };
    r = await rig({ adapter: { turns: [{ steps: [step, step, step, { kind: 'text', chunks: ['three runs failed'] }] }] } });
    const ours = await new TestMaster(r, { extensions: EXTENSIONS, reconnect: false }).open();
    const raw = await new TestMaster(r).open();
    raw.client.send('control.prompt.request', { prompt_text: 'run the tests three times' });
    await waitFor(() => idle(ours.frames) && idle(raw.frames), 'the turn reached both masters');

    assert.deepEqual(ours.invalid, []);
    for (const f of ours.frames) assert.ok(bytes(f) <= BUDGET, `${f.type}: ${bytes(f)} bytes`);
    assert.equal(resultsOf(ours.frames).length, 3);
    for (const res of resultsOf(ours.frames)) {
      assertCut(res.payload.output);
      assert.equal(res.payload.truncated, true);
    }
    assert.deepEqual(resultsOf(raw.frames).map((f) => f.payload.output), [BIG, BIG, BIG], 'the raw master got them whole');

    // A late master of ours: the history holds the whole turn (about 1 MB, over the budget as a
    // whole), each result cut; nothing is dropped and nothing is counted as lost.
    const late = await new TestMaster(r, { extensions: EXTENSIONS, reconnect: false }).open();
    await waitFor(() => late.frames.some((f) => f.type === 'session.history'), 'the late master got the history');
    const history = late.frames.find((f) => f.type === 'session.history') as FrameOf<'session.history'>;
    const kept = history.payload.frames as unknown as Array<Frame>;
    assert.equal(kept.filter((f) => f.type === 'tool.invoke.result').length, 3, 'every result is in it');
    assert.ok(kept.some((f) => f.type === 'session.turn.end'), 'and the end of the turn');
    for (const f of kept) assert.ok(bytes(f) <= BUDGET, `history ${f.type}: ${bytes(f)} bytes`);
    for (const res of kept.filter((f) => f.type === 'tool.invoke.result') as FrameOf<'tool.invoke.result'>[]) assertCut(res.payload.output);
    assert.equal(history.payload.buffer_status.truncated, false);
    assert.ok(bytes(history) > BUDGET, 'the history as a whole is bigger than the budget (a budget is per frame)');
    for (const m of [ours, raw, late]) m.client.stop();
  });
});
