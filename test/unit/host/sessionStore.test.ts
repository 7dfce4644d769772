// Sessions kept across window reloads: debounced writes, synchronous flush on close, a corrupt
// file moved aside (never trusted, never lost), deleted sessions never brought back.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionStore, type StoredSession } from '../../../src/host/sessionStore';
import { until } from '../../support/settle';

const session = (id: string, created_at: string): StoredSession => ({ version: 1, session_id: id, name: id, agent: 'builtin', created_at, frames: [{ message_id: 'm1', type: 'session.capabilities' }] });

describe('extension: session store', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rawp-store-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the newest snapshot once after a burst of changes, and loads sessions oldest first', async () => {
    const store = new SessionStore(join(dir, 's'), 1);
    let calls = 0;
    for (let i = 0; i < 5; i++) store.schedule('b', () => (calls++, session('b', '2026-01-02T00:00:00Z')));
    store.schedule('a', () => session('a', '2026-01-01T00:00:00Z'));
    await until(() => store.loadAll().length === 2, 'written', 100_000);
    assert.equal(calls, 1);
    assert.deepEqual(store.loadAll().map((s) => s.session_id), ['a', 'b']);
  });

  it('flushSync writes what is pending right away (window closing)', () => {
    const store = new SessionStore(join(dir, 's'), 60_000);
    store.schedule('x', () => session('x', '2026-01-01T00:00:00Z'));
    store.flushSync();
    assert.deepEqual(store.loadAll().map((s) => s.session_id), ['x']);
  });

  it('a flush on close wins over an older write still in flight; settled() waits for that write', async () => {
    const store = new SessionStore(join(dir, 's'), 0);
    const older = session('a', '2026-01-01T00:00:00Z');
    const newer = { ...session('a', '2026-01-01T00:00:00Z'), name: 'newer' };
    store.schedule('a', () => older);
    await new Promise((r) => setTimeout(r, 1)); // the debounced write starts (and awaits its I/O)
    store.schedule('a', () => newer);
    store.flushSync(); // the window closes
    await store.settled();
    assert.deepEqual(store.loadAll().map((s) => s.name), ['newer']);
    assert.deepEqual(readdirSync(join(dir, 's')), ['a.json'], 'no temp file left behind');
  });

  it('a corrupt file is moved aside and reported, the others still load', () => {
    const d = join(dir, 's');
    mkdirSync(d, { recursive: true });
    writeFileSync(join(d, 'bad.json'), '{ not json');
    writeFileSync(join(d, 'good.json'), JSON.stringify(session('good', '2026-01-01T00:00:00Z')));
    const reports: string[] = [];
    const store = new SessionStore(d, 1, (m) => reports.push(m));
    assert.deepEqual(store.loadAll().map((s) => s.session_id), ['good']);
    assert.ok(existsSync(join(d, 'bad.json.corrupt')));
    assert.equal(reports.length, 1);
  });

  it('a removed session stays removed even when a write was pending', async () => {
    const store = new SessionStore(join(dir, 's'), 1);
    store.schedule('gone', () => session('gone', '2026-01-01T00:00:00Z'));
    await store.remove('gone');
    store.schedule('gone', () => session('gone', '2026-01-01T00:00:00Z'));
    store.flushSync();
    assert.deepEqual(existsSync(join(dir, 's')) ? readdirSync(join(dir, 's')) : [], []);
  });
});
