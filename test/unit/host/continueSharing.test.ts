// POST /v1/sessions/{id}/continue (decisions 630, 641) with real sockets: the host's sharing server (the
// editor's "Share session" and `rawp serve` alike), a real WebSocket master (the terminal master's
// client) in the shared session when an error ends it, then the continuation asked for over HTTP.
// The policy is the host's, as for the editor's own view; every stream a master records here must
// pass `rawp validate` (test/support/streamCheck.ts), so the link travels in valid frames only.
import assert from 'node:assert/strict';
import { HostSharing } from '../../../src/host/sharing';
import { buildFrame } from '../../../src/protocol/build';
import { CONTINUED_FROM_KEY, ContinuedFrom, EARLIER_CHAT_TYPE, earlierChatsIn } from '../../../src/protocol/continuation';
import { CUT_MARK_PATTERN } from '../../../src/protocol/cutMark';
import { generateToken } from '../../../src/remote/auth';
import { ContinueSessionAnswer } from '../../../src/remote/httpApi';
import { RemoteServer } from '../../../src/remote/server';
import type { SessionHost } from '../../../src/host/sessionHost';
import type { TurnScript } from '../../support/scriptedAdapter';
import { http, TestMaster, waitFor } from '../remote/harness';
import { harness, type Harness } from './harness';

const NAMED: TurnScript = { steps: [{ kind: 'text', chunks: ['Noted: kiwi.'] }], outcome: { agent_session_id: 'conv-7' } };
const DIES: TurnScript = { steps: [{ kind: 'error', payload: { error_code: 'PROCESS_EXIT', message: 'the agent exited with code 1', severity: 'fatal', recoverable: false } }] };
const quiet = { debug() {}, info() {}, warn() {}, error() {} };

