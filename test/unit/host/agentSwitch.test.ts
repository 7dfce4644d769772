// Issue 15 Why 5 (decision 361): picking another agent for the session in front of the user. The
// host decides, the same for the editor's view and any other caller: an empty session becomes one
// of the picked agent; a session with history keeps its agent and the view is offered a new one.
import assert from 'node:assert/strict';
import { buildFrame } from '../../../src/protocol/build';
import { webviewMessage } from '../../../src/protocol/webviewMessages';
import { until } from '../../support/settle';
import { HostSharing } from '../../../src/host/sharing';
import { generateToken } from '../../../src/remote/auth';
import { http } from '../remote/harness';
import { controllerFor, harness, viewRecorder, type Harness } from './harness';

const AGENTS = [
  { id: 'builtin', name: 'Built-in', available: true },
  { id: 'scripted', name: 'Scripted', available: true },
];

describe('host: switching the agent of a session (issue 15 Why 5, decision 361)', () => {
  let h: Harness;
  beforeEach(() => {
    h = harness();
  });
  afterEach(() => h.cleanup());

  it('an empty session is replaced by one of the picked agent; the old one ends; a shared one stays shared', async () => {
    const host = h.makeHost();
    const id = await host.create({ agent: 'builtin' });
    host.hub.share(id);
    assert.equal(host.isEmpty(id), true);
    const r = await host.switchAgent(id, 'scripted');
    assert.equal(r.kind, 'replaced');
    assert.ok(r.kind === 'replaced');
    assert.notEqual(r.session_id, id);
    await until(() => !host.has(id), 'the old session ended');
    const now = host.list().find((s) => s.session_id === r.session_id);
    assert.equal(now?.agent, 'scripted');
    assert.equal(now?.name, 'Scripted agent', 'a default name follows the agent (its display name)');
    assert.equal(now?.shared, true);
    assert.deepEqual(host.list().map((s) => s.session_id), [r.session_id]);
  });

  it('a restored session that had its agent\'s default name still follows the agent on a switch; a given name restored is kept (the trial of 2026-12-05)', async () => {
    const first = h.makeHost();
    const plain = await first.create({ agent: 'builtin' });
    const named = await first.create({ agent: 'builtin', name: 'Auth work' });
    await first.dispose();
    const host = h.makeHost();
    assert.deepEqual((await host.restoreAll()).sort(), [plain, named].sort());
    const r = await host.switchAgent(plain, 'scripted');
    assert.ok(r.kind === 'replaced');
    assert.equal(host.list().find((s) => s.session_id === r.session_id)?.name, 'Scripted agent', 'not "Built-in" for a Scripted chat');
    const k = await host.switchAgent(named, 'scripted');
    assert.ok(k.kind === 'replaced');
    assert.equal(host.list().find((s) => s.session_id === k.session_id)?.name, 'Auth work');
  });

  it('a name the user gave is kept across the switch; picking the agent it already has changes nothing', async () => {
    const host = h.makeHost();
    const id = await host.create({ agent: 'builtin', name: 'Auth work' });
    assert.deepEqual(await host.switchAgent(id, 'builtin'), { kind: 'unchanged', session_id: id });
    const r = await host.switchAgent(id, 'scripted');
    assert.ok(r.kind === 'replaced');
    assert.equal(host.list().find((s) => s.session_id === r.session_id)?.name, 'Auth work');
  });

  it('a session with history keeps its agent (has_history); an unknown agent is an error and changes nothing', async () => {
    const host = h.makeHost();
    const id = await host.create({ agent: 'builtin' });
    const view = { id: 'v', kind: 'local' as const, features: {}, send: () => undefined, close: () => undefined };
    host.hub.attach(id, view);
    host.fromView('v', buildFrame('control.prompt.request', { prompt_text: 'help' }, { session_id: id }));
    await until(() => host.log(id)!.all().some((f) => f.type === 'session.turn.end'), 'the turn ends');
    assert.equal(host.isEmpty(id), false);
    assert.deepEqual(await host.switchAgent(id, 'scripted'), { kind: 'has_history', session_id: id, agent: 'scripted' });
    assert.equal(host.list().find((s) => s.session_id === id)?.agent, 'builtin');
    await assert.rejects(host.switchAgent(id, 'nope'), /not available/);
    assert.equal(host.list().length, 1);
  });

  it('the chat view: picking an agent for its empty session attaches the view to the switched session; for one with history the view gets the offer', async () => {
    const host = h.makeHost({ defaultAgent: 'builtin' });
    const c = controllerFor(host, h, { agents: AGENTS });
    const view = viewRecorder();
    c.setView(view.post);
    await c.receive(webviewMessage('ready', { version: 1 }));
    await until(() => c.activeSessionId !== undefined, 'a session');
    const first = c.activeSessionId!;
    view.clear();
    await c.receive(webviewMessage('agent.pick', { agent_id: 'scripted' }));
    const attached = view.messages.find((m) => m.kind === 'session.attached');
    assert.ok(attached && attached.kind === 'session.attached');
    assert.equal(attached.payload.agent, 'scripted');
    assert.notEqual(c.activeSessionId, first);
    assert.equal(host.list().find((s) => s.session_id === c.activeSessionId)?.agent, 'scripted');
    assert.ok(view.messages.some((m) => m.kind === 'notice' && /now uses Scripted/.test(m.payload.message)));

    // Now with history: a prompt, then another pick.
    const id = c.activeSessionId!;
    await c.receive(webviewMessage('frame', { frame: buildFrame('control.prompt.request', { prompt_text: 'hi' }, { session_id: id }) as unknown as Record<string, unknown> }));
    await until(() => host.isEmpty(id) === false, 'prompted');
    view.clear();
    await c.receive(webviewMessage('agent.pick', { agent_id: 'builtin' }));
    assert.equal(c.activeSessionId, id, 'the view stays on its session');
    assert.deepEqual(view.messages.filter((m) => m.kind === 'agent.offer').map((m) => m.payload), [{ session_id: id, agent_id: 'builtin', agent_name: 'Built-in' }]);
    // Taking the offer: a new session with that agent.
    await c.receive(webviewMessage('session.new', { agent: 'builtin' }));
    assert.equal(host.list().find((s) => s.session_id === c.activeSessionId)?.agent, 'builtin');
    assert.equal(host.list().length, 2);
  });
});

