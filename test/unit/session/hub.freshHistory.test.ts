// Issue 11 item 3: a fresh attach (no last_message_id) to a session with history gets, after the
// §13.1 opening, a `session.history` with everything the ring still holds (honest buffer_status),
// then live frames; a reattach with last_message_id keeps §13.7.
import { strict as assert } from 'node:assert';
import { buildFrame } from '../../../src/protocol/build';
import type { Frame, FrameType, PayloadOf } from '../../../src/protocol/frameTypes';
import { HistoryBuffer } from '../../../src/session/history';
import { Hub, type HubSessionSource } from '../../../src/session/hub';
import type { WireFrame } from '../../../src/session/connection';
import { ManualTimers } from '../../support/manualTimers';
import { ALL_FEATURES, RecordingConnection } from '../../support/recordingConnection';

const SID = '22222222-2222-4222-8222-222222222222';

const source: HubSessionSource = {
  session_id: SID,
  capabilities: () => ({ protocol_version: 'rawp-dps-1.0', supported_namespaces: ['agent', 'tool', 'session', 'control'], features: { thinking_stream: true } }),
  catalog: () => ({ tools: [] }),
  commands: () => ({ commands: [] }),
  agentState: () => 'idle',
  handle: () => undefined,
};

function make(maxBytes = 1_000_000) {
  const hub = new Hub({ timers: new ManualTimers(), handshakeTimeoutMs: 3000 });
  const history = new HistoryBuffer<WireFrame>({ policy: 'RING', maxBytes });
  hub.addSession(source, { origin: 'remote', history });
  return { hub, history };
}

function frame<T extends FrameType>(type: T, payload: PayloadOf<T>): WireFrame {
  return buildFrame(type, payload, { session_id: SID }) as WireFrame;
}
const text = (t: string) => frame('agent.text.delta', { content_index: 0, text: t });
const textsOf = (frames: readonly Record<string, unknown>[]) => frames.map((f) => (f as { payload: { text: string } }).payload.text);
const historyOf = (c: RecordingConnection) => (c.ofType('session.history')[0] as Frame & { type: 'session.history' }).payload;
const caps = () => JSON.stringify(frame('session.capabilities', { protocol_version: 'rawp-dps-1.0', supported_namespaces: ['control'], features: ALL_FEATURES }));

describe('session/hub: history on a fresh attach (issue 11, §13.1 then §7.1.1)', () => {
  it('§13.1 a fresh attach gets the opening sequence with session.history of every earlier frame before agent.state.changed (the ready signal comes last), then live frames', () => {
    const { hub } = make();
    for (const t of ['one', 'two', 'three']) hub.publish(SID, text(t));
    const c = new RecordingConnection('fresh', 'remote');
    hub.attach(SID, c);
    hub.publish(SID, text('during handshake'));
    hub.receive('fresh', caps());
    assert.deepEqual(c.types(), ['session.capabilities', 'tool.catalog.publish', 'agent.commands.publish', 'session.history', 'agent.state.changed', 'agent.text.delta']);
    const h = historyOf(c);
    assert.deepEqual(textsOf(h.frames), ['one', 'two', 'three'], 'exactly what was published before the attach');
    assert.deepEqual(h.buffer_status, { policy_applied: 'RING', truncated: false, lost_frame_count: 0, buffer_high_watermark: h.buffer_status.buffer_high_watermark });
    assert.equal(h.last_message_id, h.frames.at(-1)?.message_id);
    assert.equal((c.frames.at(-1) as Frame & { type: 'agent.text.delta' }).payload.text, 'during handshake', 'the queued frame follows live, once');
    hub.publish(SID, text('live'));
    assert.equal(c.frames.filter((f) => f.type === 'agent.text.delta').length, 2, 'live frames are not repeated');
  });

  it('§7.1.1 buffer_status is honest: frames the ring evicted are counted and truncated is true', () => {
    const one = Buffer.byteLength(JSON.stringify(text('x'.repeat(100))));
    const { hub } = make(one * 2 + 10);
    for (let i = 0; i < 5; i++) hub.publish(SID, text(`${i}`.repeat(100)));
    const c = new RecordingConnection('fresh', 'remote', ALL_FEATURES);
    hub.attach(SID, c);
    const h = historyOf(c);
    assert.equal(h.frames.length, 2);
    assert.equal(h.buffer_status.truncated, true);
    assert.equal(h.buffer_status.lost_frame_count, 3);
    assert.deepEqual(textsOf(h.frames), ['3'.repeat(100), '4'.repeat(100)], 'the newest frames are the ones kept');
  });

  it('§13.1 nothing published yet: no session.history; `history: false` (the host recorder) gets none either', () => {
    const { hub } = make();
    const empty = new RecordingConnection('empty', 'remote', ALL_FEATURES);
    hub.attach(SID, empty);
    assert.equal(empty.ofType('session.history').length, 0);
    hub.publish(SID, text('now there is history'));
    const recorder = new RecordingConnection('recorder', 'local', ALL_FEATURES);
    hub.attach(SID, recorder, { history: false });
    assert.deepEqual(recorder.types(), ['session.capabilities', 'tool.catalog.publish', 'agent.commands.publish', 'agent.state.changed']);
  });

  it('§12.2.1 the fresh history is filtered by the features the peer announced', () => {
    const { hub } = make();
    hub.publish(SID, frame('agent.thinking.delta', { content_index: 0, text: 'hm' }));
    hub.publish(SID, text('visible'));
    const c = new RecordingConnection('plain', 'remote', {});
    hub.attach(SID, c);
    assert.deepEqual(historyOf(c).frames.map((f) => f.type), ['agent.text.delta']);
  });

  it('§13.7 a master that saw the fresh history and dropped reattaches with its last id and gets exactly what it missed', () => {
    const { hub } = make();
    hub.publish(SID, text('before'));
    const c1 = new RecordingConnection('c1', 'remote', ALL_FEATURES);
    hub.attach(SID, c1);
    const last = c1.ofType('session.history')[0] as WireFrame;
    assert.equal(c1.frames.at(-1)?.type, 'agent.state.changed', 'the state ends the opening, after the history');
    hub.detach('c1');
    hub.publish(SID, text('missed'));
    const c2 = new RecordingConnection('c2', 'remote', ALL_FEATURES);
    hub.attach(SID, c2, { last_message_id: last.message_id });
    assert.deepEqual(c2.types(), ['session.capabilities', 'session.history', 'tool.catalog.publish', 'agent.commands.publish']);
    const h = historyOf(c2);
    assert.deepEqual(textsOf(h.frames), ['missed']);
    assert.equal(h.buffer_status.truncated, false);
  });
});
