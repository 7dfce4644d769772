// The hub's side of prompt admission (src/session/admission.ts): every control.prompt.request of
// any connection passes the port; its verdict decides what the engine and the other connections
// see, and frames sent after a prompt wait until it is admitted (arrival order kept).
import { strict as assert } from 'node:assert';
import { buildFrame } from '../../../src/protocol/build';
import type { Frame, FrameType, PayloadOf } from '../../../src/protocol/frameTypes';
import { OUR_MASTER_EXTENSIONS } from '../../../src/protocol/rawpExtension';
import type { AdmissionVerdict, PromptAdmission } from '../../../src/session/admission';
import { HistoryBuffer } from '../../../src/session/history';
import { Hub, type HubSessionSource } from '../../../src/session/hub';
import type { WireFrame } from '../../../src/session/connection';
import { ManualTimers } from '../../support/manualTimers';
import { ALL_FEATURES, RecordingConnection } from '../../support/recordingConnection';
import { settle } from '../../support/settle';

const SID = '33333333-3333-4333-8333-333333333333';

function make(verdict: (text: string) => AdmissionVerdict) {
  const handled: Frame[] = [];
  const asked: { text: string; followUps: boolean }[] = [];
  const admission: PromptAdmission = {
    async admit(frame, from) {
      asked.push({ text: frame.payload.prompt_text, followUps: from.followUps });
      await settle(3); // an admission takes a few turns of the loop (the pipeline is async)
      return verdict(frame.payload.prompt_text);
    },
  };
  const source: HubSessionSource = {
    session_id: SID,
    capabilities: () => ({ protocol_version: 'rawp-dps-1.0', supported_namespaces: ['control'], features: {} }),
    catalog: () => ({ tools: [] }),
    commands: () => ({ commands: [] }),
    agentState: () => 'idle',
    handle: (f) => void handled.push(f),
    admission,
  };
  const hub = new Hub({ timers: new ManualTimers() });
  hub.addSession(source, { origin: 'remote', history: new HistoryBuffer<WireFrame>({ policy: 'RING', maxBytes: 1_000_000 }) });
  return { hub, handled, asked };
}

const frame = <T extends FrameType>(type: T, payload: PayloadOf<T>) => buildFrame(type, payload, { session_id: SID }) as Frame;

describe('session/hub: prompt admission (issue 11 item 2)', () => {
  it('§2.4 the admitted (expanded) prompt is what the engine and the others get, under the sender\'s id; a cancel sent right after waits for it', async () => {
    const { hub, handled } = make((text) => ({ kind: 'run', payload: { prompt_text: `expanded ${text}`, input_type: 'slash_command' } }));
    const a = new RecordingConnection('a', 'remote', ALL_FEATURES);
    const b = new RecordingConnection('b', 'remote', ALL_FEATURES);
    hub.attach(SID, a);
    hub.attach(SID, b);
    const p = frame('control.prompt.request', { prompt_text: '/x' });
    hub.receive('a', JSON.stringify(p));
    hub.receive('a', JSON.stringify(frame('control.prompt.cancel', { target_turn_id: 't', reason: 'user_cancelled' })));
    assert.equal(handled.length, 0, 'nothing is handled while the prompt is being admitted');
    await settle(10);
    assert.deepEqual(handled.map((f) => f.type), ['control.prompt.request', 'control.prompt.cancel'], 'arrival order kept');
    const got = handled[0] as Frame & { type: 'control.prompt.request' };
    assert.equal(got.message_id, p.message_id);
    assert.equal(got.payload.prompt_text, 'expanded /x');
    const relayed = b.ofType('control.prompt.request');
    assert.equal(relayed.length, 1);
    assert.equal(relayed[0].payload.prompt_text, 'expanded /x');
    assert.equal(a.ofType('control.prompt.request').length, 0, 'never echoed to the sender');
  });

  it('decision 101: the port learns who asked to queue; a held prompt is not relayed, and only a master with notices gets the notice', async () => {
    const { hub, handled, asked } = make(() => ({ kind: 'held', notice: { level: 'info', message: 'queued' } }));
    const raw = new RecordingConnection('raw', 'remote', ALL_FEATURES);
    const ours = Object.assign(new RecordingConnection('ours', 'remote', ALL_FEATURES), { extensions: OUR_MASTER_EXTENSIONS });
    hub.attach(SID, raw);
    hub.attach(SID, ours);
    hub.receive('raw', JSON.stringify(frame('control.prompt.request', { prompt_text: 'one' })));
    hub.receive('ours', JSON.stringify(frame('control.prompt.request', { prompt_text: 'two' })));
    await settle(10);
    assert.deepEqual(asked, [{ text: 'one', followUps: false }, { text: 'two', followUps: true }]);
    assert.equal(handled.length, 0);
    assert.equal(raw.frames.filter((f) => f.type.startsWith('x-')).length, 0, 'no vendor frame to a raw master');
    assert.deepEqual(ours.frames.filter((f) => f.type === 'x-rawp.notice').map((f) => (f.payload as { message: string }).message), ['queued']);
    assert.equal(raw.ofType('control.prompt.request').length + ours.ofType('control.prompt.request').length, 0, 'a held prompt is not relayed');
  });

  it('§2.2 a refused prompt: a raw master gets a non-fatal session.error with parent_id; a master of ours a notice of level error with the same code', async () => {
    const { hub, handled } = make(() => ({ kind: 'refused', error_code: 'COMMAND_FAILED', message: '/mode: No mode given' }));
    const raw = new RecordingConnection('raw', 'remote', ALL_FEATURES);
    const ours = Object.assign(new RecordingConnection('ours', 'remote', ALL_FEATURES), { extensions: OUR_MASTER_EXTENSIONS });
    hub.attach(SID, raw);
    hub.attach(SID, ours);
    const p = frame('control.prompt.request', { prompt_text: '/mode' });
    hub.receive('raw', JSON.stringify(p));
    hub.receive('ours', JSON.stringify(frame('control.prompt.request', { prompt_text: '/mode' })));
    await settle(10);
    assert.equal(handled.length, 0);
    const [e] = raw.ofType('session.error');
    assert.deepEqual([e?.payload.error_code, e?.payload.fatal, e?.parent_id], ['COMMAND_FAILED', false, p.message_id]);
    assert.deepEqual(ours.frames.filter((f) => f.type === 'x-rawp.notice').map((f) => f.payload), [{ level: 'error', message: '/mode: No mode given', error_code: 'COMMAND_FAILED' }]);
  });

  it('slash-commands §5 a host command that is a control frame (/compact) is handled as one, and the prompt itself is not relayed', async () => {
    const { hub, handled } = make(() => ({ kind: 'control', frame: frame('control.session.compact', {}) }));
    const a = new RecordingConnection('a', 'remote', ALL_FEATURES);
    const b = new RecordingConnection('b', 'remote', ALL_FEATURES);
    hub.attach(SID, a);
    hub.attach(SID, b);
    hub.receive('a', JSON.stringify(frame('control.prompt.request', { prompt_text: '/compact' })));
    await settle(10);
    assert.deepEqual(handled.map((f) => f.type), ['control.session.compact']);
    assert.deepEqual(b.frames.filter((f) => f.type.startsWith('control.')).map((f) => f.type), ['control.session.compact']);
  });
});