describe('remote: §18.2 a master continues an ended shared session through the host (POST /v1/sessions/{id}/continue, decision 630)', () => {
  let h: Harness;
  let host: SessionHost;
  let sharing: HostSharing | undefined;
  const masters: TestMaster[] = [];
  const token = generateToken();
  const auth = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
  beforeEach(() => {
    h = harness();
    host = h.makeHost({ scripted: { turns: [NAMED, DIES] } });
  });
  afterEach(async () => {
    for (const m of masters.splice(0)) m.client.stop();
    await sharing?.close();
    sharing = undefined;
    await h.cleanup();
  });

  it('§18.2 §18.3 the master sees the session end with an error; POST …/continue answers 201 with a new shared session the master attaches to, whose capabilities name the ended one; asking again gives it again (200)', async () => {
    sharing = new HostSharing({ host, logger: quiet, settings: async () => ({ token }) });
    const server = await sharing.start();
    const created = await http(`${server.url}/v1/sessions`, { method: 'POST', headers: auth, body: JSON.stringify({ agent: 'scripted', name: 'Shared chat' }) });
    const { session_id: id } = JSON.parse(created.body) as { session_id: string };
    const master = await new TestMaster({ server, token, session: { session_id: id } }).open();
    masters.push(master);
    const turnEnds = () => master.frames.filter((f) => f.type === 'session.turn.end').length;
    master.client.send('control.prompt.request', { prompt_text: 'remember kiwi' });
    await waitFor(() => turnEnds() === 1, 'the first turn ends');
    master.client.send('control.prompt.request', { prompt_text: 'next' });
    await waitFor(() => master.frames.some((f) => f.type === 'session.deleted'), 'the master saw the session end');
    const deleted = master.frames.find((f) => f.type === 'session.deleted');
    assert.ok(deleted?.type === 'session.deleted' && deleted.payload.reason === 'error', 'session.deleted (reason error) reached the master (§7.7.1)');
    await waitFor(() => !host.has(id), 'the host let it go');
    // Decision 646: a master learns what it can continue from the list (after a restart too).
    const before = JSON.parse((await http(`${server.url}/v1/sessions`, { headers: auth })).body) as { ended?: { session_id: string; name: string; shared?: boolean }[] };
    assert.deepEqual(before.ended?.map((e) => [e.session_id, e.name, e.shared]), [[id, 'Shared chat', true]]);

    const post = (sid: string, body?: string) => http(`${server.url}/v1/sessions/${sid}/continue`, { method: 'POST', headers: auth, ...(body !== undefined ? { body } : {}) });
    const first = await post(id);
    assert.equal(first.status, 201, first.body);
    const answer = ContinueSessionAnswer.parse(JSON.parse(first.body));
    assert.equal(answer.continued_from, id);
    assert.equal(answer.resumed, true);
    assert.notEqual(answer.session_id, id);
    assert.deepEqual(h.resumes, [undefined, 'conv-7'], 'the agent goes on with its own conversation (§18.3)');
    const listed = JSON.parse((await http(`${server.url}/v1/sessions`, { headers: auth })).body) as { sessions: { session_id: string; name: string }[]; ended?: unknown[] };
    assert.deepEqual(listed.sessions.map((s) => [s.session_id, s.name]), [[answer.session_id, 'Shared chat']], 'the continuation is shared; the ended session is not listed');
    assert.deepEqual(listed.ended, [], 'nor offered: it goes on');

    const again = await post(id, '{}');
    assert.equal(again.status, 200, 'the one continuation, given again');
    assert.equal(ContinueSessionAnswer.parse(JSON.parse(again.body)).session_id, answer.session_id);

    const next = await new TestMaster({ server, token, session: { session_id: answer.session_id } }).open();
    masters.push(next);
    await waitFor(() => next.frames.some((f) => f.type === 'agent.state.changed'), 'the opening');
    const caps = next.frames.find((f) => f.type === 'session.capabilities');
    assert.ok(caps?.type === 'session.capabilities');
    const from = ContinuedFrom.parse(caps.payload.extensions?.[CONTINUED_FROM_KEY]);
    assert.equal(from.session_id, id);
    // The digest: its own frame, in the session's history (decision 641).
    const [digest] = earlierChatsIn(next.frames, answer.session_id);
    assert.equal(digest?.continued_from, id);
    assert.equal(digest.earlier.length, from.messages);
    assert.deepEqual(digest.earlier.slice(0, 2), [{ role: 'user', text: 'remember kiwi' }, { role: 'agent', text: 'Noted: kiwi.' }]);
    assert.ok(next.frames.every((f) => f.session_id === answer.session_id), 'every frame the master gets is the new session\'s own');
  });

  it('F4: on a host at its session cap (--max-sessions 1), asking again for a continuation gives 200 with the same session — at once and afterwards — not 503', async () => {
    sharing = new HostSharing({ host, logger: quiet, settings: async () => ({ token, maxSessions: 1 }) });
    const server = await sharing.start();
    const id = await host.create({ agent: 'scripted' });
    host.hub.share(id);
    const v = { id: 'v', kind: 'local' as const, features: {}, send: () => undefined, close: () => undefined };
    host.hub.attach(id, v);
    host.fromView('v', buildFrame('control.prompt.request', { prompt_text: 'one' }, { session_id: id }));
    await waitFor(() => host.log(id)?.all().some((f) => f.type === 'session.turn.end') === true, 'answered');
    host.fromView('v', buildFrame('control.prompt.request', { prompt_text: 'two' }, { session_id: id }));
    await waitFor(() => !host.has(id), 'ended by the agent');

    const post = () => http(`${server.url}/v1/sessions/${id}/continue`, { method: 'POST', headers: auth });
    const both = await Promise.all([post(), post()]);
    assert.deepEqual(both.map((r) => r.status).sort(), [200, 201], both.map((r) => r.body).join(' | '));
    const [a, b] = both.map((r) => ContinueSessionAnswer.parse(JSON.parse(r.body)).session_id);
    assert.equal(a, b, 'the same session');
    const again = await post();
    assert.equal(again.status, 200, again.body);
    assert.equal(ContinueSessionAnswer.parse(JSON.parse(again.body)).session_id, a);
    assert.equal(host.list().length, 1);
    // A creation is still refused at the cap.
    assert.equal((await http(`${server.url}/v1/sessions`, { method: 'POST', headers: auth, body: '{}' })).status, 503);
  });

  it('F2: a master that takes at most 16 KiB attaches to a continued session with a 64 KiB digest: the opening is small, the digest comes fitted to its limit, and no frame is over it', async () => {
    const LIMIT = 16 * 1024;
    host = h.makeHost({ scripted: { turns: [...Array<TurnScript>(17).fill(NAMED), DIES] } });
    sharing = new HostSharing({ host, logger: quiet, settings: async () => ({ token }) });
    const server = await sharing.start();
    const id = await host.create({ agent: 'scripted' });
    host.hub.share(id);
    const v = { id: 'v', kind: 'local' as const, features: {}, send: () => undefined, close: () => undefined };
    host.hub.attach(id, v);
    const ends = () => host.log(id)?.all().filter((f) => f.type === 'session.turn.end').length ?? 0;
    for (let i = 0; i < 17; i++) {
      host.fromView('v', buildFrame('control.prompt.request', { prompt_text: `${i} `.padEnd(3_990, 'a long prompt ') }, { session_id: id }));
      await waitFor(() => ends() === i + 1, `turn ${i}`);
    }
    host.fromView('v', buildFrame('control.prompt.request', { prompt_text: 'and now?' }, { session_id: id }));
    await waitFor(() => !host.has(id), 'ended by the agent');
    const posted = await http(`${server.url}/v1/sessions/${id}/continue`, { method: 'POST', headers: auth });
    assert.equal(posted.status, 201, posted.body);
    const { session_id } = ContinueSessionAnswer.parse(JSON.parse(posted.body));

    const small = await new TestMaster({ server, token, session: { session_id } }, { maxFrameSize: LIMIT }).open();
    masters.push(small);
    await waitFor(() => small.frames.some((f) => f.type === 'agent.state.changed'), 'the opening ended');
    assert.deepEqual(small.closes, [], 'never closed for a frame over its limit (1009), so no reconnect loop');
    assert.equal(small.connects, 1);
    for (const f of small.frames) assert.ok(Buffer.byteLength(JSON.stringify(f)) <= LIMIT, `${f.type} is within the announced limit`);
    const caps = small.frames.find((f) => f.type === 'session.capabilities');
    assert.ok(caps?.type === 'session.capabilities' && Buffer.byteLength(JSON.stringify(caps)) < 2_048, 'the opening frame carries the small link only');
    assert.equal(ContinuedFrom.parse(caps.payload.extensions?.[CONTINUED_FROM_KEY]).session_id, id);
    const history = small.frames.find((f) => f.type === 'session.history');
    assert.ok(history?.type === 'session.history');
    const digest = (history.payload.frames as { type: string; payload: { earlier: { text: string }[] }; metadata?: { x_rawp_clipped?: unknown } }[]).find((f) => f.type === EARLIER_CHAT_TYPE);
    assert.ok(digest, 'the digest reached the small master, fitted as any big frame is');
    assert.ok(digest.metadata?.x_rawp_clipped, 'and says it was cut');
    assert.ok(digest.payload.earlier.some((m) => CUT_MARK_PATTERN.test(m.text)), 'its texts cut in the middle, the mark saying how much');

    // A master without a limit gets it whole.
    const big = await new TestMaster({ server, token, session: { session_id } }).open();
    masters.push(big);
    await waitFor(() => big.frames.some((f) => f.type === 'agent.state.changed'), 'the opening ended');
    const [whole] = earlierChatsIn(big.frames, session_id);
    assert.equal(whole?.earlier.length, ContinuedFrom.parse(caps.payload.extensions?.[CONTINUED_FROM_KEY]).messages);
    assert.ok(!whole.earlier.some((m) => CUT_MARK_PATTERN.test(m.text)));
  });

  it('F3: an ended shared session whose agent conversation already goes on in the user\'s unshared session is not continued a second time, and that session is not given to the master: 409', async () => {
    sharing = new HostSharing({ host, logger: quiet, settings: async () => ({ token }) });
    const server = await sharing.start();
    const ended = async (shared: boolean): Promise<string> => {
      const id = await host.create({ agent: 'scripted' });
      if (shared) host.hub.share(id);
      const v = { id: `v:${id}`, kind: 'local' as const, features: {}, send: () => undefined, close: () => undefined };
      host.hub.attach(id, v);
      host.fromView(v.id, buildFrame('control.prompt.request', { prompt_text: 'one' }, { session_id: id }));
      await waitFor(() => host.log(id)?.all().some((f) => f.type === 'session.turn.end') === true, 'answered');
      host.fromView(v.id, buildFrame('control.prompt.request', { prompt_text: 'two' }, { session_id: id }));
      await waitFor(() => !host.has(id), 'ended by the agent');
      return id;
    };
    // The scripted agent names every conversation conv-7: the user's continuation goes on with it.
    const mine = await host.continueSession(await ended(false));
    const shared = await ended(true);
    const before = host.list().length;
    const r = await http(`${server.url}/v1/sessions/${shared}/continue`, { method: 'POST', headers: auth });
    assert.equal(r.status, 409, r.body);
    assert.doesNotMatch(r.body, new RegExp(mine.session_id), 'the user\'s session is not named');
    assert.equal(host.list().length, before, 'no second agent process on conv-7');
    assert.deepEqual(h.resumes.filter((x) => x === 'conv-7').length, 1);
  });

  it('refusals: no token 401; a running session 409; an unknown id, or an ended session that was never shared (§2.4), 404; a body other than {} 400; a host without it 501 — and nothing starts', async () => {
    sharing = new HostSharing({ host, logger: quiet, settings: async () => ({ token }) });
    const server = await sharing.start();
    const running = JSON.parse((await http(`${server.url}/v1/sessions`, { method: 'POST', headers: auth, body: '{}' })).body) as { session_id: string };
    // An editor session that an error ended while it was not shared.
    const local = await host.create({ agent: 'scripted' });
    const v = { id: 'v', kind: 'local' as const, features: {}, send: () => undefined, close: () => undefined };
    host.hub.attach(local, v);
    host.fromView('v', buildFrame('control.prompt.request', { prompt_text: 'one' }, { session_id: local }));
    await waitFor(() => host.log(local)?.all().some((f) => f.type === 'session.turn.end') === true, 'answered');
    host.fromView('v', buildFrame('control.prompt.request', { prompt_text: 'two' }, { session_id: local }));
    await waitFor(() => !host.has(local), 'ended');
    assert.equal(host.continuations.continuable(local), true, 'the editor may continue it');

    const post = (sid: string, headers: Record<string, string> = auth, body?: string) => http(`${server.url}/v1/sessions/${sid}/continue`, { method: 'POST', headers, ...(body !== undefined ? { body } : {}) });
    const before = host.list().length;
    assert.equal((await post(local, {})).status, 401);
    assert.equal((await post(running.session_id)).status, 409);
    assert.equal((await post('no-such-session')).status, 404);
    const hidden = await post(local);
    assert.equal(hidden.status, 404, 'an unshared session stays invisible to masters, ended too');
    assert.doesNotMatch(hidden.body, /scripted|one|two/, 'and nothing of it is told');
    assert.equal((await post(local, auth, '{"agent":"builtin"}')).status, 400);
    assert.equal((await http(`${server.url}/v1/sessions/${local}/continue`, { headers: auth })).status, 405);
    assert.equal(host.list().length, before, 'nothing started');
    assert.equal(host.continuations.continuable(local), true, 'still the editor\'s to continue');

    // A server given no continuation (another embedder of src/remote): 501, as for its other optional routes.
    const bare = await RemoteServer.start({ registry: host.registry, token });
    try {
      assert.equal((await http(`${bare.url}/v1/sessions/${local}/continue`, { method: 'POST', headers: auth })).status, 501);
    } finally {
      await bare.close();
    }
  });
});
