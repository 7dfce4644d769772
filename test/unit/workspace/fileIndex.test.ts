// The workspace file index on real directories: listing from git and from a walk, nested ignore
// files, case-sensitive matching, symlinks, extra excludes and live updates.
import { strict as assert } from 'node:assert';
import { mkdirSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FileIndex } from '../../../src/workspace/fileIndex';
import { listFiles } from '../../../src/workspace/listFiles';
import { watchTree } from '../../../src/workspace/nodeWatcher';
import { git, gitInit, makeTmp, removeTmp, until, writeTree } from './tmpWorkspace';

const sorted = (xs: readonly string[]) => [...xs].sort();

/** A tree that exercises nested .gitignore, .ignore and .git/info/exclude. */
function ignoreTree(root: string): void {
  writeTree(root, {
    '.gitignore': 'build/\n*.log\n!keep.log\n',
    'src/a.ts': '',
    'src/b.log': '',
    'src/keep.log': '',
    'src/gen/.gitignore': '*.js\n',
    'src/gen/out.js': '',
    'src/gen/out.ts': '',
    'build/x.ts': '',
    'docs/.ignore': 'draft*\n',
    'docs/draft1.md': '',
    'docs/final.md': '',
    'asm/x.S': '',
    'asm/y.s': '',
    'asm/.gitignore': '*.s\n',
    'private/secret.txt': '',
  });
}

const VISIBLE = [
  '.gitignore',
  'asm/.gitignore',
  'asm/x.S',
  'docs/.ignore',
  'docs/final.md',
  'src/a.ts',
  'src/gen/.gitignore',
  'src/gen/out.ts',
  'src/keep.log',
];

