// "Continue this conversation" within limits (decision 641, the review of 2026-12-05 F2, F3, F5,
// F6, F10): the continuing session's opening frame carries a small link, its digest is a frame of
// its own published once (a restore does not append it again); one live session per agent
// conversation, whichever link of a chain is asked; the user's own ended sessions are kept apart
// from the shared ones, and an end a master caused is not kept; an agent that named its
// conversation in its capabilities and died in its first turn is resumed. The real host, journal
// and engine; the harness's scripted agent plays the turns.
import assert from 'node:assert/strict';
import { buildFrame } from '../../../src/protocol/build';
import { continuedFromOf, CONTINUED_FROM_KEY, earlierChatPayloadOf, type EarlierChat } from '../../../src/protocol/continuation';
import { ENDED_KEPT, NoEndedSession } from '../../../src/host/continuation/continuations';
import type { FrameOf } from '../../../src/protocol/frameTypes';
import type { SessionHost } from '../../../src/host/sessionHost';
import type { WireFrame } from '../../../src/session/connection';
import type { TurnScript } from '../../support/scriptedAdapter';
import { until } from '../../support/settle';
import { harness, type Harness } from './harness';

const NAMED: TurnScript = { steps: [{ kind: 'text', chunks: ['Noted.'] }], outcome: { agent_session_id: 'conv-42' } };
const DIES: TurnScript = { steps: [{ kind: 'error', payload: { error_code: 'PROCESS_EXIT', message: 'the agent exited with code 1: 429 Too Many Requests', severity: 'fatal', recoverable: false } }] };

function conn(id: string, kind: 'local' | 'remote' = 'local') {
  const got: WireFrame[] = [];
  return { id, kind, features: {}, got, send: (f: WireFrame) => void got.push(f), close: () => undefined };
}

/** Prompts and waits for its turn to end, or for the session to end (a turn that dies). */
async function say(host: SessionHost, id: string, text: string, connection: string): Promise<void> {
  const ends = () => host.log(id)?.all().filter((f) => f.type === 'session.turn.end').length ?? 0;
  const before = ends();
  host.fromView(connection, buildFrame('control.prompt.request', { prompt_text: text }, { session_id: id }));
  await until(() => !host.has(id) || ends() > before, `the turn "${text.slice(0, 20)}" ends`);
}

/** A session (or the continuation `id`) whose agent answers `answered` prompts, then dies on the next. */
async function endByError(host: SessionHost, o: { id?: string; answered: number; text?: (i: number) => string; shared?: boolean }): Promise<string> {
  const id = o.id ?? (await host.create({ agent: 'scripted' }));
  if (o.shared) host.hub.share(id);
  const c = conn(`view:${id}`);
  host.hub.attach(id, c);
  for (let i = 0; i < o.answered; i++) await say(host, id, o.text?.(i) ?? `prompt ${i}`, c.id);
  await say(host, id, 'and now?', c.id);
  await until(() => !host.has(id), 'the session ended');
  return id;
}

function digests(host: SessionHost, id: string): EarlierChat[] {
  return host.log(id)!.all().flatMap((f) => {
    const d = earlierChatPayloadOf(f);
    return d ? [d] : [];
  });
}

function capabilities(host: SessionHost, id: string): FrameOf<'session.capabilities'>[] {
  return host.log(id)!.all().flatMap((f) => (f.type === 'session.capabilities' ? [f] : []));
}