describe('remote: a master picks the agent of a shared session through the host (decision 361)', () => {
  let h: Harness;
  let sharing: HostSharing | undefined;
  const token = generateToken();
  const auth = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
  beforeEach(() => {
    h = harness();
  });
  afterEach(async () => {
    await sharing?.close();
    sharing = undefined;
    await h.cleanup();
  });

  it('GET /v1/agents lists the host\'s agents; POST /v1/sessions/{id}/agent switches an empty shared session (the new one shared), keeps one with history; bad input is refused', async () => {
    const host = h.makeHost({ defaultAgent: 'builtin' });
    sharing = new HostSharing({ host, logger: { debug() {}, info() {}, warn() {}, error() {} }, settings: async () => ({ token }) });
    const server = await sharing.start();
    const id = await host.create({ agent: 'builtin' });
    const local = await host.create({ agent: 'builtin' });
    await sharing.share(id);
    const agents = JSON.parse((await http(`${server.url}/v1/agents`, { headers: auth })).body) as { agents: { id: string; available: boolean }[] };
    assert.deepEqual(agents.agents.map((a) => [a.id, a.available]), [['builtin', true], ['scripted', true]]);
    assert.equal((await http(`${server.url}/v1/agents`)).status, 401, 'a token is needed');

    const post = (sid: string, body: string) => http(`${server.url}/v1/sessions/${sid}/agent`, { method: 'POST', headers: auth, body });
    assert.equal((await post(local, JSON.stringify({ agent: 'scripted' }))).status, 404, 'a local session is not a master\'s to change');
    assert.equal((await post(id, '{"agent": 3}')).status, 400);
    assert.equal((await post(id, 'not json')).status, 400);
    assert.equal((await post(id, JSON.stringify({ agent: 'nope' }))).status, 400);
    const switched = await post(id, JSON.stringify({ agent: 'scripted' }));
    assert.equal(switched.status, 200, switched.body);
    const r = JSON.parse(switched.body) as { kind: string; session_id: string };
    assert.equal(r.kind, 'replaced');
    assert.equal(host.list().find((s) => s.session_id === r.session_id)?.agent, 'scripted');
    const listed = JSON.parse((await http(`${server.url}/v1/sessions`, { headers: auth })).body) as { sessions: { session_id: string }[] };
    assert.deepEqual(listed.sessions.map((s) => s.session_id), [r.session_id], 'the switched session is shared, the old one gone');

    const view = { id: 'v', kind: 'local' as const, features: {}, send: () => undefined, close: () => undefined };
    host.hub.attach(r.session_id, view);
    host.fromView('v', buildFrame('control.prompt.request', { prompt_text: 'hi' }, { session_id: r.session_id }));
    await until(() => !host.isEmpty(r.session_id), 'prompted');
    const kept = JSON.parse((await post(r.session_id, JSON.stringify({ agent: 'builtin' }))).body) as { kind: string; session_id: string };
    assert.deepEqual(kept, { kind: 'has_history', session_id: r.session_id });
  });
});