describe('workspace/fileIndex: listing', () => {
  let root: string;
  beforeEach(() => {
    root = makeTmp();
  });
  afterEach(() => removeTmp(root));

  for (const mode of ['walk', 'git'] as const) {
    it(`§16.1.1 (${mode}) honours nested .gitignore, .ignore and .git/info/exclude`, async () => {
      ignoreTree(root);
      if (mode === 'git') {
        gitInit(root);
        git(root, 'add', 'src/a.ts', '.gitignore');
        git(root, 'commit', '-qm', 'init');
      } else {
        mkdirSync(join(root, '.git', 'info'), { recursive: true });
      }
      writeFileSync(join(root, '.git', 'info', 'exclude'), 'private/\n');
      const listing = await listFiles(root, { caseSensitive: true, noGit: mode === 'walk' });
      assert.equal(listing.source, mode);
      assert.deepEqual(sorted(listing.paths), VISIBLE);
    });

    it(`§16.1.1 (${mode}) ignore matching is case-sensitive: a *.s rule does not hide x.S`, async () => {
      writeTree(root, { '.gitignore': '*.s\nBuild/\n', 'x.S': '', 'y.s': '', 'build/kept.c': '', 'Build/gone.c': '' });
      if (mode === 'git') gitInit(root);
      const listing = await listFiles(root, { caseSensitive: true, noGit: mode === 'walk' });
      assert.deepEqual(sorted(listing.paths), ['.gitignore', 'build/kept.c', 'x.S']);
    });

    it(`§16.1.1 (${mode}) symlinks are never followed out of the workspace; a link to a file inside is listed`, async () => {
      const outside = makeTmp('rawp-outside-');
      try {
        writeTree(outside, { 'secret.txt': 's', 'dir/inner.txt': '' });
        writeTree(root, { 'real/file.ts': '', 'real/sub/deep.ts': '' });
        symlinkSync(join(outside, 'secret.txt'), join(root, 'out-file'));
        symlinkSync(join(outside, 'dir'), join(root, 'out-dir'));
        symlinkSync(join(root, 'real', 'file.ts'), join(root, 'in-file'));
        symlinkSync(join(root, 'real'), join(root, 'in-dir'));
        symlinkSync(join(root, 'missing'), join(root, 'dangling'));
        if (mode === 'git') gitInit(root);
        const listing = await listFiles(root, { caseSensitive: true, noGit: mode === 'walk' });
        assert.deepEqual(sorted(listing.paths), ['in-file', 'real/file.ts', 'real/sub/deep.ts']);
      } finally {
        removeTmp(outside);
      }
    });
  }

  it('§16.1.1 git: tracked files deleted from the work tree are not listed; untracked ones are', async () => {
    writeTree(root, { 'a.ts': '', 'b.ts': '' });
    gitInit(root);
    git(root, 'add', '.');
    git(root, 'commit', '-qm', 'init');
    unlinkSync(join(root, 'a.ts'));
    writeTree(root, { 'new.ts': '' });
    const listing = await listFiles(root, { caseSensitive: true });
    assert.equal(listing.source, 'git');
    assert.deepEqual(sorted(listing.paths), ['b.ts', 'new.ts']);
  });

  it('§16.1.1 a folder that an outer repository ignores is walked with its own ignore files (the sample workspace under .cache/)', async () => {
    // The outer repository ignores `.cache/`; the workspace is a folder inside it, as ./scripts/run.sh lays it out.
    gitInit(root);
    writeTree(root, { '.gitignore': '.cache/\n', 'top.ts': '', '.cache/ws/src/math.ts': '', '.cache/ws/notes.txt': '', '.cache/ws/.gitignore': 'build/\n', '.cache/ws/build/out.js': '' });
    const listing = await listFiles(join(root, '.cache', 'ws'), { caseSensitive: true });
    assert.equal(listing.source, 'walk');
    assert.deepEqual(sorted(listing.paths), ['.gitignore', 'notes.txt', 'src/math.ts']);
    // A folder the outer repository does not ignore still comes from git.
    writeTree(root, { 'sub/a.ts': '' });
    const plain = await listFiles(join(root, 'sub'), { caseSensitive: true });
    assert.equal(plain.source, 'git');
    assert.deepEqual(plain.paths, ['a.ts']);
  });

  it('§16.1.1 extra excludes (files.exclude / search.exclude globs) hide files and whole directories', async () => {
    writeTree(root, { 'a.ts': '', 'out/x.ts': '', 'src/y.snap': '', 'src/z.ts': '' });
    for (const noGit of [true, false]) {
      if (!noGit) gitInit(root);
      const listing = await listFiles(root, { caseSensitive: true, noGit, extraExcludes: ['**/out', '**/*.snap'] });
      assert.deepEqual(sorted(listing.paths), ['a.ts', 'src/z.ts'], `noGit=${noGit}`);
    }
  });

  it('§16.1.1 no cap on the number of files: 6,000 files are all indexed', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 6_000; i++) files[`d${i % 40}/f${i}.txt`] = '';
    writeTree(root, files);
    const index = await FileIndex.open({ roots: [root], noGit: true });
    try {
      assert.equal(index.folders[0].index.size, 6_000);
    } finally {
      index.dispose();
    }
  });
});

