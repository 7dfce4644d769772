import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import WebSocket from 'ws';
import { eventually, rawp } from './rawp';

describe('extension host: sharing a session with remote masters', () => {
  before(async () => {
    await vscode.workspace.getConfiguration('rawp').update('remote.port', 0, vscode.ConfigurationTarget.Global);
  });
  after(async () => {
    await vscode.workspace.getConfiguration('rawp').update('remote.port', undefined, vscode.ConfigurationTarget.Global);
  });

  it('§2.4 "Share" makes the local session visible to a master with the token; "Stop Sharing" disconnects it (4403)', async () => {
    const { s } = await rawp();
    const id = s.controller.activeSessionId ?? (await s.controller.newSession())!;
    const url = new URL(await s.sharing.share(id));
    const fragment = new URLSearchParams(url.hash.slice(1));
    const token = fragment.get('token')!;
    assert.equal(fragment.get('session'), id);
    assert.ok(token.length >= 22, 'the token travels in the fragment only');
    assert.equal(url.hostname, '127.0.0.1');
    const auth = { Authorization: `Bearer ${token}` };
    assert.equal((await fetch(`${url.origin}/v1/sessions`)).status, 401);
    const list = (await (await fetch(`${url.origin}/v1/sessions`, { headers: auth })).json()) as { sessions?: { session_id: string }[] } | { session_id: string }[];
    const sessions = Array.isArray(list) ? list : (list.sessions ?? []);
    assert.ok(sessions.some((s) => s.session_id === id));

    const ws = new WebSocket(`ws://${url.host}/v1/sessions/${id}/stream`, ['rawp-dps-1.0'], { headers: auth });
    const first = new Promise<{ type: string }>((resolve, reject) => {
      ws.once('message', (d) => resolve(JSON.parse(String(d))));
      ws.once('error', reject);
    });
    assert.equal((await first).type, 'session.capabilities');
    await eventually(async () => (await s.sharing.masterCount()) === 1, 'the master is counted');
    assert.equal(s.host.list().find((s) => s.session_id === id)?.masters, 1);

    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    await vscode.commands.executeCommand('rawp.stopSharing');
    assert.equal(await closed, 4403);
    assert.equal(s.host.list().find((s) => s.session_id === id)?.shared, false);
  });
});
