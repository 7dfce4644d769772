// "Continue this conversation" (decisions 630, 641) in the session host, the same for the editor's
// view and remote masters: a session an error ended stays ended (§18.2, §17.2.2); the host starts a
// NEW session with its agent, given the ended session's own agent conversation id (§18.3), which
// names the ended chat in its own session.capabilities and carries what was said there in its own
// x-rawp.continued_from.earlier frame — never frames of the ended session. The real host, journal and engine; the harness's scripted agent plays the turns
// (the real Codex CLI is continueConversation.codex.e2e.test.ts).
import assert from 'node:assert/strict';
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildFrame } from '../../../src/protocol/build';
import { CONTINUED_FROM_KEY, continuedFromOf, earlierChatPayloadOf, type ContinuedFrom, type EarlierChat } from '../../../src/protocol/continuation';
import { webviewMessage } from '../../../src/protocol/webviewMessages';
import { AgentCannotRun, NoEndedSession } from '../../../src/host/continuation/continuations';
import type { SessionHost } from '../../../src/host/sessionHost';
import type { WireFrame } from '../../../src/session/connection';
import type { TurnScript } from '../../support/scriptedAdapter';
import { until } from '../../support/settle';
import { controllerFor, harness, viewRecorder, type Harness } from './harness';

/** A turn that names the agent's conversation (§18.3) and answers. */
const NAMED: TurnScript = { steps: [{ kind: 'text', chunks: ['The password is kiwi.'] }], outcome: { agent_session_id: 'conv-42' } };
/** A turn whose agent dies: §17.2.2's fatal agent.error ends the session. */
const DIES: TurnScript = { steps: [{ kind: 'error', payload: { error_code: 'PROCESS_EXIT', message: 'the agent exited with code 1: 429 Too Many Requests', severity: 'fatal', recoverable: false } }] };

function view(id = 'v'): { id: string; kind: 'local'; features: Record<string, never>; got: WireFrame[]; send(f: WireFrame): void; close(): void } {
  const got: WireFrame[] = [];
  return { id, kind: 'local', features: {}, got, send: (f) => void got.push(f), close: () => undefined };
}

async function prompt(host: SessionHost, id: string, text: string, conn = 'v'): Promise<void> {
  const turns = () => host.log(id)?.all().filter((f) => f.type === 'session.turn.start').length ?? 0;
  const before = turns();
  host.fromView(conn, buildFrame('control.prompt.request', { prompt_text: text }, { session_id: id }));
  await until(() => turns() > before, `the turn "${text}" starts`);
}

/** A session of the scripted agent (a new one, or `existing`) that answered once (naming its conversation when `named`) and then died. */
async function endedByError(host: SessionHost, named = true, existing?: string): Promise<{ id: string; v: ReturnType<typeof view> }> {
  const id = existing ?? (await host.create({ agent: 'scripted', name: 'Password chat' }));
  const v = view(`v-${id}`);
  host.hub.attach(id, v);
  if (named) {
    await prompt(host, id, 'remember the password kiwi', v.id);
    await until(() => v.got.some((f) => f.type === 'session.turn.end'), 'the first turn ends');
  }
  await prompt(host, id, 'and now?', v.id);
  await until(() => !host.has(id), 'the session ended');
  return { id, v };
}

function continuedFrom(host: SessionHost, id: string): ContinuedFrom | undefined {
  const caps = host.log(id)!.all().flatMap((f) => (f.type === 'session.capabilities' ? [f.payload] : []));
  return continuedFromOf(caps);
}

/** The digest frames (`x-rawp.continued_from.earlier`) in a session's history. */
function digests(host: SessionHost, id: string): EarlierChat[] {
  return host.log(id)!.all().flatMap((f) => {
    const d = earlierChatPayloadOf(f);
    return d ? [d] : [];
  });
}

