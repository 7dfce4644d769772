import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { rawp } from './rawp';

describe('extension host: settings', () => {
  let agentBefore: string | undefined;
  before(() => {
    agentBefore = vscode.workspace.getConfiguration('rawp').inspect<string>('defaultAgent')?.globalValue;
  });
  after(async () => {
    await vscode.workspace.getConfiguration('rawp').update('history.bufferBytes', undefined, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration('rawp').update('checkpoints.enabled', undefined, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration('rawp').update('defaultAgent', agentBefore, vscode.ConfigurationTarget.Global);
  });

  it('every rawp.* setting is contributed with a description and a default', async () => {
    const { ext } = await rawp();
    const props = ext.packageJSON.contributes.configuration.properties as Record<string, { description?: string; markdownDescription?: string; default?: unknown }>;
    const names = Object.keys(props);
    assert.ok(names.length >= 10);
    for (const n of names) {
      assert.ok(n.startsWith('rawp.'), n);
      assert.ok((props[n].description ?? props[n].markdownDescription ?? '').length > 10, `${n} has a description`);
      assert.ok('default' in props[n], `${n} has a default`);
    }
  });

  it('reads defaults, and changed values without a reload', async () => {
    const { api } = await rawp();
    assert.equal(vscode.workspace.getConfiguration('rawp').inspect('defaultAgent')?.defaultValue, 'auto');
    assert.deepEqual(api.settings.history(), { policy: 'RING', maxBytes: 8 * 1024 * 1024 });
    assert.equal(api.settings.remote().host, '127.0.0.1');
    await vscode.workspace.getConfiguration('rawp').update('history.bufferBytes', 1234, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration('rawp').update('defaultAgent', 'codex', vscode.ConfigurationTarget.Global);
    assert.equal(api.settings.history().maxBytes, 1234);
    assert.equal(api.settings.defaultAgent(), 'codex');
    // Decision 635: read at each turn's start, so a change applies from the next turn.
    assert.equal(api.settings.checkpointsEnabled(), true);
    await vscode.workspace.getConfiguration('rawp').update('checkpoints.enabled', false, vscode.ConfigurationTarget.Global);
    assert.equal(api.settings.checkpointsEnabled(), false);
  });
});
