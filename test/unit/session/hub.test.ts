import { strict as assert } from 'node:assert';
import { buildFrame } from '../../../src/protocol/build';
import type { Frame, FrameType, PayloadOf } from '../../../src/protocol/frameTypes';
import { HistoryBuffer } from '../../../src/session/history';
import { Hub } from '../../../src/session/hub';
import type { WireFrame } from '../../../src/session/connection';
import { recordingLogger, type LogLine } from '../../support/engineHarness';
import { ManualTimers } from '../../support/manualTimers';
import { ALL_FEATURES, RecordingConnection } from '../../support/recordingConnection';
import { StubSessionSource } from '../../support/stubSessionSource';

const SID = '11111111-1111-4111-8111-111111111111';

class StubSource extends StubSessionSource {
  readonly handled: { frame: Frame; from: string }[] = [];
  constructor() {
    super(SID, { features: { thinking_stream: true } }, [{ name: 'Read', description: 'r' }]);
  }
  handle(frame: Frame, from: { connection_id: string }): void {
    this.handled.push({ frame, from: from.connection_id });
  }
}

function make(origin: 'local' | 'remote' = 'remote') {
  const timers = new ManualTimers();
  const logs: LogLine[] = [];
  const hub = new Hub({ timers, logger: recordingLogger(logs), handshakeTimeoutMs: 3000 });
  const source = new StubSource();
  const history = new HistoryBuffer<WireFrame>({ policy: 'RING', maxBytes: 1_000_000 });
  hub.addSession(source, { origin, history });
  return { hub, source, timers, logs, history };
}

function frame<T extends FrameType>(type: T, payload: PayloadOf<T>): WireFrame {
  return buildFrame(type, payload, { session_id: SID }) as unknown as WireFrame;
}

const text = (t: string) => frame('agent.text.delta', { content_index: 0, text: t });
const thinking = () => frame('agent.thinking.delta', { content_index: 0, text: 'hm' });

