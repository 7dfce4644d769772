// §16.1 file searches belong to the master that sent them (decision 557): a real hub and engine,
// masters as recording connections, and a search port the test answers by hand. Also the live
// path's answers to what the old, unused FileSearchResponder's tests checked (failures, unknown
// cancels, answers out of order).
import { strict as assert } from 'node:assert';
import { buildFrame } from '../../../src/protocol/build';
import type { FrameOf, FrameType, PayloadOf } from '../../../src/protocol/frameTypes';
import type { WireFrame } from '../../../src/session/connection';
import type { AgentSession } from '../../../src/session/engine';
import type { FileSearch } from '../../../src/session/fileSearches';
import { Hub } from '../../../src/session/hub';
import { SessionRegistry } from '../../../src/session/registry';
import { ALL_FEATURES, RecordingConnection } from '../../support/recordingConnection';
import { ScriptedAdapter } from '../../support/scriptedAdapter';
import { settle, until } from '../../support/settle';

type Candidates = PayloadOf<'session.file.candidates'>;

/** A search port whose searches the test sees (query, signal) and finishes by hand. */
class ManualSearch {
  readonly calls: { query: PayloadOf<'control.file.search'>; signal: AbortSignal; lane: string; finish: (c: Candidates) => void; fail: (e: Error) => void }[] = [];
  readonly run: FileSearch = (query, signal, lane) =>
    new Promise((finish, fail) => this.calls.push({ query, signal, lane, finish, fail }));
  /** The call for a search message (its query_id and the query text the test gave it). */
  of(query: string): ManualSearch['calls'][number] {
    const c = this.calls.find((x) => x.query.query === query);
    assert.ok(c, `a search for "${query}" reached the port`);
    return c;
  }
}

const answer = (query_id: string, path: string): Candidates => ({ query_id, candidates: [{ path, name: path, directory: '' }], truncated: false });

async function setup(fileSearch: FileSearch | undefined) {
  const hub = new Hub({ handshakeTimeoutMs: 2000 });
  const registry = new SessionRegistry(hub, fileSearch ? { fileSearch } : {});
  const session: AgentSession = await registry.create({ adapter: new ScriptedAdapter(), origin: 'remote' });
  const a = new RecordingConnection('master-a', 'remote', ALL_FEATURES);
  const b = new RecordingConnection('master-b', 'remote', ALL_FEATURES);
  assert.deepEqual(hub.attach(session.session_id, a), { ok: true });
  assert.deepEqual(hub.attach(session.session_id, b), { ok: true });
  const send = <T extends FrameType>(conn: RecordingConnection, type: T, payload: PayloadOf<T>): FrameOf<T> => {
    const frame = buildFrame(type, payload, { session_id: session.session_id });
    hub.receive(conn.id, JSON.stringify(frame));
    return frame;
  };
  /** What a connection got in answer to one of the frames sent (candidates or an error). */
  const answersTo = (conn: RecordingConnection, frame: { message_id: string }): WireFrame[] => conn.frames.filter((f) => f.parent_id === frame.message_id);
  return { hub, registry, session, a, b, send, answersTo };
}