describe('host: continuing within limits (decision 641)', () => {
  let h: Harness;
  beforeEach(() => {
    h = harness();
  });
  afterEach(() => h.cleanup());

  it('F2 F6: the opening capabilities carry only the small link; the digest is one frame of the session, published once, and a restore announces the link again but never the digest', async () => {
    const long = (i: number) => `${i} `.padEnd(3_990, 'long prompt text ');
    const host = h.makeHost({ scripted: { turns: [...Array<TurnScript>(17).fill(NAMED), DIES] } });
    const ended = await endByError(host, { answered: 17, text: long });
    const c = await host.continueSession(ended);
    const caps = capabilities(host, c.session_id);
    assert.equal(caps.length, 1);
    const bytes = JSON.stringify(caps[0]).length;
    assert.ok(bytes < 2_048, `the opening frame stays small (a master's limit is not known yet, §13.1): ${bytes} bytes`);
    const link = continuedFromOf(caps.map((f) => f.payload));
    assert.equal(link?.session_id, ended);
    assert.deepEqual(Object.keys(caps[0].payload.extensions?.[CONTINUED_FROM_KEY] ?? {}).sort(), ['agent', 'ended_at', 'left_out', 'messages', 'name', 'reason', 'resumed', 'session_id']);
    const [digest, ...more] = digests(host, c.session_id);
    assert.deepEqual(more, [], 'one digest frame');
    assert.equal(digest.continued_from, ended);
    assert.equal(digest.earlier.length, link?.messages);
    assert.equal(digest.left_out, link?.left_out);
    assert.ok(JSON.stringify(digest).length > 60_000, 'the whole digest is in the session, for the hub to fit to each connection');

    let running = host;
    for (let restart = 1; restart <= 2; restart++) {
      await running.dispose();
      running = h.makeHost({ scripted: { turns: [NAMED] } });
      assert.deepEqual(await running.restoreAll(), [c.session_id]);
      assert.equal(digests(running, c.session_id).length, 1, `restart ${restart}: the digest is not appended again`);
      const all = capabilities(running, c.session_id);
      assert.equal(all.length, 1 + restart, 'the restored agent announced itself again');
      const newest = all.at(-1)!;
      assert.ok(JSON.stringify(newest).length < 2_048, 'with the small link only');
      assert.equal(continuedFromOf([newest.payload])?.session_id, ended);
    }
  });

  it('F3: two links of one chain (A continued as B, B ended too) asked at once, and again later, give ONE live session on the agent conversation', async () => {
    const host = h.makeHost({ scripted: { turns: [NAMED, DIES] } });
    const a = await endByError(host, { answered: 1 });
    const b = await host.continueSession(a);
    await endByError(host, { id: b.session_id, answered: 1 });
    assert.deepEqual(h.resumes, [undefined, 'conv-42']);

    const [c, d] = await Promise.all([host.continueSession(a), host.continueSession(b.session_id)]);
    assert.equal(c.session_id, d.session_id, 'one session goes on with conv-42');
    assert.deepEqual([c.created, d.created].sort(), [false, true]);
    assert.equal(host.list().length, 1);
    assert.deepEqual(h.resumes, [undefined, 'conv-42', 'conv-42'], 'one agent process resumed it');
    for (const asked of [a, b.session_id]) {
      const again = await host.continueSession(asked);
      assert.equal(again.session_id, c.session_id);
      assert.equal(again.created, false);
    }
    assert.deepEqual(host.continuations.endedList().length, 0, 'it goes on: nothing offered');
    // Deleted by the person: the conversation is over (its digest holds what they deleted), for
    // every link of the chain (the trial of 2026-12-05; before, a new session took it again).
    await host.delete(c.session_id);
    await assert.rejects(host.continueSession(b.session_id), NoEndedSession);
    await assert.rejects(host.continueSession(a), NoEndedSession);
    assert.deepEqual(host.continuations.endedList(), []);
  });

  it('F5: the user\'s unshared ended sessions are kept apart from the shared ones, and a session a master ended (its fatal session.error, or a session.deleted naming an error) is not kept', async () => {
    const host = h.makeHost({ scripted: { turns: [NAMED, DIES] } });
    const mine = await endByError(host, { answered: 1 });
    assert.equal(host.continuations.continuable(mine), true);

    // A master ends sessions of its own, one way or the other, more than a pool holds.
    for (let i = 0; i <= ENDED_KEPT; i++) {
      const id = await host.create({ agent: 'scripted' });
      host.hub.share(id);
      const m = conn(`master:${i}`, 'remote');
      host.hub.attach(id, m);
      const frame = i % 2 === 0 ? buildFrame('session.error', { error_code: 'MASTER_GAVE_UP', message: 'bye', fatal: true }, { session_id: id }) : buildFrame('session.deleted', { session_id: id, reason: 'error', deleted_by: 'client' }, { session_id: id });
      host.hub.receive(m.id, frame);
      await until(() => !host.has(id), 'the master ended it');
      assert.equal(host.continuations.continuable(id), false, 'an end a master caused was meant to end');
      await assert.rejects(host.continueSession(id), NoEndedSession);
    }
    assert.equal(host.continuations.continuable(mine), true, 'the user\'s record is still there');

    // Shared sessions whose agent died, more than a pool holds: they push out only shared ones.
    const shared: string[] = [];
    for (let i = 0; i <= ENDED_KEPT; i++) shared.push(await endByError(host, { answered: 1, shared: true }));
    assert.equal(host.continuations.continuable(mine), true, 'the user\'s own record is never pushed out by shared ones');
    assert.equal(host.continuations.continuable(shared[0], { sharedOnly: true }), false, 'the oldest shared record went');
    assert.equal(host.continuations.continuable(shared.at(-1)!, { sharedOnly: true }), true);
    assert.ok(host.has((await host.continueSession(mine)).session_id));
  });

  it('F10: an agent that named its conversation in its capabilities (an ACP agent) and died in its first turn is continued with that conversation (resumed)', async () => {
    const host = h.makeHost({ scripted: { turns: [DIES], extensions: { agent_session_id: 'conv-from-capabilities' } } });
    const id = await endByError(host, { answered: 0 });
    const c = await host.continueSession(id);
    assert.equal(c.resumed, true);
    assert.deepEqual(h.resumes, [undefined, 'conv-from-capabilities']);
  });
});