describe('session/hub: fan-out and relay (§2.4)', () => {
  it('§2.4 every frame of the session goes to every attached connection, local and remote', () => {
    const { hub } = make('remote');
    const a = new RecordingConnection('a', 'remote', ALL_FEATURES);
    const b = new RecordingConnection('b', 'local', ALL_FEATURES);
    hub.attach(SID, a);
    hub.attach(SID, b);
    const f = text('hi');
    hub.publish(SID, f);
    assert.equal(a.frames.at(-1), f);
    assert.equal(b.frames.at(-1), f);
  });

  it('§2.4-3 §2.4-6 a connection\'s control frame is relayed to the others, never echoed to its sender, and handled once', () => {
    const { hub, source } = make('remote');
    const a = new RecordingConnection('a', 'remote', ALL_FEATURES);
    const b = new RecordingConnection('b', 'remote', ALL_FEATURES);
    hub.attach(SID, a);
    hub.attach(SID, b);
    const nA = a.frames.length;
    const prompt = frame('control.prompt.request', { prompt_text: 'from A' });
    hub.receive('a', JSON.stringify(prompt));
    assert.equal(a.frames.length, nA, 'no echo to the sender');
    assert.equal(b.frames.at(-1)?.message_id, prompt.message_id, 'master B sees master A\'s prompt');
    assert.equal(source.handled.length, 1);
    assert.equal(source.handled[0].from, 'a');
  });

  it('§2.4 a control frame seen again (same message_id) is neither handled nor relayed twice; its sender gets a non-fatal DUPLICATE_MESSAGE_ID naming it', () => {
    const { hub, source } = make('remote');
    const a = new RecordingConnection('a', 'remote', ALL_FEATURES);
    const b = new RecordingConnection('b', 'remote', ALL_FEATURES);
    hub.attach(SID, a);
    hub.attach(SID, b);
    const prompt = JSON.stringify(frame('control.prompt.request', { prompt_text: 'once' }));
    hub.receive('a', prompt);
    const nA = a.frames.length;
    const nB = b.frames.length;
    hub.receive('b', prompt); // e.g. B relayed it back
    hub.receive('a', prompt); // or A resent it
    assert.equal(source.handled.length, 1);
    const id = (JSON.parse(prompt) as { message_id: string }).message_id;
    for (const [c, n] of [[a, nA], [b, nB]] as const) {
      const extra = c.frames.slice(n);
      assert.equal(extra.length, 1, `${c.id} gets exactly its own refusal`);
      assert.equal(extra[0].type, 'session.error');
      assert.equal(extra[0].parent_id, id);
      assert.deepEqual([(extra[0].payload as { error_code: string }).error_code, (extra[0].payload as { fatal: boolean }).fatal], ['DUPLICATE_MESSAGE_ID', false]);
    }
  });

  it('§2.4-5 a local session never reaches remote connections until shared; unshare disconnects them', () => {
    const { hub } = make('local');
    const ui = new RecordingConnection('ui', 'local', ALL_FEATURES);
    const master = new RecordingConnection('m', 'remote', ALL_FEATURES);
    assert.equal(hub.attach(SID, ui).ok, true);
    const refused = hub.attach(SID, master);
    assert.equal(refused.ok, false);
    assert.equal(!refused.ok && refused.code, 'SESSION_NOT_SHARED');
    assert.equal(master.frames.length, 0);
    hub.publish(SID, text('private'));
    assert.equal(master.frames.length, 0);
    hub.share(SID);
    assert.equal(hub.attach(SID, master).ok, true);
    hub.publish(SID, text('shared'));
    assert.equal((master.frames.at(-1) as Frame & { type: 'agent.text.delta' }).payload.text, 'shared');
    hub.unshare(SID);
    assert.ok(master.closed, 'the remote connection was closed');
    assert.equal(ui.closed, undefined, 'the local UI stays');
    hub.publish(SID, text('after'));
    assert.notEqual((master.frames.at(-1) as Frame & { type: 'agent.text.delta' }).payload.text, 'after');
    assert.equal(hub.attach(SID, new RecordingConnection('m2', 'remote', ALL_FEATURES)).ok, false);
  });

  it('§12.2.1 frames are filtered per connection by the features it announced', () => {
    const { hub } = make('remote');
    const rich = new RecordingConnection('rich', 'remote', ALL_FEATURES);
    const plain = new RecordingConnection('plain', 'remote', {});
    hub.attach(SID, rich);
    hub.attach(SID, plain);
    hub.publish(SID, thinking());
    hub.publish(SID, frame('tool.invoke.stream', { invocation_id: 'i', tool_name: 'Bash', stream_type: 'stdout', chunk: 'x', sequence: 0 }));
    hub.publish(SID, text('both'));
    assert.deepEqual(rich.types().slice(-3), ['agent.thinking.delta', 'tool.invoke.stream', 'agent.text.delta']);
    assert.ok(!plain.types().includes('agent.thinking.delta'));
    assert.ok(!plain.types().includes('tool.invoke.stream'));
    assert.equal(plain.types().at(-1), 'agent.text.delta');
  });

  it('§12.2.1 the features a connection announces in its own session.capabilities are the ones used', () => {
    const { hub } = make('remote');
    const a = new RecordingConnection('a', 'remote'); // announces nothing up front
    hub.attach(SID, a);
    hub.receive('a', JSON.stringify(frame('session.capabilities', { protocol_version: 'rawp-dps-1.0', supported_namespaces: ['control'], features: { thinking_stream: true } })));
    hub.publish(SID, thinking());
    assert.equal(a.types().at(-1), 'agent.thinking.delta');
    assert.deepEqual(hub.connections(SID)[0].features, { thinking_stream: true });
  });
});

