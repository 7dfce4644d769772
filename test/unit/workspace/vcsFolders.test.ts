// Version-control metadata is never listed (decision 636, widened after the review of 2026-12-05):
// `rawp serve` listed `.hg/hgrc` — which can hold [auth] passwords — even in scope `workspace`.
// Through git ls-files, the walk, and scope `global` (ignore rules off) alike.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { FileIndex } from '../../../src/workspace/fileIndex';
import { listFiles } from '../../../src/workspace/listFiles';
import { WorkspaceSearch } from '../../../src/workspace/workspaceSearch';
import { makeTmp, removeTmp, writeTree } from './tmpWorkspace';

const META = { '.hg/hgrc': '[auth]\nx.password = hunter2\n', '.svn/entries': '12\n', 'CVS/Root': ':pserver:me@cvs\n', '.bzr/branch/branch.conf': 'x\n', '_darcs/prefs/repos': 'x\n', 'sub/.hg/store/data': 'x\n' };

describe('workspace/vcsFolders: version-control metadata is never listed', () => {
  it('security: .hg/, .svn/, CVS/, .bzr/, _darcs/ (and .git/) are left out by the walk, by git ls-files and in scope global; the files beside them stay', async () => {
    const root = makeTmp();
    writeTree(root, { ...META, 'src/app.ts': 'x\n', 'hgrc.md': 'a doc named like it\n' });
    try {
      const walk = (await listFiles(root, { noGit: true, caseSensitive: true })).paths;
      assert.deepEqual([...walk].sort(), ['hgrc.md', 'src/app.ts'], 'the walk');
      execFileSync('git', ['init', '-q'], { cwd: root });
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'add', '-A'], { cwd: root });
      const viaGit = await listFiles(root, { caseSensitive: true });
      assert.equal(viaGit.source, 'git');
      assert.deepEqual([...viaGit.paths].sort(), ['hgrc.md', 'src/app.ts'], 'git ls-files (the metadata tracked by git all the same)');
      const index = await FileIndex.open({ roots: [root] });
      const search = new WorkspaceSearch(index);
      try {
        const global = await search.run({ query: 'hgrc', scope: 'global', max_results: 50 });
        assert.deepEqual(global?.candidates.map((c) => c.path).filter((p) => !p.endsWith('/')), ['hgrc.md'], 'scope global');
        const entries = await search.run({ query: 'entries', scope: 'global', max_results: 50 });
        assert.deepEqual(entries?.candidates.filter((c) => !c.path.endsWith('/')).map((c) => c.path), []);
      } finally {
        search.dispose();
        index.dispose();
      }
    } finally {
      removeTmp(root);
    }
  });
});
