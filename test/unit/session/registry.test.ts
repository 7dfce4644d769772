import { strict as assert } from 'node:assert';
import { buildFrame } from '../../../src/protocol/build';
import type { Frame } from '../../../src/protocol/frameTypes';
import { Hub } from '../../../src/session/hub';
import { SessionRegistry } from '../../../src/session/registry';
import { ManualTimers } from '../../support/manualTimers';
import { ALL_FEATURES, RecordingConnection } from '../../support/recordingConnection';
import { ScriptedAdapter } from '../../support/scriptedAdapter';
import { until } from '../../support/settle';

function setup() {
  const timers = new ManualTimers();
  const hub = new Hub({ timers });
  const registry = new SessionRegistry(hub, { timers });
  return { hub, registry, timers };
}

describe('session/registry: create, list, get, rename, delete', () => {
  it('creates a started session and lists it with name, agent, state, origin and sharing', async () => {
    const { registry } = setup();
    const s = await registry.create({ adapter: new ScriptedAdapter(), origin: 'local', name: 'my session' });
    assert.equal(registry.get(s.session_id), s);
    const [info] = registry.list();
    assert.deepEqual(
      { name: info.name, agent: info.agent, state: info.state, origin: info.origin, shared: info.shared, mode: info.mode },
      { name: 'my session', agent: 'scripted', state: 'idle', origin: 'local', shared: false, mode: 'default' },
    );
    assert.deepEqual(registry.list({ sharedOnly: true }), []);
    registry.hub.share(s.session_id);
    assert.equal(registry.list({ sharedOnly: true }).length, 1);
  });

  it('a session whose agent cannot start is not kept, and create rejects', async () => {
    const { registry } = setup();
    await assert.rejects(registry.create({ adapter: new ScriptedAdapter({ startError: 'nope' }), origin: 'remote' }), /nope/);
    assert.deepEqual(registry.list(), []);
  });

  it('§7.6.1 rename reaches every connection as session.renamed', async () => {
    const { registry, hub } = setup();
    const s = await registry.create({ adapter: new ScriptedAdapter(), origin: 'remote', name: 'a' });
    const c = new RecordingConnection('c', 'remote', ALL_FEATURES);
    hub.attach(s.session_id, c);
    assert.equal(registry.rename(s.session_id, 'b', 'edge'), true);
    const renamed = c.frames.at(-1) as Frame & { type: 'session.renamed' };
    assert.deepEqual([renamed.type, renamed.payload.name, renamed.payload.previous_name, renamed.payload.renamed_by], ['session.renamed', 'b', 'a', 'edge']);
    assert.equal(registry.rename('missing', 'x'), false);
  });

  it('§7.5.3-1 §7.5.3-2 §7.7.1-1 delete mid-turn: every connection gets the clean-up frames and session.deleted, and only then is closed', async () => {
    const { registry, hub } = setup();
    const adapter = new ScriptedAdapter({ turns: [{ steps: [{ kind: 'tool', name: 'Bash', id: 'b1', input: {}, untilAborted: true }] }] });
    const s = await registry.create({ adapter, origin: 'remote' });
    const closedAfter: string[] = [];
    const a = new RecordingConnection('a', 'remote', ALL_FEATURES);
    const ui = new RecordingConnection('ui', 'local', ALL_FEATURES);
    for (const c of [a, ui]) {
      const close = c.close.bind(c);
      c.close = (reason) => {
        closedAfter.push(`${c.id}:${c.frames.at(-1)?.type}`);
        close(reason);
      };
      hub.attach(s.session_id, c);
    }
    hub.receive('a', buildFrame('control.prompt.request', { prompt_text: 'run' }, { session_id: s.session_id }));
    await until(() => a.types().includes('tool.invoke.request'), 'the tool');
    assert.equal(await registry.delete(s.session_id, 'master_request', 'master'), true);
    for (const c of [a, ui]) {
      const t = c.types();
      const tail = t.slice(t.lastIndexOf('tool.invoke.request') + 1).filter((x) => x !== 'agent.state.changed');
      assert.deepEqual(tail, ['tool.invoke.result', 'session.turn.end', 'session.usage', 'session.deleted'], c.id);
      assert.ok(c.closed);
    }
    assert.deepEqual(closedAfter, ['a:session.deleted', 'ui:session.deleted']);
    assert.equal(registry.get(s.session_id), undefined);
    assert.equal(hub.hasSession(s.session_id), false);
    assert.equal(await registry.delete(s.session_id), false);
  });

  it('§4.4.1 a fatal agent error removes the session from the registry and closes its connections', async () => {
    const { registry, hub } = setup();
    const adapter = new ScriptedAdapter({ turns: [{ steps: [{ kind: 'error', payload: { error_code: 'DEAD', message: 'x', severity: 'fatal', recoverable: false } }] }] });
    const s = await registry.create({ adapter, origin: 'remote' });
    const c = new RecordingConnection('c', 'remote', ALL_FEATURES);
    hub.attach(s.session_id, c);
    hub.receive('c', buildFrame('control.prompt.request', { prompt_text: 'go' }, { session_id: s.session_id }));
    await until(() => c.closed !== undefined, 'the connection to close');
    assert.equal(c.types().at(-1), 'session.deleted');
    assert.equal(registry.get(s.session_id), undefined);
  });

  it('§2.4 end to end: master A\'s prompt is shown to master B, and both get the whole turn', async () => {
    const { registry, hub } = setup();
    const s = await registry.create({ adapter: new ScriptedAdapter({ turns: [{ steps: [{ kind: 'text', chunks: ['hi'] }] }] }), origin: 'remote' });
    const a = new RecordingConnection('a', 'remote', ALL_FEATURES);
    const b = new RecordingConnection('b', 'remote', ALL_FEATURES);
    hub.attach(s.session_id, a);
    hub.attach(s.session_id, b);
    const prompt = buildFrame('control.prompt.request', { prompt_text: 'hello' }, { session_id: s.session_id });
    hub.receive('a', JSON.stringify(prompt));
    await until(() => b.types().includes('session.usage'), 'the turn');
    await until(() => a.types().includes('session.usage'), 'the turn on A');
    assert.ok(b.frames.some((f) => f.message_id === prompt.message_id));
    assert.ok(!a.frames.some((f) => f.message_id === prompt.message_id));
    const turnA = a.types().slice(a.types().indexOf('session.turn.start'));
    const turnB = b.types().slice(b.types().indexOf('session.turn.start'));
    assert.deepEqual(turnA, turnB);
  });

  it('§13.7 end to end: a master that dropped mid-turn reattaches and gets the rest of the turn from history', async () => {
    const { registry, hub } = setup();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const s = await registry.create({ adapter: new ScriptedAdapter({ turns: [{ steps: [{ kind: 'text', chunks: ['before'] }, { kind: 'waitFor', promise: gate }, { kind: 'text', chunks: ['after'] }] }] }), origin: 'remote' });
    const c1 = new RecordingConnection('c1', 'remote', ALL_FEATURES);
    hub.attach(s.session_id, c1);
    hub.receive('c1', buildFrame('control.prompt.request', { prompt_text: 'go' }, { session_id: s.session_id }));
    await until(() => c1.types().includes('agent.text.done'), 'the first block');
    const last = c1.frames.at(-1) as Frame;
    hub.detach('c1');
    release();
    await until(() => !s.turnActive, 'the turn to end');
    const c2 = new RecordingConnection('c2', 'remote', ALL_FEATURES);
    hub.attach(s.session_id, c2, { last_message_id: last.message_id });
    const history = (c2.frames[1] as Frame & { type: 'session.history' }).payload;
    const types = history.frames.map((f) => f.type as string);
    assert.equal(history.buffer_status.truncated, false);
    assert.ok(types.includes('session.turn.end') && types.includes('session.usage'));
    assert.ok(!types.includes('session.turn.start'), 'nothing the master already had');
    assert.deepEqual(
      history.frames.filter((f) => f.type === 'agent.text.delta').map((f) => (f.payload as { text: string }).text),
      ['after'],
    );
  });
});
