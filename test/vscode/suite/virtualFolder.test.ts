// Issue 13: a workspace folder VS Code opens only through an extension's file system provider
// (scheme `rawpmem`, test/vscode/suite/memFs.ts) is searched, read and edited like a folder on disk:
// the @ picker (the §16.1 search the view uses) finds its files, the built-in agent reads and edits
// one through the read-before-write ledger, and `files.exclude` hides files from the picker live.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { Services } from '../../../src/extension/services';
import { MEM_SCHEME, VIRTUAL_FOLDER, memFs } from './memFs';
import { TestMaster } from './master';
import { eventually, rawp, workspaceRoot } from './rawp';
import { readInlinePrefix } from '../../../src/agents/inlinePrefix';

const FOLDER = VIRTUAL_FOLDER;
const folderUri = () => vscode.Uri.from({ scheme: MEM_SCHEME, path: FOLDER });

async function search(s: Services, query: string, scope?: 'global'): Promise<string[]> {
  const r = await s.fileSearch({ query_id: `q-${Math.random().toString(36).slice(2)}`, query, max_results: 50, ...(scope ? { scope } : {}) }, new AbortController().signal);
  return r.candidates.map((c) => c.path);
}

async function setExclude(section: 'files', value: Record<string, boolean> | undefined): Promise<void> {
  await vscode.workspace.getConfiguration(section).update('exclude', value, vscode.ConfigurationTarget.Global);
}

