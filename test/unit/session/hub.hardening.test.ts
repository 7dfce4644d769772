// The hub's catch-alls and refusal rules (issue 12 #1, #7, #11; decisions 160, 161), with a stub
// session whose handler can throw and refuse: one peer's frame never ends the hub or another
// connection; refusals reach every connection but not history; a remote peer refused more than
// 20 times in 10 s is cut off as a policy violation, the editor's own view never is.
import { strict as assert } from 'node:assert';
import { buildFrame } from '../../../src/protocol/build';
import type { Frame } from '../../../src/protocol/frameTypes';
import type { CloseWhy, WireFrame } from '../../../src/session/connection';
import { HistoryBuffer } from '../../../src/session/history';
import { Hub } from '../../../src/session/hub';
import { ManualTimers } from '../../support/manualTimers';
import { ALL_FEATURES, RecordingConnection } from '../../support/recordingConnection';
import { StubSessionSource } from '../../support/stubSessionSource';

const SID = '22222222-2222-4222-8222-222222222222';

/** A session that throws on "boom" and refuses every other prompt (PROMPT_IN_PROGRESS). */
class HostileSource extends StubSessionSource {
  hub!: Hub;
  constructor() {
    super(SID);
  }
  handle(frame: Frame): void {
    if (frame.type !== 'control.prompt.request') return;
    if (frame.payload.prompt_text === 'boom') throw new Error('handler bug');
    this.hub.publish(SID, buildFrame('session.error', { error_code: 'PROMPT_IN_PROGRESS', message: 'busy', fatal: false }, { session_id: SID, parent_id: frame.message_id }) as WireFrame);
  }
}

class ClosingConnection extends RecordingConnection {
  why?: CloseWhy;
  override close(reason: string, why?: CloseWhy): void {
    super.close(reason);
    this.why = why;
  }
}

function make() {
  const hub = new Hub({ timers: new ManualTimers(), handshakeTimeoutMs: 3000 });
  const source = new HostileSource();
  source.hub = hub;
  const history = new HistoryBuffer<WireFrame>({ policy: 'RING', maxBytes: 1_000_000 });
  hub.addSession(source, { origin: 'remote', history });
  const a = new ClosingConnection('a', 'remote', ALL_FEATURES);
  const b = new ClosingConnection('b', 'remote', ALL_FEATURES);
  hub.attach(SID, a);
  hub.attach(SID, b);
  return { hub, history, a, b };
}

const prompt = (text: string) => JSON.stringify(buildFrame('control.prompt.request', { prompt_text: text }, { session_id: SID }));

describe('session/hub: hardening (issue 12)', () => {
  it('§14.2 a handler that throws is answered with a non-fatal INTERNAL_ERROR to the sender; the hub and the other connection go on', () => {
    const { hub, a, b } = make();
    assert.doesNotThrow(() => hub.receive('a', prompt('boom')));
    const err = a.frames.at(-1) as Extract<WireFrame, { type: 'session.error' }>;
    assert.deepEqual([err.type, err.payload.error_code, err.payload.fatal], ['session.error', 'INTERNAL_ERROR', false]);
    assert.equal(a.closed, undefined);
    assert.equal(b.closed, undefined);
    hub.publish(SID, buildFrame('agent.state.changed', { previous_state: 'idle', current_state: 'thinking' }, { session_id: SID }) as WireFrame);
    assert.equal(b.frames.at(-1)?.type, 'agent.state.changed');
  });

  it('§2.4 a refused control and its refusal reach every connection, but history keeps only their ids', () => {
    const { hub, history, a, b } = make();
    const before = history.size;
    hub.receive('a', prompt('one'));
    const relayed = b.frames.filter((f) => f.type === 'control.prompt.request');
    assert.equal(relayed.length, 1, 'B saw the prompt');
    assert.equal(b.frames.at(-1)?.type, 'session.error', 'B saw the refusal');
    assert.equal(a.frames.at(-1)?.type, 'session.error', 'A saw its refusal');
    assert.equal(history.size, before, 'nothing kept');
    assert.equal(history.knows(relayed[0].message_id), true, 'its id is known (a reattach from it loses nothing)');
    assert.equal(history.since(b.frames.at(-1)!.message_id).buffer_status.truncated, false);
  });

  it('a remote connection refused more than 20 times in 10 s is closed as a policy violation; the other is untouched', () => {
    const { hub, a, b } = make();
    for (let i = 0; i < 20; i++) hub.receive('a', prompt(`p${i}`));
    assert.equal(a.closed, undefined, '20 refusals are allowed');
    hub.receive('a', prompt('p20'));
    assert.equal(a.why, 'policy_violation');
    assert.equal(b.closed, undefined);
    assert.deepEqual(hub.connections(SID).map((c) => c.id), ['b']);
  });

  it('the editor’s own (local) view is never cut off, however many of its frames are refused', () => {
    const { hub } = make();
    const view = new ClosingConnection('view', 'local', ALL_FEATURES);
    hub.attach(SID, view);
    for (let i = 0; i < 40; i++) hub.receive('view', prompt(`v${i}`));
    assert.equal(view.closed, undefined);
  });

  it('§2.1 a frame that reuses a server frame’s message_id is dropped with DUPLICATE_MESSAGE_ID naming it, and history keeps that id’s position', () => {
    const { hub, history, a, b } = make();
    const server = buildFrame('agent.state.changed', { previous_state: 'idle', current_state: 'thinking' }, { session_id: SID }) as WireFrame;
    hub.publish(SID, server);
    hub.publish(SID, buildFrame('agent.state.changed', { previous_state: 'thinking', current_state: 'idle' }, { session_id: SID }) as WireFrame);
    const nB = b.frames.length;
    hub.receive('a', JSON.stringify({ ...JSON.parse(prompt('x')), message_id: server.message_id }));
    const err = a.frames.at(-1) as Extract<WireFrame, { type: 'session.error' }>;
    assert.deepEqual([err.payload.error_code, err.parent_id], ['DUPLICATE_MESSAGE_ID', server.message_id]);
    assert.equal(b.frames.length, nB, 'not relayed');
    assert.equal(history.since(server.message_id).frames.length, 1, 'the reattach from it still gets the frame after it');
  });

  it('§14.2 history counts a frame JSON cannot write as lost instead of throwing', () => {
    const history = new HistoryBuffer<WireFrame>({ policy: 'RING', maxBytes: 1_000_000 });
    const f = buildFrame('agent.text.delta', { content_index: 0, text: 'x' }, { session_id: SID }) as WireFrame & { payload: Record<string, unknown> };
    let deep: unknown = [];
    for (let i = 0; i < 20_000; i++) deep = [deep];
    f.payload.extra = deep;
    assert.doesNotThrow(() => history.append(f));
    assert.equal(history.size, 0);
    assert.equal(history.knows(f.message_id), true);
  });
});
