// Issue 15, the @ picker everywhere (decision 363): folders as well as files can be referenced
// (spec file-reference.md §16.1.2 candidates, §16.2 tokens, §16.3 adapter conversion), and the
// setting "include ignored files" is honoured by the git and the walker listing alike.
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { convertFileReferences } from '../../../src/agents/fileReferences';
import { encodePrompt, FOLDER_MIME_TYPE } from '../../../src/protocol/fileReference';
import { FileIndex } from '../../../src/workspace/fileIndex';
import { listFiles } from '../../../src/workspace/listFiles';
import { WorkspaceSearch } from '../../../src/workspace/workspaceSearch';
import { git, gitInit, makeTmp, removeTmp, writeTree } from './tmpWorkspace';

const TREE = {
  '.gitignore': 'build/\n*.log\n',
  'src/audit/log.ts': 'export {};\n',
  'src/audit/trail.ts': 'export {};\n',
  'src/auth.ts': 'export {};\n',
  'build/out.js': '//\n',
  'debug.log': 'x\n',
  'README.md': '# r\n',
};

describe('workspace: folder references and "include ignored files" (issue 15, decision 363)', () => {
  let root: string;
  beforeEach(() => {
    root = makeTmp('rawp-folders-');
    writeTree(root, TREE);
    gitInit(root);
    git(root, 'add', '.gitignore', 'src', 'README.md');
    git(root, 'commit', '-qm', 'init');
  });
  afterEach(() => removeTmp(root));

  for (const noGit of [false, true]) {
    const how = noGit ? 'the walk' : 'git';
    it(`rawp.search.includeIgnored through ${how}: off hides what .gitignore hides, on lists it too; .git never`, async () => {
      const off = await listFiles(root, { caseSensitive: true, noGit });
      assert.equal(off.source, noGit ? 'walk' : 'git');
      assert.deepEqual(off.paths.sort(), ['.gitignore', 'README.md', 'src/audit/log.ts', 'src/audit/trail.ts', 'src/auth.ts']);
      const on = await listFiles(root, { caseSensitive: true, noGit, includeIgnored: true });
      assert.equal(on.source, noGit ? 'walk' : 'git');
      assert.deepEqual(on.paths.sort(), ['.gitignore', 'README.md', 'build/out.js', 'debug.log', 'src/audit/log.ts', 'src/audit/trail.ts', 'src/auth.ts']);
      assert.ok(!on.paths.some((p) => p.startsWith('.git/')));
      const extra = await listFiles(root, { caseSensitive: true, noGit, includeIgnored: true, extraExcludes: ['build/**'] });
      assert.ok(!extra.paths.includes('build/out.js'), 'exclude globs (files.exclude) still apply');
    });
  }

  it('§16.1.2 the picker offers folders (path ending in "/", inode/directory) merged with files; an ignored folder only with the setting', async () => {
    const search = new WorkspaceSearch(await FileIndex.open({ roots: [root] }), { folders: true });
    const r = await search.run({ query: 'audit' });
    const folder = r?.candidates.find((c) => c.path === 'src/audit/');
    assert.ok(folder, JSON.stringify(r?.candidates.map((c) => c.path)));
    assert.equal(folder.name, 'audit');
    assert.equal(folder.directory, 'src');
    assert.equal(folder.mime_type, FOLDER_MIME_TYPE);
    assert.equal(folder.extension, undefined);
    assert.ok((folder.match_ranges ?? []).length > 0);
    assert.equal((await search.run({ query: 'build' }))?.candidates.some((c) => c.path === 'build/'), false, 'ignored: not offered');
    assert.equal((await search.run({ query: 'audit', filters: { extensions: ['.ts'] } }))?.candidates.some((c) => c.path.endsWith('/')), false, 'an extension filter asks for files');
    const withIgnored = new WorkspaceSearch(await FileIndex.open({ roots: [root], includeIgnored: true }), { folders: true });
    assert.ok((await withIgnored.run({ query: 'build' }))?.candidates.some((c) => c.path === 'build/'));
    assert.ok((await withIgnored.run({ query: 'debuglog' }))?.candidates.some((c) => c.path === 'debug.log'));
    const filesOnly = new WorkspaceSearch(await FileIndex.open({ roots: [root] }));
    assert.equal((await filesOnly.run({ query: 'audit' }))?.candidates.some((c) => c.path.endsWith('/')), false, 'off unless asked for');
  });

  it('§16.2 a folder token: name is its last segment, MIME inode/directory, no extension', () => {
    const e = encodePrompt([{ kind: 'text', text: 'look in ' }, { kind: 'file', path: 'src/audit/' }]);
    assert.equal(e.prompt_text, 'look in <@file:ref_0|src/audit/>');
    assert.deepEqual(e.file_references, [{ ref_id: 'ref_0', path: 'src/audit/', name: 'audit', mime_type: FOLDER_MIME_TYPE, workspace_relative_path: 'src/audit/' }]);
  });

  it('§16.3 adapters get a folder in their form: a mention, a label, a bounded listing, a command-line path; never as a file to read', async () => {
    const { prompt_text, file_references } = encodePrompt([{ kind: 'text', text: 'review ' }, { kind: 'file', path: 'src/audit/' }, { kind: 'text', text: ' and ' }, { kind: 'file', path: 'src/auth.ts' }]);
    const run = (strategy: Parameters<typeof convertFileReferences>[2]['strategy']) => convertFileReferences(prompt_text, file_references, { roots: [root], strategy });
    const mention = await run({ kind: 'separate', mention: (p) => `@${p}` });
    assert.equal(mention.text, 'review @src/audit/ and @src/auth.ts');
    assert.deepEqual(mention.files.map((f) => f.path), ['src/auth.ts'], 'only the file is handed over to read');
    assert.deepEqual(mention.errors, []);
    assert.equal((await run({ kind: 'separate' })).text, 'review src/audit/ and');
    assert.equal((await run({ kind: 'label' })).text, 'review [Folder: src/audit/] and [File: src/auth.ts]');
    const inline = await run({ kind: 'inline' });
    assert.match(inline.text, /^review \[Folder: src\/audit\/\]\n```\nlog\.ts\ntrail\.ts\n```\n and \[File: src\/auth\.ts\]/);
    const args = await run({ kind: 'arguments' });
    assert.deepEqual(args.args, [join(root, 'src/auth.ts'), join(root, 'src/audit')]);
  });

  it('§16.3 a folder reference that leaves the workspace falls back to its literal text', async () => {
    const { prompt_text, file_references } = encodePrompt([{ kind: 'file', path: '../outside/' }]);
    const r = await convertFileReferences(prompt_text, file_references, { roots: [root], strategy: { kind: 'label' } });
    assert.equal(r.text, '../outside/');
    assert.equal(r.errors[0]?.code, 'FS_OUTSIDE_WORKSPACE');
  });
});