describe('workspace/fileIndex: live updates', () => {
  let root: string;
  beforeEach(() => {
    root = makeTmp();
  });
  afterEach(() => removeTmp(root));

  it('§16.1.1 create, delete and rename are visible as soon as the batch is applied', async () => {
    writeTree(root, { 'a.ts': '', 'dir/b.ts': '', 'dir/c.ts': '' });
    const index = await FileIndex.open({ roots: [root], noGit: true });
    const folder = index.folders[0].index;
    try {
      writeTree(root, { 'new.ts': '' });
      await index.applyChanges([{ kind: 'created', path: join(root, 'new.ts') }]);
      assert.ok(folder.has('new.ts'));
      unlinkSync(join(root, 'a.ts'));
      await index.applyChanges([{ kind: 'deleted', path: join(root, 'a.ts') }]);
      assert.ok(!folder.has('a.ts'));
      renameSync(join(root, 'dir'), join(root, 'moved'));
      await index.applyChanges([
        { kind: 'deleted', path: join(root, 'dir') },
        { kind: 'created', path: join(root, 'moved') },
      ]);
      assert.deepEqual(sorted(folder.allPaths()), ['moved/b.ts', 'moved/c.ts', 'new.ts']);
      // A file re-created at a deleted path comes back once, not twice.
      writeTree(root, { 'a.ts': '' });
      await index.applyChanges([{ kind: 'created', path: join(root, 'a.ts') }, { kind: 'created', path: join(root, 'a.ts') }]);
      assert.deepEqual(sorted(folder.allPaths()), ['a.ts', 'moved/b.ts', 'moved/c.ts', 'new.ts']);
    } finally {
      index.dispose();
    }
  });

  it('§16.1.1 created files that ignore rules hide, and symlinks out of the workspace, stay out', async () => {
    const outside = makeTmp('rawp-outside-');
    writeTree(root, { '.gitignore': 'dist/\n', 'a.ts': '' });
    writeTree(outside, { 'x.txt': '' });
    const index = await FileIndex.open({ roots: [root], noGit: true });
    try {
      writeTree(root, { 'dist/bundle.js': '' });
      symlinkSync(join(outside, 'x.txt'), join(root, 'escape.txt'));
      await index.applyChanges([
        { kind: 'created', path: join(root, 'dist/bundle.js') },
        { kind: 'created', path: join(root, 'escape.txt') },
      ]);
      assert.deepEqual(sorted(index.folders[0].index.allPaths()), ['.gitignore', 'a.ts']);
    } finally {
      index.dispose();
      removeTmp(outside);
    }
  });

  it('§16.1.1 changing a .gitignore re-lists the folder', async () => {
    writeTree(root, { 'a.ts': '', 'b.log': '' });
    const index = await FileIndex.open({ roots: [root], noGit: true });
    try {
      assert.ok(index.folders[0].index.has('b.log'));
      writeTree(root, { '.gitignore': '*.log\n' });
      await index.applyChanges([{ kind: 'created', path: join(root, '.gitignore') }]);
      assert.deepEqual(sorted(index.folders[0].index.allPaths()), ['.gitignore', 'a.ts']);
    } finally {
      index.dispose();
    }
  });

  it('§16.1.1 the overlay folds into a new snapshot in the background without losing changes made meanwhile', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 50; i++) files[`f${i}.ts`] = '';
    writeTree(root, files);
    const index = await FileIndex.open({ roots: [root], noGit: true, rebuildThreshold: 10, rebuildDelayMs: 20 });
    const folder = index.folders[0].index;
    try {
      const before = folder.snapshot;
      const created = Array.from({ length: 12 }, (_, i) => `g${i}.ts`);
      writeTree(root, Object.fromEntries(created.map((p) => [p, ''])));
      await index.applyChanges(created.map((p) => ({ kind: 'created' as const, path: join(root, p) })));
      // The threshold started a rebuild; a deletion arrives while it runs.
      unlinkSync(join(root, 'f0.ts'));
      await index.applyChanges([{ kind: 'deleted', path: join(root, 'f0.ts') }]);
      await until(() => folder.snapshot !== before && folder.overlaySize === 0);
      const expected = [...Object.keys(files).filter((p) => p !== 'f0.ts'), ...created].sort();
      assert.deepEqual(sorted(folder.allPaths()), expected);
      assert.ok(folder.snapshot.has('g11.ts'), 'the new files are in the new snapshot');
    } finally {
      index.dispose();
    }
  });

  it('§16.1.1 with the Node watcher, files created and deleted on disk appear and disappear by themselves', async () => {
    writeTree(root, { 'a.ts': '', 'sub/b.ts': '' });
    const index = await FileIndex.open({ roots: [root], noGit: true });
    index.attach((listener) => watchTree([root], listener, { batchMs: 10 }));
    const folder = index.folders[0].index;
    try {
      writeTree(root, { 'sub/fresh.ts': 'x' });
      await until(() => folder.has('sub/fresh.ts'));
      rmSync(join(root, 'sub'), { recursive: true });
      await until(() => !folder.has('sub/b.ts') && !folder.has('sub/fresh.ts'));
      assert.deepEqual(sorted(folder.allPaths()), ['a.ts']);
    } finally {
      index.dispose();
    }
  });
});
