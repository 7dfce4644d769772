// The host's sharing (src/host/sharing.ts), behind the editor's "Share session" and `rawp serve`:
// a real RemoteServer on the host's registry. POST /v1/sessions creates through the host (so the
// new session has the workspace's slash commands and the prompt admission) and shares it at once;
// DELETE /v1/sessions/{id} ends it through the host (§7.5.3, session.deleted by the master).
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateToken } from '../../../src/remote/auth';
import { HostSharing } from '../../../src/host/sharing';
import type { SessionHost } from '../../../src/host/sessionHost';
import { http, waitFor } from '../remote/harness';
import { harness, type Harness } from './harness';

describe('host: sharing through the session host (POST/DELETE /v1/sessions)', () => {
  let h: Harness;
  let sharing: HostSharing | undefined;
  let host: SessionHost;
  const token = generateToken();
  const auth = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
  beforeEach(() => {
    h = harness();
    mkdirSync(join(h.workspace, '.claude', 'commands'), { recursive: true });
    writeFileSync(join(h.workspace, '.claude', 'commands', 'findit.md'), 'find $ARGUMENTS\n');
    host = h.makeHost();
  });
  afterEach(async () => {
    await h.cleanup();
    await sharing?.close();
    sharing = undefined;
  });

  it('§2.4 an editor session is invisible until shared; sharing starts the server once and lists it', async () => {
    let changes = 0;
    sharing = new HostSharing({ host, logger: { debug() {}, info() {}, warn() {}, error() {} }, settings: async () => ({ token }), changed: () => changes++ });
    const id = await host.create();
    const server = await sharing.start();
    const before = JSON.parse((await http(`${server.url}/v1/sessions`, { headers: auth })).body) as { sessions: { session_id: string }[] };
    assert.deepEqual(before.sessions, [], 'a local session is not listed before it is shared');
    assert.equal(await sharing.share(id), server, 'the same server');
    assert.ok(sharing.isShared(id));
    assert.ok(changes > 0);
    const after = JSON.parse((await http(`${server.url}/v1/sessions`, { headers: auth })).body) as { sessions: { session_id: string }[] };
    assert.deepEqual(after.sessions.map((s) => s.session_id), [id]);
  });

  it('POST /v1/sessions creates through the host: shared at once, with the workspace\'s commands; DELETE ends it through the host (session.deleted by the master)', async () => {
    sharing = new HostSharing({ host, logger: { debug() {}, info() {}, warn() {}, error() {} }, settings: async () => ({ token }) });
    const server = await sharing.start();
    const created = await http(`${server.url}/v1/sessions`, { method: 'POST', headers: auth, body: JSON.stringify({ name: 'from a master' }) });
    assert.equal(created.status, 201, created.body);
    const { session_id } = JSON.parse(created.body) as { session_id: string };
    assert.ok(host.has(session_id), 'the host owns the new session');
    assert.ok(sharing.isShared(session_id), 'a session a master created is visible to masters');
    assert.equal(host.list().find((s) => s.session_id === session_id)?.name, 'from a master');
    const log = host.log(session_id)!.all();
    const publish = log.find((f) => f.type === 'agent.commands.publish');
    assert.ok(publish?.type === 'agent.commands.publish' && publish.payload.commands.some((c) => c.name === 'findit'), 'slash commands are discovered for it');

    const ended: string[] = [];
    host.onEvent((e) => e.kind === 'ended' && ended.push(e.session_id));
    const del = await http(`${server.url}/v1/sessions/${session_id}`, { method: 'DELETE', headers: auth });
    assert.equal(del.status, 204);
    await waitFor(() => ended.includes(session_id), 'the host saw the session end');
    assert.equal(host.has(session_id), false);
  });

  it('a master\'s POST naming an agent the host does not have is refused when the host resolves names (rawp serve), not run', async () => {
    sharing = new HostSharing({
      host,
      logger: { debug() {}, info() {}, warn() {}, error() {} },
      settings: async () => ({ token }),
      resolveAgent: async (requested) => {
        if (requested !== 'builtin') throw new Error(`unknown agent "${requested}"`);
        return requested;
      },
    });
    const server = await sharing.start();
    const before = host.list().length;
    const refused = await http(`${server.url}/v1/sessions`, { method: 'POST', headers: auth, body: JSON.stringify({ agent: 'acp:sh -c true' }) });
    assert.equal(refused.status, 400);
    assert.match(refused.body, /unknown agent/);
    assert.equal(host.list().length, before, 'no session was created');
  });
});