describe('extension host: a virtual workspace folder (FileSystemProvider) through the VS Code backend', function () {
  this.timeout(120_000);
  const mem = memFs();
  let master: TestMaster | undefined;

  before(async () => {
    // The test workspace (vscodeHost.test.ts) opens rawpmem:/rawp-virtual as its second folder;
    // the runner seeded its files (adding a folder at run time would restart the extension host).
    assert.ok(vscode.workspace.workspaceFolders?.some((f) => f.uri.toString() === folderUri().toString()), 'the virtual folder is a workspace folder');
  });

  after(async () => {
    master?.close();
    await setExclude('files', undefined);
  });

  it('§16.1.1 §16.1.2 the @ picker finds the files of the provider\'s folder (and of the disk folder beside it)', async () => {
    const { s } = await rawp();
    assert.ok(s.shared().fs.roots.includes(FOLDER), `the backend's roots: ${s.shared().fs.roots.join(', ')}`);
    const found = await eventually(async () => {
      const paths = await search(s, 'plan');
      return paths.includes('rawp-virtual/notes/plan.md') ? paths : undefined;
    }, 'plan.md in the picker');
    assert.equal(found[0], 'rawp-virtual/notes/plan.md');
    assert.ok((await search(s, 'app.ts')).includes('rawp-virtual/src/app.ts'));
    // A file created through the provider shows up without a re-open (VS Code's watcher).
    mem.put(`${FOLDER}/notes/later.md`, 'later\n');
    await eventually(async () => (await search(s, 'later.md')).includes('rawp-virtual/notes/later.md') || undefined, 'a created file in the picker');
    mem.remove(`${FOLDER}/notes/later.md`);
    await eventually(async () => !(await search(s, 'later.md')).includes('rawp-virtual/notes/later.md') || undefined, 'a deleted file leaves the picker');
  });

  it('read-before-write: the built-in agent refuses an unread overwrite, reads and edits through the ledger, refuses a stale edit after a change through the provider; Grep and LS see the provider\'s files', async () => {
    const { s } = await rawp();
    const id = await s.host.create({ agent: 'builtin', name: 'virtual folder' });
    master = await TestMaster.connect(s, id);
    await master.until(() => master!.frames.some((f) => f.type === 'session.capabilities'), 'capabilities');
    const file = `${FOLDER}/notes/plan.md`;

    const unread = await master.turn(`write ${file}: overwritten unread`);
    assert.match(String(unread.results.at(-1)?.output), /FS_EXISTS/, unread.text);
    assert.equal(Buffer.from(mem.get(file)!).toString(), '# Plan\nstatus: draft\n', 'nothing was written');

    const read = await master.turn(`read ${file}`);
    assert.equal(read.results.at(-1)?.status, 'success');
    assert.match(String(read.results.at(-1)?.output), /status: draft/);

    mem.put(file, '# Plan\nstatus: draft\nowner: someone else\n'); // a change through the provider
    const stale = await master.turn(`replace \`draft\` with \`final\` in ${file}`);
    assert.ok(stale.results.some((r) => /FS_STALE_VERSION/.test(String(r.output))), `${stale.text}\n${JSON.stringify(stale.results)}`);
    assert.equal(Buffer.from(mem.get(file)!).toString(), '# Plan\nstatus: draft\nowner: someone else\n', 'the stale edit wrote nothing');

    await master.turn(`read ${file}`);
    const edit = await master.turn(`replace \`draft\` with \`final\` in ${file}`);
    assert.equal(edit.results.at(-1)?.status, 'success', `${edit.text}\n${JSON.stringify(edit.results)}`);
    // The search tools go through the same backend: Grep and LS see the provider's files.
    const grep = await master.turn(`find final in ${FOLDER}`);
    assert.match(String(grep.results.at(-1)?.output), /plan\.md.*final|final.*plan\.md|plan\.md[\s\S]*status: final/, `${grep.text}\n${JSON.stringify(grep.results)}`);
    const ls = await master.turn(`ls ${FOLDER}/notes`);
    assert.match(String(ls.results.at(-1)?.output), /plan\.md/);
    // The change is visible through the provider itself, and through VS Code's file API.
    assert.equal(Buffer.from(mem.get(file)!).toString(), '# Plan\nstatus: final\nowner: someone else\n');
    assert.equal(Buffer.from(await vscode.workspace.fs.readFile(vscode.Uri.from({ scheme: MEM_SCHEME, path: file }))).toString(), '# Plan\nstatus: final\nowner: someone else\n');
  });

  it('read-before-write: unsaved typing in a document of the provider\'s folder is the file for the backend (stale write refused); an edit goes through a WorkspaceEdit and undo brings the text back', async () => {
    const { s } = await rawp();
    const fs = s.shared().fs;
    const path = `${FOLDER}/src/app.ts`;
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.from({ scheme: MEM_SCHEME, path }));
    const editor = await vscode.window.showTextDocument(doc, { preview: false });
    try {
      const seen = await fs.readText(path);
      assert.ok(await editor.edit((e) => e.insert(new vscode.Position(0, 0), '// typed by a person\n')));
      assert.equal(doc.isDirty, true);
      await assert.rejects(
        () => fs.writeText(path, 'agent text\n', { kind: 'replaceIfVersion', version: seen.version }),
        (e: unknown) => (e as { name?: string }).name === 'FsError' && (e as { code?: string }).code === 'FS_STALE_VERSION',
      );
      const dirty = await fs.readText(path);
      assert.equal(dirty.text, '// typed by a person\nexport const app = 1;\n');
      const r = await fs.updateText(path, { kind: 'replaceIfVersion', version: dirty.version }, (t) => t.replace('app = 1', 'app = 2'));
      assert.equal(r.after, '// typed by a person\nexport const app = 2;\n');
      assert.equal(doc.getText(), r.after);
      assert.equal(doc.isDirty, true, 'the person\'s unsaved typing is not saved for them');
      assert.equal(Buffer.from(mem.get(path)!).toString(), 'export const app = 1;\n', 'the provider still has the saved text');
      await vscode.window.showTextDocument(doc);
      await vscode.commands.executeCommand('undo');
      assert.equal(doc.getText(), '// typed by a person\nexport const app = 1;\n');
    } finally {
      await vscode.commands.executeCommand('workbench.action.files.revert').then(undefined, () => undefined);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  });

  it('§16.3 decision 560: an inlined reference to a file of the provider\'s folder is its whole read, cut on a character boundary (providers have no range read)', async () => {
    const { s } = await rawp();
    const path = `${FOLDER}/notes/long.md`;
    mem.put(path, 'abcdefghi' + 'é' + 'z'.repeat(50));
    try {
      assert.deepEqual(await readInlinePrefix(s.shared().fs, path, FOLDER, 10), { text: 'abcdefghi', total: 61, cut: true, binary: false });
      assert.deepEqual(await readInlinePrefix(s.shared().fs, path, FOLDER, 1000), { text: 'abcdefghi' + 'é' + 'z'.repeat(50), total: 61, cut: false, binary: false });
    } finally {
      mem.remove(path);
    }
  });

  it('§16.1.1 a files.exclude entry hides a file from the @ picker; removing it brings it back without a reload (virtual and disk folders); scope global still shows it', async () => {
    const { s } = await rawp();
    const dir = join(workspaceRoot(), '.rawp-host-tests', 'excluded');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'hideme-disk.txt'), 'on disk\n');
    const virtual = 'rawp-virtual/private/hideme-virtual.txt';
    const disk = (paths: string[]) => paths.some((p) => p.endsWith('.rawp-host-tests/excluded/hideme-disk.txt'));
    await eventually(async () => {
      const paths = await search(s, 'hideme');
      return (paths.includes(virtual) && disk(paths)) || undefined;
    }, 'both files in the picker before the exclude');

    await setExclude('files', { '**/hideme-*.txt': true });
    await eventually(async () => {
      const paths = await search(s, 'hideme');
      return (!paths.includes(virtual) && !disk(paths)) || undefined;
    }, 'both files hidden by files.exclude');
    assert.ok((await search(s, 'plan.md')).includes('rawp-virtual/notes/plan.md'), 'other files stay');
    // Scope `global` shows what excludes hide (still only inside the folders).
    const global = await search(s, 'hideme', 'global');
    assert.ok(global.includes(virtual) && disk(global), `scope global: ${global.join(', ')}`);

    await setExclude('files', undefined);
    await eventually(async () => {
      const paths = await search(s, 'hideme');
      return (paths.includes(virtual) && disk(paths)) || undefined;
    }, 'both files back once the entry is removed');
  });
});