describe('session/hub: opening sequences (§13.1, §13.7)', () => {
  it('§13.1-2 §13.1-3 attach: our session.capabilities first, then (after the peer\'s) tool.catalog.publish, agent.commands.publish, agent.state.changed', () => {
    const { hub } = make('remote');
    const a = new RecordingConnection('a', 'remote');
    hub.attach(SID, a);
    assert.deepEqual(a.types(), ['session.capabilities'], 'waits for the peer\'s capabilities');
    hub.publish(SID, text('meanwhile'));
    assert.deepEqual(a.types(), ['session.capabilities'], 'live frames wait too');
    hub.receive('a', JSON.stringify(frame('session.capabilities', { protocol_version: 'rawp-dps-1.0', supported_namespaces: ['control'], features: {} })));
    assert.deepEqual(a.types(), ['session.capabilities', 'tool.catalog.publish', 'agent.commands.publish', 'agent.state.changed', 'agent.text.delta']);
    assert.equal((a.frames[3] as Frame & { type: 'agent.state.changed' }).payload.current_state, 'idle');
  });

  it('§13.1 a peer that never announces capabilities is served after the handshake timeout, with no optional features', () => {
    const { hub, timers } = make('remote');
    const a = new RecordingConnection('a', 'remote');
    hub.attach(SID, a);
    hub.publish(SID, thinking());
    timers.advance(3000);
    assert.deepEqual(a.types(), ['session.capabilities', 'tool.catalog.publish', 'agent.commands.publish', 'agent.state.changed']);
  });

  it('§13.7 reattach: capabilities → (peer\'s) → session.history with exactly the missed frames → catalog → commands', () => {
    const { hub } = make('remote');
    const first = new RecordingConnection('c1', 'remote', ALL_FEATURES);
    hub.attach(SID, first);
    const seen = text('seen');
    hub.publish(SID, seen);
    hub.detach('c1'); // network drop
    const missed1 = text('missed 1');
    const missed2 = text('missed 2');
    hub.publish(SID, missed1);
    hub.publish(SID, missed2);
    const again = new RecordingConnection('c2', 'remote');
    hub.attach(SID, again, { last_message_id: seen.message_id });
    hub.publish(SID, text('during handshake'));
    hub.receive('c2', JSON.stringify(frame('session.capabilities', { protocol_version: 'rawp-dps-1.0', supported_namespaces: ['control'], features: ALL_FEATURES })));
    assert.deepEqual(again.types(), ['session.capabilities', 'session.history', 'tool.catalog.publish', 'agent.commands.publish']);
    const history = (again.frames[1] as Frame & { type: 'session.history' }).payload;
    assert.deepEqual(history.frames.map((f) => (f as { payload: { text: string } }).payload.text), ['missed 1', 'missed 2', 'during handshake']);
    assert.equal(history.buffer_status.truncated, false);
    assert.equal(history.last_message_id, history.frames.at(-1)?.message_id);
    hub.publish(SID, text('live'));
    assert.equal(again.types().at(-1), 'agent.text.delta', 'live frames follow, without repeating the history');
    assert.equal(again.frames.filter((f) => f.type === 'agent.text.delta').length, 1);
  });

  it('§13.7 a reattach whose last frame was a handshake frame is not reported truncated', () => {
    const { hub } = make('remote');
    const c1 = new RecordingConnection('c1', 'remote', ALL_FEATURES);
    hub.attach(SID, c1);
    const lastSeen = c1.frames.at(-1) as WireFrame; // agent.state.changed of the opening sequence
    hub.detach('c1');
    hub.publish(SID, text('after'));
    const c2 = new RecordingConnection('c2', 'remote', ALL_FEATURES);
    hub.attach(SID, c2, { last_message_id: lastSeen.message_id });
    const history = (c2.frames[1] as Frame & { type: 'session.history' }).payload;
    assert.equal(history.buffer_status.truncated, false);
    assert.equal(history.frames.length, 1);
  });

  it('§13.7 a peer cut off right after its opening frames, before the frames queued during its handshake, gets those queued frames on reattach', () => {
    const { hub } = make('remote');
    const c1 = new RecordingConnection('c1', 'remote');
    hub.attach(SID, c1);
    hub.publish(SID, text('queued while c1 attached'));
    // c1 announces its features; its opening frames go out, then the queued frame. The transport
    // dies after the opening frames: the peer's last frame is agent.state.changed.
    hub.receive('c1', JSON.stringify(frame('session.capabilities', { protocol_version: 'rawp-dps-1.0', supported_namespaces: ['control'], features: ALL_FEATURES })));
    const lastSeen = c1.frames.find((f) => f.type === 'agent.state.changed') as WireFrame;
    hub.detach('c1');
    const c2 = new RecordingConnection('c2', 'remote', ALL_FEATURES);
    hub.attach(SID, c2, { last_message_id: lastSeen.message_id });
    const history = (c2.frames[1] as Frame & { type: 'session.history' }).payload;
    assert.equal(history.buffer_status.truncated, false);
    assert.deepEqual(history.frames.map((f) => (f as { payload: { text: string } }).payload.text), ['queued while c1 attached']);
  });

  it('§7.1.1 reattach with an id the history no longer has: truncated true', () => {
    const { hub } = make('remote');
    hub.publish(SID, text('x'));
    const c = new RecordingConnection('c', 'remote', ALL_FEATURES);
    hub.attach(SID, c, { last_message_id: '99999999-9999-4999-8999-999999999999' });
    const history = (c.frames[1] as Frame & { type: 'session.history' }).payload;
    assert.equal(history.buffer_status.truncated, true);
    assert.equal(history.buffer_status.policy_applied, 'RING');
  });

  it('§12.2.1 the history a connection gets is filtered by its features too', () => {
    const { hub } = make('remote');
    const c1 = new RecordingConnection('c1', 'remote', ALL_FEATURES);
    hub.attach(SID, c1);
    const last = c1.frames.at(-1) as WireFrame;
    hub.detach('c1');
    hub.publish(SID, thinking());
    hub.publish(SID, text('t'));
    const c2 = new RecordingConnection('c2', 'remote', {});
    hub.attach(SID, c2, { last_message_id: last.message_id });
    const history = (c2.frames[1] as Frame & { type: 'session.history' }).payload;
    assert.deepEqual(history.frames.map((f) => f.type), ['agent.text.delta']);
  });
});

