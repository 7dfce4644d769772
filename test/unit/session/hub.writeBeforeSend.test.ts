// The hub records a frame in the session's history (whose sink is the host's journal) before any
// connection gets it: a peer can never have seen a frame that a crash then loses (decision 121).
import { strict as assert } from 'node:assert';
import { buildFrame } from '../../../src/protocol/build';
import type { Frame } from '../../../src/protocol/frameTypes';
import type { Connection, WireFrame } from '../../../src/session/connection';
import { HistoryBuffer } from '../../../src/session/history';
import { Hub } from '../../../src/session/hub';
import { ALL_FEATURES } from '../../support/recordingConnection';
import { StubSessionSource } from '../../support/stubSessionSource';

const SID = '22222222-2222-4222-8222-222222222222';

/** A session whose engine answers every prompt synchronously with frames of its own. */
class EchoSource extends StubSessionSource {
  publish: (f: WireFrame) => void = () => undefined;
  constructor() {
    super(SID, { features: {} });
  }
  handle(frame: Frame): void {
    if (frame.type !== 'control.prompt.request') return;
    const turn_id = 't-1';
    this.publish(buildFrame('session.turn.start', { turn_id, turn_index: 0 }, { session_id: SID, turn_id }));
    this.publish(buildFrame('agent.text.delta', { content_index: 0, text: 'hi' }, { session_id: SID, turn_id }));
  }
}

describe('session/hub: history before delivery (decision 121)', () => {
  it('§13.7 every frame a connection receives — a relayed control and what its handling published included — is already in the history sink', () => {
    const hub = new Hub();
    const source = new EchoSource();
    const history = new HistoryBuffer<WireFrame>();
    const sunk = new Set<string>();
    history.setSink({ appended: (f) => sunk.add(f.message_id), aliased: (id) => sunk.add(id) });
    hub.addSession(source, { origin: 'remote', history });
    source.publish = (f) => hub.publish(SID, f);
    const late: string[] = [];
    const got: WireFrame[] = [];
    const watcher: Connection = {
      id: 'watcher',
      kind: 'remote',
      features: ALL_FEATURES,
      send: (f) => {
        got.push(f);
        if (!sunk.has(f.message_id)) late.push(f.type);
      },
      close: () => undefined,
    };
    const sender: Connection = { ...watcher, id: 'sender', send: () => undefined };
    hub.attach(SID, watcher, { history: false });
    hub.attach(SID, sender, { history: false });
    const prompt = buildFrame('control.prompt.request', { prompt_text: 'go' }, { session_id: SID });
    hub.receive('sender', JSON.stringify(prompt));
    assert.deepEqual(
      got.slice(-3).map((f) => f.type),
      ['control.prompt.request', 'session.turn.start', 'agent.text.delta'],
      'the watcher got the control, then what handling it published, in order',
    );
    assert.deepEqual(late, [], 'no frame reached a connection before its history record');
  });
});
