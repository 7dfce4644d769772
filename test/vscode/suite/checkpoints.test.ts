// Issue 17 item 4 inside VS Code: a rewind goes through the VS Code FsBackend, so an open document
// is restored through the editor (its undo history survives: undo brings the agent's text back),
// and a document with unsaved typing is a conflict the person must confirm (the extension answers
// the service's unsavedFiles question) — forced, it is restored and saved.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { rawp, workspaceRoot } from './rawp';

describe('extension host: checkpoint rewind through the editor (issue 17)', () => {
  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.files.revert').then(undefined, () => undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('§3.1.1 an open document is restored through the editor and undo brings the turn back; unsaved typing is a conflict until forced', async () => {
    const { s } = await rawp();
    const cp = s.host.checkpoints;
    assert.ok(cp, 'the window has checkpoints');
    const dir = join(workspaceRoot(), '.rawp-cp-tests');
    mkdirSync(dir, { recursive: true });
    const clean = join(dir, 'clean.txt');
    const typed = join(dir, 'typed.txt');
    writeFileSync(clean, 'before\n');
    writeFileSync(typed, 'typed before\n');
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(clean));
    const editor = await vscode.window.showTextDocument(doc, { preview: false });
    const other = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(vscode.Uri.file(typed)), { preview: false, viewColumn: vscode.ViewColumn.Two });

    const session = `vscode-cp-${Date.now()}`;
    await cp.service.beforeTurn(session, 'turn-1');
    // The "agent" writes both files through the backend, as the built-in agent would.
    const fs = s.shared().fs;
    for (const [path, text] of [[clean, 'after\n'], [typed, 'typed after\n']] as const) {
      const read = await fs.readText(path);
      await fs.writeText(path, text, { kind: 'replaceIfVersion', version: read.version });
    }
    const rec = await cp.service.afterTurn(session, 'turn-1');
    assert.ok(rec);
    assert.deepEqual(rec.files.map((f) => `${f.change} ${f.path}`).sort(), ['modified .rawp-cp-tests/clean.txt', 'modified .rawp-cp-tests/typed.txt']);
    // A person types into the second document without saving.
    assert.ok(await other.edit((e) => e.insert(new vscode.Position(0, 0), 'unsaved: ')));

    const r = await cp.service.restore(rec.checkpoint_id);
    assert.deepEqual(r.conflicts, ['.rawp-cp-tests/typed.txt'], 'unsaved typing blocks that file');
    assert.deepEqual(r.restored, ['.rawp-cp-tests/clean.txt']);
    assert.equal(editor.document.getText(), 'before\n');
    assert.equal(editor.document.isDirty, false);
    assert.equal(readFileSync(clean, 'utf8'), 'before\n');
    assert.equal(other.document.getText(), 'unsaved: typed after\n', "the person's typing is untouched");

    // Undo in the editor brings the agent's text back: the restore was an edit, not a reload.
    await vscode.window.showTextDocument(editor.document, { viewColumn: editor.viewColumn });
    await vscode.commands.executeCommand('undo');
    assert.equal(editor.document.getText(), 'after\n');
    await vscode.commands.executeCommand('redo');
    assert.equal(editor.document.getText(), 'before\n');

    const forced = await cp.service.restore(rec.checkpoint_id, { force: ['.rawp-cp-tests/typed.txt'] });
    assert.deepEqual(forced.conflicts, []);
    assert.equal(other.document.getText(), 'typed before\n');
    assert.equal(other.document.isDirty, false, 'restored and saved');
    assert.equal(readFileSync(typed, 'utf8'), 'typed before\n');
  });

  it('decision 635: with rawp.checkpoints.enabled off a turn takes no snapshot and gets no checkpoint; on again, the next turn does (read at each turn\'s start, no reload)', async () => {
    const { s } = await rawp();
    const cp = s.host.checkpoints!;
    const config = vscode.workspace.getConfiguration('rawp');
    const session = `vscode-cp-off-${Date.now()}`;
    const file = join(workspaceRoot(), '.rawp-cp-tests', 'off.txt');
    mkdirSync(join(workspaceRoot(), '.rawp-cp-tests'), { recursive: true });
    const turn = async (turn_id: string, text: string) => {
      const hooks = cp.hooks();
      await hooks.before?.({ session_id: session, turn_id } as never);
      writeFileSync(file, text);
      await hooks.after?.({ session_id: session, turn_id, stop_reason: 'end_turn' } as never);
    };
    try {
      await config.update('checkpoints.enabled', false, vscode.ConfigurationTarget.Global);
      await turn('turn-off', 'one\n');
      assert.deepEqual(cp.service.list(session), [], 'no checkpoint while off');
      await config.update('checkpoints.enabled', undefined, vscode.ConfigurationTarget.Global);
      await turn('turn-on', 'two\n');
      assert.deepEqual(cp.service.list(session).map((r) => r.files.map((f) => `${f.change} ${f.path}`)), [['modified .rawp-cp-tests/off.txt']]);
    } finally {
      await config.update('checkpoints.enabled', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