describe('host: continue the conversation of a session an error ended (decision 630)', () => {
  let h: Harness;
  beforeEach(() => {
    h = harness();
  });
  afterEach(() => h.cleanup());

  it('§18.2 §17.2.2 the ended session stays ended; §18.3 the new one runs the same agent given its conversation id, names the ended chat in its own capabilities, and carries only its own session id', async () => {
    const host = h.makeHost({ scripted: { turns: [NAMED, DIES] } });
    const { id, v } = await endedByError(host);
    const deleted = v.got.find((f) => f.type === 'session.deleted');
    assert.ok(deleted?.type === 'session.deleted' && deleted.payload.reason === 'error', 'the session ended with an error');
    assert.ok(host.continuations.continuable(id));

    const c = await host.continueSession(id);
    assert.notEqual(c.session_id, id, 'a NEW session');
    assert.deepEqual({ ...c, session_id: 'x' }, { session_id: 'x', continued_from: id, resumed: true, created: true });
    assert.equal(host.has(id), false, 'the ended session is not brought back');
    assert.equal(v.got.filter((f) => f.type === 'session.deleted').length, 1);
    assert.deepEqual(h.resumes, [undefined, 'conv-42'], 'the agent is started with its own conversation id (§18.3)');
    const info = host.list().find((s) => s.session_id === c.session_id);
    assert.equal(info?.agent, 'scripted');
    assert.equal(info?.name, 'Password chat', 'a name the user gave goes on');

    const from = continuedFrom(host, c.session_id);
    assert.ok(from, `the new session's capabilities carry ${CONTINUED_FROM_KEY}`);
    assert.equal(from.session_id, id);
    assert.equal(from.name, 'Password chat');
    assert.equal(from.reason, 'error');
    assert.equal(from.resumed, true);
    assert.equal(from.ended_at, deleted.timestamp);
    assert.equal(from.messages, 4, 'the link counts the digest; the digest is a frame of its own');
    assert.deepEqual(digests(host, c.session_id).map((d) => d.continued_from), [id]);
    assert.deepEqual(digests(host, c.session_id)[0].earlier, [
      { role: 'user', text: 'remember the password kiwi' },
      { role: 'agent', text: 'The password is kiwi.' },
      { role: 'user', text: 'and now?' },
      { role: 'error', text: 'the agent exited with code 1: 429 Too Many Requests' },
    ]);
    const v2 = view('v2');
    host.hub.attach(c.session_id, v2);
    await prompt(host, c.session_id, 'what was it?', 'v2');
    await until(() => v2.got.some((f) => f.type === 'session.turn.end'), 'the continued session answers');
    assert.deepEqual([...new Set(host.log(c.session_id)!.all().map((f) => f.session_id))], [c.session_id], 'no frame of the ended session is in the new one');
  });

  it('asking twice (a double click, the editor and a master at once) gives the one continuation; once the person deletes that one, the conversation is over: the ended chat is not offered again (the trial of 2026-12-05)', async () => {
    const host = h.makeHost({ scripted: { turns: [NAMED, DIES] } });
    const { id } = await endedByError(host);
    const [a, b] = await Promise.all([host.continueSession(id), host.continueSession(id)]);
    assert.equal(a.session_id, b.session_id);
    assert.deepEqual([a.created, b.created].sort(), [false, true]);
    const again = await host.continueSession(id);
    assert.equal(again.session_id, a.session_id);
    assert.equal(again.created, false);
    assert.equal(host.list().length, 1);
    await host.delete(a.session_id);
    await assert.rejects(host.continueSession(id), NoEndedSession);
    assert.deepEqual(host.continuations.endedList(), [], 'its digest holds what the person just deleted: not offered, not kept');
    assert.equal(host.list().length, 0);
  });

  it('§18.3 the session ended before the agent named its conversation: the new session still starts, afresh (resumed false, no resume id)', async () => {
    const host = h.makeHost({ scripted: { turns: [DIES] } });
    const { id } = await endedByError(host, false);
    const c = await host.continueSession(id);
    assert.equal(c.resumed, false);
    assert.deepEqual(h.resumes, [undefined, undefined], 'no conversation id to give');
    const from = continuedFrom(host, c.session_id);
    assert.equal(from?.resumed, false);
    assert.equal(digests(host, c.session_id)[0]?.earlier.at(-1)?.role, 'error');
  });

  it('only an error\'s end is continuable: a session the user ended, a running one and an unknown id are refused (NoEndedSession), and nothing starts', async () => {
    const host = h.makeHost();
    const ended = await host.create({ agent: 'scripted' });
    await host.delete(ended);
    const running = await host.create({ agent: 'scripted' });
    for (const id of [ended, running, 'no-such-session']) {
      assert.equal(host.continuations.continuable(id), false);
      await assert.rejects(host.continueSession(id), NoEndedSession);
    }
    assert.equal(host.list().length, 1);
  });

  it('the agent cannot run now (gone, or Restricted Mode): an error naming it, never another agent in its place', async () => {
    let blocked: string | undefined;
    const host = h.makeHost({ scripted: { turns: [NAMED, DIES] } });
    const { id } = await endedByError(host);
    // The harness's host asks its options for agents and blocks each time: change what it answers.
    const options = (host as unknown as { options: { agents: () => { id: string; available: boolean }[]; blocked: () => string | undefined } }).options;
    const agents = options.agents;
    options.agents = () => agents().map((a) => (a.id === 'scripted' ? { ...a, available: false } : a));
    await assert.rejects(host.continueSession(id), /Scripted cannot run now/);
    options.agents = agents;
    options.blocked = () => blocked;
    blocked = 'Restricted Mode: agents cannot run in an untrusted workspace.';
    await assert.rejects(host.continueSession(id), /Restricted Mode/);
    assert.equal(host.list().length, 0, 'nothing started');
    blocked = undefined;
    assert.ok(host.has((await host.continueSession(id)).session_id), 'a failed attempt does not stop a later one');
  });

  it('decision 644: the agent\'s executable went away since detection — detected again, refused with the detection\'s own reason and nothing starts (no dead session offering Continue again); back, it continues', async () => {
    const host = h.makeHost({ scripted: { turns: [NAMED, DIES] } });
    const { id } = await endedByError(host);
    type Options = { agents: () => Array<{ id: string; available: boolean }>; detectAgentsAgain?: () => Promise<void> };
    const options = (host as unknown as { options: Options }).options;
    const agents = options.agents;
    let there = false;
    let listedGone = false;
    let detections = 0;
    const gone = { available: false, unavailable_reason: '`scripted` not found on PATH', unavailable_words: [{ id: 'not_on_path', args: ['scripted'] }] };
    options.agents = () => agents().map((a) => (a.id === 'scripted' ? { ...a, stillThere: () => there, ...(listedGone ? gone : {}) } : a));
    options.detectAgentsAgain = async () => {
      detections++;
      listedGone = !there;
    };
    const refused: unknown = await host.continueSession(id).catch((e: unknown) => e);
    assert.ok(refused instanceof AgentCannotRun, String(refused));
    assert.match(refused.message, /^Scripted cannot run now: `scripted` not found on PATH$/);
    assert.deepEqual(refused.agent.unavailable_words, gone.unavailable_words, 'its phrases go with it (each reader says it in its language)');
    assert.equal(detections, 1, 'detected again once');
    assert.equal(host.list().length, 0, 'nothing started');
    // A host that cannot detect again refuses an agent whose executable is gone all the same.
    listedGone = false;
    delete options.detectAgentsAgain;
    await assert.rejects(host.continueSession(id), (e: unknown) => e instanceof AgentCannotRun && /Scripted cannot run now: not available/.test(e.message));
    assert.equal(host.list().length, 0, 'still nothing started');
    // Put back after a refusal, while the list still says it is gone: detected again, and it runs
    // (the trial of 2026-12-05: every Continue repeated the stale refusal until a reload).
    there = true;
    listedGone = true;
    options.detectAgentsAgain = async () => {
      detections++;
      listedGone = !there;
    };
    const c = await host.continueSession(id);
    assert.ok(host.has(c.session_id));
    assert.equal(detections, 2, 'detected again once more');
    await host.delete(c.session_id);
  });

  it('decision 644: in the chat view the refusal is said with the agent\'s reason in the editor\'s language', async () => {
    const host = h.makeHost({ scripted: { turns: [NAMED, DIES] } });
    const { id } = await endedByError(host);
    const options = (host as unknown as { options: { agents: () => Array<{ id: string }> } }).options;
    const agents = options.agents;
    options.agents = () => agents().map((a) => (a.id === 'scripted' ? { ...a, available: false, unavailable_reason: '`scripted` not found on PATH', unavailable_words: [{ id: 'not_on_path', args: ['scripted'] }] } : a));
    const c = controllerFor(host, h, { language: 'ko' });
    const rec = viewRecorder();
    c.setView(rec.post);
    await c.receive(webviewMessage('session.continue', { session_id: id }));
    const notice = rec.messages.find((m) => m.kind === 'notice');
    assert.ok(notice?.kind === 'notice' && notice.payload.level === 'error', JSON.stringify(rec.messages.map((m) => m.kind)));
    assert.equal(notice.payload.message, 'Scripted cannot run: PATH에서 `scripted`을(를) 찾지 못했습니다.');
    assert.equal(host.list().length, 0);
  });

  it('a shared session\'s continuation is shared; one ended while local is not a remote master\'s (sharedOnly)', async () => {
    const host = h.makeHost({ scripted: { turns: [NAMED, DIES] } });
    const shared = await host.create({ agent: 'scripted' });
    host.hub.share(shared);
    const v = view();
    host.hub.attach(shared, v);
    await prompt(host, shared, 'one');
    await until(() => v.got.some((f) => f.type === 'session.turn.end'), 'answered');
    await prompt(host, shared, 'two');
    await until(() => !host.has(shared), 'ended');
    const c = await host.continueSession(shared, { sharedOnly: true });
    assert.equal(host.hub.isShared(c.session_id), true, 'visible to the masters that saw the ended one');

    const { id: local } = await endedByError(host);
    assert.equal(host.continuations.continuable(local), true);
    assert.equal(host.continuations.continuable(local, { sharedOnly: true }), false, '§2.4 a local session stays invisible to masters, ended too');
    await assert.rejects(host.continueSession(local, { sharedOnly: true }), NoEndedSession);
    // The scripted agent names every conversation conv-42, and one conversation has one live
    // session at most (decision 641): the shared continuation goes first.
    await host.delete(c.session_id);
    const mine = await host.continueSession(local);
    assert.equal(host.hub.isShared(mine.session_id), false, 'the continuation of a local session is local');
  });

  it('§7.8.2 a continued session restored after a reload still names the chat it continues (its agent announces it again)', async () => {
    const host = h.makeHost({ scripted: { turns: [NAMED, DIES] } });
    const { id } = await endedByError(host);
    const c = await host.continueSession(id);
    await host.dispose();
    const host2 = h.makeHost();
    assert.deepEqual(await host2.restoreAll(), [c.session_id]);
    const caps = host2.log(c.session_id)!.all().filter((f) => f.type === 'session.capabilities');
    assert.ok(caps.length >= 2, 'the restored agent announced itself again');
    const last = caps.at(-1);
    assert.ok(last?.type === 'session.capabilities');
    assert.equal(continuedFromOf([last.payload])?.session_id, id, 'the newest announcement names the earlier chat too');
  });

  it('the chat view: an error\'s end stays in front of the user (other sessions or not); `session.continue` attaches the view to the new session, whose capabilities name the ended chat', async () => {
    const host = h.makeHost({ scripted: { turns: [NAMED, DIES] } });
    const other = await host.create({ agent: 'builtin' });
    const c = controllerFor(host, h, { agents: [{ id: 'builtin', name: 'Built-in', available: true }, { id: 'scripted', name: 'Scripted', available: true }] });
    const rec = viewRecorder();
    c.setView(rec.post);
    await c.receive(webviewMessage('session.new', { agent: 'scripted' }));
    const id = c.activeSessionId!;
    assert.notEqual(id, other);
    const send = (text: string) => c.receive(webviewMessage('frame', { frame: buildFrame('control.prompt.request', { prompt_text: text }, { session_id: id }) as unknown as Record<string, unknown> }));
    await send('remember the password kiwi');
    await until(() => rec.frames().some((f) => f.type === 'session.turn.end'), 'answered');
    await send('and now?');
    await until(() => rec.frames().some((f) => f.type === 'session.deleted'), 'the view saw the end');
    await until(() => c.activeSessionId === undefined, 'the session is gone');
    rec.clear();
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(rec.messages.filter((m) => m.kind === 'session.attached').length, 0, 'the view is not moved to another session: the ended chat and its Continue button stay');

    await c.receive(webviewMessage('session.continue', { session_id: id }));
    const attached = rec.messages.find((m) => m.kind === 'session.attached');
    assert.ok(attached?.kind === 'session.attached');
    assert.notEqual(attached.payload.session_id, id);
    assert.equal(c.activeSessionId, attached.payload.session_id);
    const caps = rec.frames().filter((f) => f.type === 'session.capabilities') as Array<{ payload: { extensions?: Record<string, unknown> } }>;
    assert.equal((caps.map((f) => f.payload.extensions?.[CONTINUED_FROM_KEY]).find(Boolean) as ContinuedFrom | undefined)?.session_id, id);

    // A session the user ended is not continued: the view is told why, nothing starts.
    rec.clear();
    await c.receive(webviewMessage('session.continue', { session_id: other }));
    assert.ok(rec.messages.some((m) => m.kind === 'notice' && m.payload.level === 'error' && /no ended session/.test(m.payload.message)));
  });
});

