import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { eventually, rawp } from './rawp';

describe('extension host: sessions', () => {
  it('"New Session" starts a session of the built-in agent (idle, §13.1) and makes it active', async () => {
    const { s } = await rawp();
    const before = new Set(s.host.list().map((s) => s.session_id));
    await vscode.commands.executeCommand('rawp.newSession');
    const created = await eventually(() => s.host.list().find((s) => !before.has(s.session_id)), 'a new session');
    assert.equal(created.agent, 'builtin');
    assert.equal(created.state, 'idle');
    assert.equal(s.controller.activeSessionId, created.session_id);
    const log = s.host.log(created.session_id)?.all() ?? [];
    assert.equal(log[0]?.type, 'session.capabilities');
  });

  it('"Cancel Turn" with no running turn says so instead of sending a frame', async () => {
    const { s } = await rawp();
    const id = s.controller.activeSessionId!;
    const n = s.host.log(id)?.size ?? 0;
    await vscode.commands.executeCommand('rawp.cancelTurn');
    assert.equal(s.host.log(id)?.size, n);
  });
});
