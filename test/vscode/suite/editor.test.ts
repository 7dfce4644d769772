import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { buildFrame } from '../../../src/protocol/build';
import { openEditorPaths } from '../../../src/extension/openEditorPaths';
import { eventually, rawp, workspaceRoot } from './rawp';

describe('extension host: the editor side of the chat', () => {
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('a file reference from the chat opens the file at its line', async () => {
    const { s } = await rawp();
    await s.controller.receive({ kind: 'file.open', payload: { path: 'src/math.ts', line: 5 } });
    const editor = await eventually(() => (vscode.window.activeTextEditor?.document.uri.fsPath.endsWith('math.ts') ? vscode.window.activeTextEditor : undefined), 'math.ts open');
    assert.equal(editor.selection.active.line, 4);
  });

  it('§16.1.1 the empty @ query looks up the open files\' times first: openEditorPaths lists the active editor first, then the other open tabs, local files only, without repeats', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const math = vscode.Uri.file(join(workspaceRoot(), 'src', 'math.ts'));
    const greeting = vscode.Uri.file(join(workspaceRoot(), 'src', 'greeting.ts'));
    await vscode.window.showTextDocument(math, { preview: false });
    await vscode.window.showTextDocument(greeting, { preview: false });
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument({ language: 'plaintext' }), { preview: false, viewColumn: vscode.ViewColumn.Beside });
    await vscode.window.showTextDocument(greeting, { preview: false, viewColumn: vscode.ViewColumn.One });
    const paths = openEditorPaths();
    assert.deepEqual(paths, [greeting.fsPath, math.fsPath], 'active first, the untitled (empty, so closing it asks nothing) left out, greeting.ts once');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('an edit by the built-in agent opens in vscode.diff (before rebuilt from the patch); after a later change, as the patch', async () => {
    const { s } = await rawp();
    const file = join(workspaceRoot(), 'src', 'greeting.ts');
    const original = readFileSync(file, 'utf8');
    const rule = s.host.permissions.rules.add({ tool_name: 'Edit' }, { decision: 'allow', lifetime: 'always', session_id: '', created_by: 'test' }); // no permission prompt here
    try {
      const id = await s.controller.newSession('builtin');
      assert.ok(id);
      s.host.hostFrame(id, buildFrame('control.prompt.request', { prompt_text: 'replace `Hello` with `Howdy` in src/greeting.ts' }, { session_id: id }));
      // (The agent's first Edit is refused as unread, it reads, then edits: take the successful one.)
      const result = await eventually(
        () => s.host.log(id)!.all().find((f) => f.type === 'tool.invoke.result' && (f.payload as { tool_name?: string; status?: string }).tool_name === 'Edit' && (f.payload as { status?: string }).status === 'success'),
        'the successful Edit result',
      );
      const invocation = (result.payload as { invocation_id: string; status: string }).invocation_id;
      assert.equal((result.payload as { status: string }).status, 'success', JSON.stringify(result.payload).slice(0, 600));
      await vscode.commands.executeCommand('rawp.openDiff', id, invocation);
      const tab = await eventually(() => {
        const t = vscode.window.tabGroups.activeTabGroup.activeTab;
        return t?.input instanceof vscode.TabInputTextDiff ? t.input : undefined;
      }, 'a diff tab');
      assert.equal(tab.original.scheme, 'rawp-before');
      assert.equal((await vscode.workspace.openTextDocument(tab.original)).getText(), original);
      assert.equal(tab.modified.fsPath, file);

      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      writeFileSync(file, 'export const changed = true;\n');
      await vscode.commands.executeCommand('rawp.openDiff', id, invocation);
      const patch = await eventually(() => (vscode.window.activeTextEditor?.document.languageId === 'diff' ? vscode.window.activeTextEditor.document : undefined), 'the patch opens');
      assert.match(patch.getText(), /\+.*Howdy/);
    } finally {
      s.host.permissions.rules.revoke(rule.id);
      writeFileSync(file, original);
    }
  });
});
