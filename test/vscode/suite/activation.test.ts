import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { metrics } from './index';
import { rawp } from './rawp';

describe('extension host: activation and commands', () => {
  it('activates inside VS Code and reports its activation time', async () => {
    const { ext, api } = await rawp();
    assert.equal(ext.isActive, true);
    assert.ok(Number.isFinite(api.activationMs) && api.activationMs > 0, `activationMs ${api.activationMs}`);
    assert.ok(api.loadAndActivationMs >= api.activationMs);
    // Reported, not asserted (speed belongs to benchmarks).
    metrics.activationMs = api.activationMs;
    metrics.activationWallMs = api.loadAndActivationMs;
    await api.services();
    const load = api.servicesLoadMs();
    assert.ok(load !== undefined && Number.isFinite(load));
    metrics.servicesLoadMs = load;
  });

  it('registers every palette command the manifest contributes', async () => {
    const { ext } = await rawp();
    const contributed = (ext.packageJSON.contributes.commands as { command: string }[]).map((c) => c.command);
    assert.ok(contributed.length >= 12, 'the manifest lists the commands');
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = contributed.filter((c) => !registered.has(c));
    assert.deepEqual(missing, []);
  });

  it('contributes the activity-bar container with the "Chat" webview view', async () => {
    const { ext } = await rawp();
    const c = ext.packageJSON.contributes;
    assert.ok(c.viewsContainers.activitybar.some((v: { id: string }) => v.id === 'rawp'));
    assert.deepEqual(
      c.views.rawp.map((v: { id: string; type: string; name: string }) => [v.id, v.type, v.name]),
      [['rawp.chat', 'webview', 'Chat']],
    );
  });
});
