// A master that announces a small max_frame_size (§12.2) over a real socket whose own limit is that
// size: it gets every frame, big ones cut in the middle and marked (decision 516), and is never cut
// off (decision 515).
import { strict as assert } from 'node:assert';
import type { Frame, FrameOf, VendorFrame } from '../../../src/protocol/frameTypes';
import { CLIP_MARK } from '../../../src/session/frameFit';
import { CUT_MARK_PATTERN } from '../../../src/protocol/cutMark';
import { rig, TestMaster, waitFor, type Rig } from './harness';

const LIMIT = 64 * 1024;
const BIG = '한국어 출력 line\n'.repeat(20_000) + 'exit status 3'; // about 440 KB of UTF-8
const idle = (frames: Array<Frame | VendorFrame>) => frames.some((f) => f.type === 'session.turn.end') && frames.at(-1)?.type === 'agent.state.changed';
const resultOf = (frames: Array<Frame | VendorFrame>) => frames.find((f) => f.type === 'tool.invoke.result') as FrameOf<'tool.invoke.result'> | undefined;

describe('remote/peer frame limit: §12.2 max_frame_size of a master is honoured (decision 515)', () => {
  let r: Rig | undefined;
  afterEach(async () => {
    await r?.close();
    r = undefined;
  });

  it('§12.2 a master that takes 64 KB gets the 440 KB tool result cut in the middle and marked and stays attached; a master without a limit gets it whole; a later attach gets a history that fits', async () => {
    r = await rig({ adapter: { turns: [{ steps: [{ kind: 'tool', name: 'Read', input: { file_path: 'big.txt' }, output: BIG }, { kind: 'text', chunks: ['done'] }] }] } });
    const small = await new TestMaster(r, { maxFrameSize: LIMIT, reconnect: false }).open();
    const whole = await new TestMaster(r).open();
    whole.client.send('control.prompt.request', { prompt_text: 'read it' });
    await waitFor(() => idle(small.frames) && idle(whole.frames), 'the turn reached both masters');

    assert.deepEqual(small.closes, [], 'the small master was never cut off');
    assert.deepEqual(small.invalid, []);
    for (const f of small.frames) assert.ok(Buffer.byteLength(JSON.stringify(f)) <= LIMIT, `${f.type} is over the limit`);
    const clipped = resultOf(small.frames)!;
    const cut = CUT_MARK_PATTERN.exec(clipped.payload.output as string)!;
    assert.ok(cut, 'the output holds the mark where it was cut');
    const [head, tail] = [(clipped.payload.output as string).slice(0, cut.index), (clipped.payload.output as string).slice(cut.index + cut[0].length)];
    assert.ok(BIG.startsWith(head) && BIG.endsWith(tail) && tail.endsWith('exit status 3'), 'its start and its end are kept');
    assert.equal(head.length + Number(cut[1]) + tail.length, BIG.length);
    assert.equal(clipped.payload.truncated, true);
    assert.equal((clipped.metadata?.x_rawp_clipped as { max_frame_size: number }).max_frame_size, LIMIT);
    assert.equal(resultOf(whole.frames)!.payload.output, BIG, 'the other master got the whole output');
    assert.equal(resultOf(whole.frames)!.message_id, clipped.message_id, 'the same frame, by id');
    assert.ok(small.transcript.turns[0]?.usage !== undefined, "the small master's transcript has the whole turn");

    // A master that attaches now gets the transcript so far as session.history, within its limit.
    const late = await new TestMaster(r, { maxFrameSize: LIMIT, reconnect: false }).open();
    await waitFor(() => late.frames.some((f) => f.type === 'session.history'), 'the late master got the history');
    const history = late.frames.find((f) => f.type === 'session.history') as FrameOf<'session.history'>;
    assert.ok(Buffer.byteLength(JSON.stringify(history)) <= LIMIT);
    assert.ok(history.payload.frames.some((f) => f.type === 'tool.invoke.result'), 'the clipped result is in it');
    assert.deepEqual(late.closes, []);
    for (const m of [small, whole, late]) m.client.stop();
  });
  it('§12.2 §5.3.1 a result no string clipping can fit (10,000 short strings) still answers its request, its list replaced by the mark; the master stays attached', async () => {
    const items = Array.from({ length: 10_000 }, (_, i) => `entry ${i}`);
    r = await rig({ adapter: { turns: [{ steps: [{ kind: 'tool', name: 'Grep', input: { pattern: 'x' }, output: items }, { kind: 'text', chunks: ['after'] }] }] } });
    const small = await new TestMaster(r, { maxFrameSize: LIMIT, reconnect: false }).open();
    small.client.send('control.prompt.request', { prompt_text: 'search' });
    await waitFor(() => idle(small.frames), 'the turn reached the master');
    assert.deepEqual(small.closes, []);
    const res = resultOf(small.frames)!;
    assert.equal(res.payload.output, CLIP_MARK);
    assert.equal(res.payload.truncated, true);
    assert.ok(small.frames.some((f) => f.type === 'agent.text.delta'), 'the frames after it still came');
    small.client.stop();
  });
  it('§12.2 a frame that cannot be fitted at all (a catalog of 5,000 tools) is replaced by a session.error naming it; the master stays attached', async () => {
    const tools = Array.from({ length: 5_000 }, (_, i) => ({ name: `tool${i}`, description: 'd', category: 'search' as const }));
    r = await rig({ adapter: { tools } });
    const small = await new TestMaster(r, { maxFrameSize: LIMIT, reconnect: false }).open();
    await waitFor(() => small.frames.some((f) => f.type === 'session.error'), 'the note arrived');
    const note = small.frames.find((f) => f.type === 'session.error') as FrameOf<'session.error'>;
    assert.equal(note.payload.error_code, 'FRAME_TOO_LARGE');
    assert.match(note.payload.message, /tool\.catalog\.publish.*max_frame_size of 65536 bytes/);
    assert.equal(note.payload.fatal, false);
    assert.ok(!small.frames.some((f) => f.type === 'tool.catalog.publish'));
    assert.deepEqual(small.closes, []);
    small.client.stop();
  });
});
