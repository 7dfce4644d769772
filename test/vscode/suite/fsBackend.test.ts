import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { rawp, workspaceRoot } from './rawp';
import { versionOfBytes } from '../../../src/workspace/fileVersion';
import { SLICE_BYTES } from '../../../src/workspace/bytesInTurns';
import { readInlinePrefix } from '../../../src/agents/inlinePrefix';
import { MAX_WHOLE_READ_BYTES } from '../../../src/extension/vscodeTextPrefix';
import { VIRTUAL_FOLDER, memFs } from './memFs';

async function openFresh(name: string, text: string): Promise<{ path: string; editor: vscode.TextEditor }> {
  const dir = join(workspaceRoot(), '.rawp-host-tests');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, text);
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(path));
  const editor = await vscode.window.showTextDocument(doc, { preview: false });
  return { path, editor };
}

async function closeAll(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.files.revert').then(undefined, () => undefined);
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

describe('extension host: the VS Code FsBackend', () => {
  afterEach(closeAll);

  it('read-before-write: refuses to overwrite a document with unsaved typing it never read (FS_STALE_VERSION)', async () => {
    const { s } = await rawp();
    const fs = s.shared().fs;
    const { path, editor } = await openFresh('dirty.txt', 'original\n');
    const seen = await fs.readText(path);
    // A person types without saving.
    assert.ok(await editor.edit((e) => e.insert(new vscode.Position(0, 0), 'typed by a person\n')));
    assert.equal(editor.document.isDirty, true);
    await assert.rejects(
      () => fs.writeText(path, 'agent text\n', { kind: 'replaceIfVersion', version: seen.version }),
      // The extension is a separate bundle: compare by name and code, not by class identity.
      (e: unknown) => (e as { name?: string }).name === 'FsError' && (e as { code?: string }).code === 'FS_STALE_VERSION',
    );
    assert.equal(editor.document.getText(), 'typed by a person\noriginal\n');
    assert.equal(readFileSync(path, 'utf8'), 'original\n');
  });

  it('§16.3 decision 560: an inlined reference reads only the start of a disk file (a 3 GiB file, more than a whole read can hold), cut on a character boundary; unsaved typing is what it reads', async () => {
    const { s } = await rawp();
    const fs = s.shared().fs;
    const dir = join(workspaceRoot(), '.rawp-host-tests');
    mkdirSync(dir, { recursive: true });
    const big = join(dir, 'huge.log');
    // 65,535 ASCII bytes, a two-byte é across the 64 KiB mark, then a sparse tail to 3 GiB.
    writeFileSync(big, 'a'.repeat(65_535) + 'é' + 'b'.repeat(100));
    truncateSync(big, 3 * 2 ** 30);
    try {
      const head = await readInlinePrefix(fs, big, workspaceRoot(), 65_536);
      assert.deepEqual({ length: head.text.length, total: head.total, cut: head.cut, binary: head.binary }, { length: 65_535, total: 3 * 2 ** 30, cut: true, binary: false });
      assert.ok(/^a+$/.test(head.text), 'no half character at the cut');
    } finally {
      rmSync(big, { force: true });
    }
    const { path, editor } = await openFresh('unsaved-head.txt', 'on disk\n');
    await editor.edit((e) => e.insert(new vscode.Position(0, 0), 'typed, not saved\n'));
    assert.deepEqual(await readInlinePrefix(fs, path, workspaceRoot(), 8), { text: 'typed, n', total: 'typed, not saved\non disk\n'.length, cut: true, binary: false });
    await assert.rejects(readInlinePrefix(fs, join(dir, 'missing.txt'), workspaceRoot(), 10), (e: unknown) => (e as { code?: string }).code === 'FS_NOT_FOUND');
  });

  it('§16.3 decision 561: a virtual folder\'s file over 16 MiB by its stat is refused in plain words and never read; one of exactly 16 MiB is read whole and gives its start, cut on a character boundary', async () => {
    const { s } = await rawp();
    const fs = s.shared().fs;
    const mem = memFs();
    const huge = `${VIRTUAL_FOLDER}/logs/huge.log`;
    const edge = `${VIRTUAL_FOLDER}/logs/edge.log`;
    mem.put(huge, 'small in memory; its stat says 5 GiB\n');
    // Exactly the bound: 65,535 ASCII bytes, a two-byte é across the 64 KiB mark, ASCII to 16 MiB.
    const bytes = Buffer.alloc(MAX_WHOLE_READ_BYTES, 0x61);
    bytes.write('é', 65_535, 'utf8');
    mem.put(edge, bytes);
    const reads: string[] = [];
    const { stat, readFile } = mem;
    // The registered provider's own methods, swapped for this test (VS Code calls them by name).
    mem.stat = (uri) => (uri.path === huge ? { ...stat.call(mem, uri), size: 5 * 2 ** 30 } : stat.call(mem, uri));
    mem.readFile = (uri) => {
      // Only the files under test: VS Code itself reads the folder's .vscode/*.json when it likes.
      if (uri.path.startsWith(`${VIRTUAL_FOLDER}/logs/`)) reads.push(uri.path);
      if (uri.path === huge) throw new Error('a 5 GiB whole read');
      return readFile.call(mem, uri);
    };
    try {
      await assert.rejects(readInlinePrefix(fs, huge, VIRTUAL_FOLDER, 65_536), (e: { code?: string; message?: string }) => {
        assert.equal(e.code, 'FS_IO');
        assert.match(e.message ?? '', /^"\/rawp-virtual\/logs\/huge\.log" is 5 GiB \(5,368,709,120 bytes\), too large to inline from this rawpmem: folder: .* at most 16 MiB/);
        return true;
      });
      assert.deepEqual(reads, [], 'the file over the bound is never read');
      const head = await readInlinePrefix(fs, edge, VIRTUAL_FOLDER, 65_536);
      assert.deepEqual({ length: head.text.length, total: head.total, cut: head.cut, binary: head.binary }, { length: 65_535, total: MAX_WHOLE_READ_BYTES, cut: true, binary: false });
      assert.ok(/^a+$/.test(head.text), 'no half character at the cut');
      assert.deepEqual(reads, [edge], 'the file at the bound is one whole read');
    } finally {
      delete (mem as Partial<typeof mem>).stat;
      delete (mem as Partial<typeof mem>).readFile;
      mem.remove(`${VIRTUAL_FOLDER}/logs`);
    }
  });

  it('§16.3 decision 561: a virtual folder\'s file that grew past 16 MiB between its stat and its read is refused with its real size, as if its stat had shown it', async () => {
    const { s } = await rawp();
    const mem = memFs();
    const path = `${VIRTUAL_FOLDER}/grows.log`;
    mem.put(path, 'x'.repeat(100));
    const { readFile } = mem;
    mem.readFile = (uri) => (uri.path === path ? Buffer.alloc(MAX_WHOLE_READ_BYTES + 1, 0x78) : readFile.call(mem, uri));
    try {
      await assert.rejects(readInlinePrefix(s.shared().fs, path, VIRTUAL_FOLDER, 65_536), (e: { code?: string; message?: string }) => {
        assert.equal(e.code, 'FS_IO');
        assert.match(e.message ?? '', /is 16\.0 MiB \(16,777,217 bytes\), too large to inline/);
        return true;
      });
    } finally {
      delete (mem as Partial<typeof mem>).readFile;
      mem.remove(path);
    }
  });

  it('a dirty document is what reads see: its text and a version that changes with every keystroke', async () => {
    const { s } = await rawp();
    const fs = s.shared().fs;
    const { path, editor } = await openFresh('versions.txt', 'a\n');
    const clean = await fs.readText(path);
    await editor.edit((e) => e.insert(new vscode.Position(1, 0), 'b\n'));
    const dirty = await fs.readText(path);
    assert.equal(dirty.text, 'a\nb\n');
    assert.notEqual(dirty.version, clean.version);
    assert.equal((await fs.stat(path))?.version, dirty.version);
  });

  it('decision 490: a big dirty document (several hashing slices) has the version of its text as it would be saved, hashed in turns; a guarded edit from it succeeds and a stale one is refused', async () => {
    const { s } = await rawp();
    const fs = s.shared().fs;
    const line = 'const value = "한국어";\n';
    const big = line.repeat(Math.ceil((3 * SLICE_BYTES) / Buffer.byteLength(line)));
    const { path, editor } = await openFresh('big-dirty.ts', big);
    await editor.edit((e) => e.insert(new vscode.Position(0, 0), '// typed\n'));
    const dirtyText = '// typed\n' + big;
    const dirty = await fs.readText(path);
    assert.equal(dirty.text, dirtyText);
    assert.equal(dirty.version, versionOfBytes(Buffer.from(dirtyText, 'utf8')), 'the one-shot hash of the text as saved');
    assert.equal((await fs.stat(path))?.version, dirty.version);
    const r = await fs.updateText(path, { kind: 'replaceIfVersion', version: dirty.version }, (t) => t.replace('typed', 'edited'));
    assert.equal(editor.document.getText().slice(0, 10), '// edited\n');
    assert.equal(editor.document.isDirty, true, 'the edit of a dirty document leaves it unsaved');
    assert.equal(r.version, (await fs.readText(path)).version);
    await assert.rejects(() => fs.updateText(path, { kind: 'replaceIfVersion', version: dirty.version }, (t) => t + 'x'), (e: { code?: string }) => e.code === 'FS_STALE_VERSION');
  });

  it('edits an open document through a WorkspaceEdit: undo brings the text back; a dirty one stays unsaved', async () => {
    const { s } = await rawp();
    const fs = s.shared().fs;
    const { path, editor } = await openFresh('undo.txt', 'one\n');
    await editor.edit((e) => e.insert(new vscode.Position(1, 0), 'two\n'));
    const read = await fs.readText(path);
    const r = await fs.updateText(path, { kind: 'replaceIfVersion', version: read.version }, (t) => t.replace('one', 'ONE'));
    assert.equal(r.after, 'ONE\ntwo\n');
    assert.equal(editor.document.getText(), 'ONE\ntwo\n');
    assert.equal(editor.document.isDirty, true, 'the person\'s unsaved typing is not saved for them');
    assert.equal(readFileSync(path, 'utf8'), 'one\n');
    await vscode.window.showTextDocument(editor.document);
    await vscode.commands.executeCommand('undo');
    assert.equal(editor.document.getText(), 'one\ntwo\n');
  });

  it('a clean open document is edited and saved, so the disk has the change', async () => {
    const { s } = await rawp();
    const fs = s.shared().fs;
    const { path, editor } = await openFresh('clean.txt', 'x = 1\n');
    const read = await fs.readText(path);
    const r = await fs.writeText(path, 'x = 2\n', { kind: 'replaceIfVersion', version: read.version });
    assert.equal(editor.document.getText(), 'x = 2\n');
    assert.equal(editor.document.isDirty, false);
    assert.equal(readFileSync(path, 'utf8'), 'x = 2\n');
    assert.equal((await fs.readText(path)).version, r.version);
  });
});
