// Security property "no read or write escapes the workspace through a symlink", for documents open
// in the editor: an open document with unsaved typing, reached through a symlink in the workspace
// that points outside, is refused exactly as the disk backend refuses the file itself.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { rawp, workspaceRoot } from './rawp';

const isOutside = (e: unknown) => (e as { name?: string }).name === 'FsError' && (e as { code?: string }).code === 'FS_OUTSIDE_WORKSPACE';

describe('extension host: the VS Code FsBackend — symlinks out of the workspace', () => {
  let outside: string;
  let link: string;
  before(() => {
    outside = mkdtempSync(join(tmpdir(), 'rawp-host-outside-'));
    writeFileSync(join(outside, 'secret.txt'), 'top secret\n');
    const dir = join(workspaceRoot(), '.rawp-host-tests');
    mkdirSync(dir, { recursive: true });
    link = join(dir, 'secret-link.txt');
    rmSync(link, { force: true });
    symlinkSync(join(outside, 'secret.txt'), link);
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.files.revert').then(undefined, () => undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(link, { force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  it('security: a dirty document opened through a symlink to outside is neither read nor written', async () => {
    const { s } = await rawp();
    const fs = s.shared().fs;
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(link));
    const editor = await vscode.window.showTextDocument(doc, { preview: false });
    assert.ok(await editor.edit((e) => e.insert(new vscode.Position(0, 0), 'typed\n')));
    assert.equal(editor.document.isDirty, true);
    await assert.rejects(() => fs.readText(link), isOutside);
    await assert.rejects(() => fs.writeText(link, 'agent text\n', { kind: 'unconditional' }), isOutside);
    assert.equal(editor.document.getText(), 'typed\ntop secret\n');
    assert.equal(readFileSync(join(outside, 'secret.txt'), 'utf8'), 'top secret\n');
  });
});