describe('session/hub: bad input (§2.2)', () => {
  it('§2.2 a malformed frame gets a non-fatal session.error on that connection only', () => {
    const { hub } = make('remote');
    const a = new RecordingConnection('a', 'remote', ALL_FEATURES);
    const b = new RecordingConnection('b', 'remote', ALL_FEATURES);
    hub.attach(SID, a);
    hub.attach(SID, b);
    const nB = b.frames.length;
    hub.receive('a', '{not json');
    const err = a.frames.at(-1) as Frame & { type: 'session.error' };
    assert.equal(err.type, 'session.error');
    assert.equal(err.payload.error_code, 'MALFORMED_JSON');
    assert.equal(err.payload.fatal, false);
    assert.equal(b.frames.length, nB);
  });

  it('§2.1-2 §2.2-4 an unsupported envelope version is answered with session.error; an invalid payload names the field', () => {
    const { hub, source } = make('remote');
    const a = new RecordingConnection('a', 'remote', ALL_FEATURES);
    hub.attach(SID, a);
    hub.receive('a', { ...frame('control.prompt.request', { prompt_text: 'x' }), v: 2 });
    assert.equal((a.frames.at(-1) as Frame & { type: 'session.error' }).payload.error_code, 'UNSUPPORTED_VERSION');
    hub.receive('a', { ...frame('control.prompt.request', { prompt_text: 'x' }), payload: { prompt_text: 5 } });
    const err = (a.frames.at(-1) as Frame & { type: 'session.error' }).payload;
    assert.equal(err.error_code, 'INVALID_PAYLOAD');
    assert.match(err.message, /prompt_text/);
    assert.equal(source.handled.length, 0);
  });

  it('§2.2 an unknown frame type is ignored and logged, no error, no relay', () => {
    const { hub, source, logs } = make('remote');
    const a = new RecordingConnection('a', 'remote', ALL_FEATURES);
    const b = new RecordingConnection('b', 'remote', ALL_FEATURES);
    hub.attach(SID, a);
    hub.attach(SID, b);
    const nA = a.frames.length;
    const nB = b.frames.length;
    hub.receive('a', { ...frame('control.prompt.request', { prompt_text: 'x' }), type: 'control.future.thing' });
    assert.equal(a.frames.length, nA);
    assert.equal(b.frames.length, nB);
    assert.equal(source.handled.length, 0);
    assert.ok(logs.some((l) => /control\.future\.thing/.test(l.message)));
  });

  it('a frame for another session, or a client-only frame from a master, is refused with session.error', () => {
    const { hub, source } = make('remote');
    const a = new RecordingConnection('a', 'remote', ALL_FEATURES);
    hub.attach(SID, a);
    hub.receive('a', { ...frame('control.prompt.request', { prompt_text: 'x' }), session_id: '22222222-2222-4222-8222-222222222222' });
    assert.equal((a.frames.at(-1) as Frame & { type: 'session.error' }).payload.error_code, 'SESSION_MISMATCH');
    hub.receive('a', text('a master pretending to be the agent'));
    assert.equal((a.frames.at(-1) as Frame & { type: 'session.error' }).payload.error_code, 'UNEXPECTED_FRAME');
    assert.equal(source.handled.length, 0);
  });

  it('a connection whose send fails is dropped; the others keep receiving', () => {
    const { hub } = make('remote');
    const bad = new RecordingConnection('bad', 'remote', ALL_FEATURES);
    const good = new RecordingConnection('good', 'remote', ALL_FEATURES);
    hub.attach(SID, bad);
    hub.attach(SID, good);
    bad.failSends = true;
    hub.publish(SID, text('1'));
    hub.publish(SID, text('2'));
    assert.ok(bad.closed);
    assert.deepEqual(hub.connections(SID).map((c) => c.id), ['good']);
    assert.equal(good.frames.filter((f) => f.type === 'agent.text.delta').length, 2);
  });

  it('removeSession closes every connection of the session', () => {
    const { hub } = make('remote');
    const a = new RecordingConnection('a', 'remote', ALL_FEATURES);
    const b = new RecordingConnection('b', 'local', ALL_FEATURES);
    hub.attach(SID, a);
    hub.attach(SID, b);
    hub.removeSession(SID, 'deleted');
    assert.equal(a.closed, 'deleted');
    assert.equal(b.closed, 'deleted');
    assert.equal(hub.hasSession(SID), false);
  });
});