describe('host: ended chats kept across a reload (decision 646)', () => {
  let h: Harness;
  beforeEach(() => {
    h = harness();
  });
  afterEach(() => h.cleanup());

  /** A host of the same state folder after the first was shut down, as a reloaded window makes it. */
  async function reloaded(before: SessionHost): Promise<SessionHost> {
    await before.dispose();
    const host = h.makeHost({ scripted: { turns: [NAMED] } });
    await host.restoreAll();
    return host;
  }

  it('the ended chat is listed again by the next host, continues there with the agent\'s conversation and its digest, and is no longer listed once it goes on (nor after the next reload)', async () => {
    const host = h.makeHost({ scripted: { turns: [NAMED, DIES] } });
    const { id } = await endedByError(host);
    assert.deepEqual(host.continuations.endedList().map((e) => e.session_id), [id]);
    const file = join(h.storeDir, 'ended.json');
    assert.equal(statSync(file).mode & 0o777, 0o600, 'what was said there is the owner\'s alone');

    const host2 = await reloaded(host);
    const listed = host2.continuations.endedList();
    assert.deepEqual(listed.map((e) => [e.session_id, e.name, e.agent]), [[id, 'Password chat', 'scripted']]);
    h.resumes.length = 0;
    const c = await host2.continueSession(id);
    assert.deepEqual(h.resumes, ['conv-42'], '§18.3 the agent is given its own conversation id');
    assert.match(JSON.stringify(digests(host2, c.session_id)), /The password is kiwi\./, 'the digest came through the reload');
    assert.deepEqual(host2.continuations.endedList(), [], 'it goes on: not offered again');

    const host3 = await reloaded(host2);
    assert.ok(host3.has(c.session_id), 'the continuation is restored');
    assert.deepEqual(host3.continuations.endedList(), [], 'its continuation lives on after the reload: still not offered');
  });

  it('a chat that ended before its agent named the conversation: once continued it is not offered again after a reload, and asking again gives that same session (the review of 2026-12-05)', async () => {
    const host = h.makeHost({ scripted: { turns: [DIES] } });
    const { id } = await endedByError(host, false);
    const c = await host.continueSession(id);
    assert.equal(c.resumed, false, 'nothing to resume');
    const host2 = await reloaded(host);
    assert.ok(host2.has(c.session_id), 'the continuation is restored');
    assert.deepEqual(host2.continuations.endedList(), [], 'it goes on: not offered again');
    const again = await host2.continueSession(id);
    assert.deepEqual([again.session_id, again.created], [c.session_id, false], 'the one that goes on, not a second');
    assert.equal(host2.list().length, 1);
  });

  it('a continuation that ended too is the one row of its conversation: the chat it continued is its past (its digest holds that chat first)', async () => {
    const host = h.makeHost({ scripted: { turns: [NAMED, DIES] } });
    const { id: a } = await endedByError(host);
    const b = (await host.continueSession(a)).session_id;
    await endedByError(host, true, b); // the continuation ends too
    assert.deepEqual(host.continuations.endedList().map((e) => e.session_id), [b]);
    assert.equal(host.continuations.continuable(a), true, 'asking for the earlier link is asking for this one');
    const host2 = await reloaded(host);
    assert.deepEqual(host2.continuations.endedList().map((e) => e.session_id), [b], 'the same after a reload');
    const viaA = await host2.continueSession(a);
    assert.equal((await host2.continueSession(b)).session_id, viaA.session_id, 'one session for the chain');
  });

  it('the list leads with the person\'s own ended chats, then the shared ones (masters may have started those), each marked shared; a master\'s list has only the shared (the review of 2026-12-05)', async () => {
    const host = h.makeHost({ scripted: { turns: [NAMED, DIES] } });
    const { id: mine } = await endedByError(host);
    const shared = await host.create({ agent: 'scripted', name: 'A master\'s chat' });
    host.hub.share(shared);
    await endedByError(host, true, shared);
    assert.deepEqual(host.continuations.endedList().map((e) => [e.session_id, e.shared ?? false]), [[mine, false], [shared, true]], 'the person\'s own first, though older');
    assert.deepEqual(host.continuations.endedList({ sharedOnly: true }).map((e) => e.session_id), [shared]);
  });

  it('Dismiss forgets it, for this run and the next; an unreadable file is set aside with a warning and the host starts', async () => {
    const host = h.makeHost({ scripted: { turns: [NAMED, DIES] } });
    const { id } = await endedByError(host);
    assert.equal(host.continuations.forget(id), true);
    assert.equal(host.continuations.forget(id), false, 'once');
    assert.equal(host.continuations.continuable(id), false);
    const host2 = await reloaded(host);
    assert.deepEqual(host2.continuations.endedList(), []);
    await assert.rejects(host2.continueSession(id), NoEndedSession);

    // A hand-edited file: the bad record is left out, the good one kept (the trial of 2026-12-05).
    const file = join(h.storeDir, 'ended.json');
    const good = { link: { session_id: id, name: 'Kept chat', agent: 'scripted', reason: 'error', ended_at: '2026-12-05T10:00:00.000Z' }, digest: { earlier: [], left_out: 0 }, defaultName: false, shared: false };
    await host2.dispose();
    writeFileSync(file, JSON.stringify({ rawp_ended: 1, records: [{ link: 42 }, good] }));
    const host3 = h.makeHost();
    await host3.restoreAll();
    assert.deepEqual(host3.continuations.endedList().map((e) => e.name), ['Kept chat']);
    assert.ok(h.logs.some((l) => l.level === 'warn' && /unreadable and were left out/.test(l.message)), JSON.stringify(h.logs));
    // Not JSON at all: set aside under a name of its own, twice without one replacing the other.
    await host3.dispose();
    for (const n of [1, 2]) {
      writeFileSync(file, `not json ${n}`);
      const again = h.makeHost();
      await again.restoreAll();
      assert.deepEqual(again.continuations.endedList(), []);
      await again.dispose();
      await new Promise((r) => setTimeout(r, 5));
    }
    const aside = readdirSync(h.storeDir).filter((f) => f.startsWith('ended.json.corrupt-'));
    assert.equal(aside.length, 2, `both kept for a human to look at: ${aside.join(', ')}`);
    assert.ok(h.logs.some((l) => l.level === 'warn' && /ended sessions file is unreadable and was set aside/.test(l.message)), JSON.stringify(h.logs));
  });

  it('the chat view: after a reload the session list carries the ended chat; session.continue starts its continuation, session.dismissEnded removes it', async () => {
    const host = h.makeHost({ scripted: { turns: [NAMED, DIES, DIES] } });
    const first = await endedByError(host);
    const second = await endedByError(host);
    const host2 = await reloaded(host);
    const c = controllerFor(host2, h, { agents: [{ id: 'builtin', name: 'Built-in', available: true }, { id: 'scripted', name: 'Scripted', available: true }] });
    const rec = viewRecorder();
    c.setView(rec.post);
    await c.receive(webviewMessage('ready', { version: 1 }));
    const lists = () => rec.messages.flatMap((m) => (m.kind === 'session.list' ? [m.payload] : []));
    await until(() => (lists().at(-1)?.ended?.length ?? 0) === 2, 'the list names both ended chats');
    assert.deepEqual(lists().at(-1)!.ended!.map((e) => e.session_id), [second.id, first.id], 'newest first');
    await c.receive(webviewMessage('session.dismissEnded', { session_id: first.id }));
    assert.deepEqual(lists().at(-1)!.ended!.map((e) => e.session_id), [second.id]);
    await c.receive(webviewMessage('session.continue', { session_id: second.id }));
    const attached = rec.messages.filter((m) => m.kind === 'session.attached').at(-1);
    assert.ok(attached?.kind === 'session.attached' && attached.payload.session_id !== second.id);
    await until(() => lists().at(-1)?.ended === undefined, 'nothing left to offer');
  });
});