describe('session/fileSearches: a master\'s searches are its own (§16.1, decision 557)', () => {
  it('§16.1.3 §2.4 a master that detaches (its connection closed) has its searches aborted and nothing is sent for them; another master\'s search runs on and is answered', async () => {
    const port = new ManualSearch();
    const { hub, registry, a, b, send, answersTo } = await setup(port.run);
    const fromA = send(a, 'control.file.search', { query_id: 'qa', query: 'alpha' });
    const fromB = send(b, 'control.file.search', { query_id: 'qb', query: 'beta' });
    await until(() => port.calls.length === 2, 'both searches started');
    hub.detach(a.id);
    assert.equal(port.of('alpha').signal.aborted, true, 'the departed master\'s search is told to stop');
    assert.equal(port.of('beta').signal.aborted, false, 'the other master\'s search keeps running');
    port.of('alpha').finish(answer('qa', 'late.ts'));
    port.of('beta').finish(answer('qb', 'b.ts'));
    await until(() => answersTo(b, fromB).length === 1, 'B\'s answer');
    await settle();
    assert.deepEqual(answersTo(b, fromA), [], 'nobody gets an answer for the departed master\'s search');
    const got = answersTo(b, fromB)[0] as FrameOf<'session.file.candidates'>;
    assert.deepEqual([got.type, got.payload.query_id, got.payload.candidates[0].path], ['session.file.candidates', 'qb', 'b.ts']);
    await registry.disposeAll();
  });

  it('§16.1.3 each search reaches the search port in its sender\'s lane (its connection), so a newer search of one master never stops another\'s scan (decision 558)', async () => {
    const port = new ManualSearch();
    const { registry, a, b, send } = await setup(port.run);
    send(a, 'control.file.search', { query_id: 'qa', query: 'alpha' });
    send(b, 'control.file.search', { query_id: 'qb', query: 'beta' });
    send(a, 'control.file.search', { query_id: 'qa2', query: 'alphabet' });
    await until(() => port.calls.length === 3, 'the searches started');
    assert.deepEqual([port.of('alpha').lane, port.of('beta').lane, port.of('alphabet').lane], [a.id, b.id, a.id]);
    for (const c of port.calls) c.finish(answer(c.query.query_id, 'x.ts'));
    await registry.disposeAll();
  });

  it('§2.4 a master cut off by the hub (the session is no longer shared) has its searches aborted too', async () => {
    const port = new ManualSearch();
    const { hub, registry, session, a, send } = await setup(port.run);
    send(a, 'control.file.search', { query_id: 'qa', query: 'alpha' });
    await until(() => port.calls.length === 1, 'the search started');
    hub.unshare(session.session_id);
    assert.ok(a.closed !== undefined, 'the master was disconnected');
    assert.equal(port.of('alpha').signal.aborted, true);
    await registry.disposeAll();
  });

  it('§16.1.1 §16.1.3 a query_id is its sender\'s: master B repeating A\'s query_id neither cancels nor replaces A\'s search; A repeating its own replaces it', async () => {
    const port = new ManualSearch();
    const { registry, a, b, send, answersTo } = await setup(port.run);
    const fromA = send(a, 'control.file.search', { query_id: 'shared-id', query: 'alpha' });
    await until(() => port.calls.length === 1, 'A\'s search started');
    // B saw A's search (§2.4 relays controls) and repeats its id.
    assert.equal(b.frames.some((f) => f.message_id === fromA.message_id), true, 'B saw A\'s search');
    send(b, 'control.file.search.cancel', { query_id: 'shared-id' });
    const fromB = send(b, 'control.file.search', { query_id: 'shared-id', query: 'beta' });
    await until(() => port.calls.length === 2, 'B\'s search started');
    assert.equal(port.of('alpha').signal.aborted, false, 'B cannot cancel or replace A\'s search');
    port.of('alpha').finish(answer('shared-id', 'a.ts'));
    port.of('beta').finish(answer('shared-id', 'b.ts'));
    await until(() => answersTo(a, fromA).length === 1 && answersTo(a, fromB).length === 1, 'both answers');
    assert.equal((answersTo(a, fromA)[0] as FrameOf<'session.file.candidates'>).payload.candidates[0].path, 'a.ts');
    assert.equal((answersTo(a, fromB)[0] as FrameOf<'session.file.candidates'>).payload.candidates[0].path, 'b.ts');
    // The sender itself still replaces its own search by repeating the id (one per query_id).
    send(a, 'control.file.search', { query_id: 'again', query: 'one' });
    await until(() => port.calls.length === 3, 'A\'s next search');
    send(a, 'control.file.search', { query_id: 'again', query: 'two' });
    await until(() => port.calls.length === 4, 'its replacement');
    assert.equal(port.of('one').signal.aborted, true);
    send(a, 'control.file.search.cancel', { query_id: 'again' });
    assert.equal(port.of('two').signal.aborted, true, 'and cancels its own search');
    await registry.disposeAll();
  });

  it('§16.1.2 answers finishing out of order each carry their own query_id and parent_id (the master drops the stale one); a cancel for an unknown query_id is harmless', async () => {
    const port = new ManualSearch();
    const { registry, a, b, send, answersTo } = await setup(port.run);
    const q1 = send(a, 'control.file.search', { query_id: 'k1', query: 's' });
    const q2 = send(a, 'control.file.search', { query_id: 'k2', query: 'sr' });
    await until(() => port.calls.length === 2, 'both searches');
    port.of('sr').finish(answer('ignored', 'src/new.ts'));
    port.of('s').finish(answer('ignored', 'old.ts'));
    await until(() => answersTo(b, q1).length === 1 && answersTo(b, q2).length === 1, 'both answers');
    const ids = (f: WireFrame) => [f.type, (f as FrameOf<'session.file.candidates'>).payload.query_id];
    assert.deepEqual(ids(answersTo(b, q1)[0]), ['session.file.candidates', 'k1']);
    assert.deepEqual(ids(answersTo(b, q2)[0]), ['session.file.candidates', 'k2']);
    const cancel = send(a, 'control.file.search.cancel', { query_id: 'never-sent' });
    await settle();
    assert.deepEqual(answersTo(b, cancel), []);
    assert.deepEqual(answersTo(a, cancel), []);
    await registry.disposeAll();
  });

  it('§16.1 a failing search (rejected, or thrown at once) is a non-fatal FILE_SEARCH_FAILED answering it; §12.2.1 without a search port it is FEATURE_NOT_SUPPORTED', async () => {
    const port = new ManualSearch();
    let throwNow = false;
    const run: FileSearch = (q, s, lane) => {
      if (throwNow) throw new Error('sync failure');
      return port.run(q, s, lane);
    };
    const { registry, a, send, answersTo } = await setup(run);
    const rejected = send(a, 'control.file.search', { query_id: 'r', query: 'x' });
    await until(() => port.calls.length === 1, 'the search');
    port.calls[0].fail(new Error('disk on fire'));
    throwNow = true;
    const thrown = send(a, 'control.file.search', { query_id: 't', query: 'y' });
    await until(() => answersTo(a, rejected).length === 1 && answersTo(a, thrown).length === 1, 'both refusals');
    for (const [frame, text] of [[rejected, /disk on fire/], [thrown, /sync failure/]] as const) {
      const e = answersTo(a, frame)[0] as FrameOf<'session.error'>;
      assert.deepEqual([e.type, e.payload.error_code, e.payload.fatal], ['session.error', 'FILE_SEARCH_FAILED', false]);
      assert.match(e.payload.message, text);
    }
    await registry.disposeAll();

    const none = await setup(undefined);
    const q = none.send(none.a, 'control.file.search', { query_id: 'n', query: 'z' });
    await until(() => none.answersTo(none.a, q).length === 1, 'the refusal');
    const e = none.answersTo(none.a, q)[0] as FrameOf<'session.error'>;
    assert.deepEqual([e.payload.error_code, e.payload.fatal], ['FEATURE_NOT_SUPPORTED', false]);
    await none.registry.disposeAll();
  });
});
