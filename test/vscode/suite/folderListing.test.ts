// Issue 13: the @ index's list of a `file:` folder in VS Code (workspace.findFiles with the user's
// excludes and ignore files, folderListing.ts) against our direct listing (listFiles.ts: git
// ls-files or a walk, with the same globs as extra excludes). The direct listing may stand in for
// findFiles only where it gives the same set of paths — this test compares them, and measures both.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import * as vscode from 'vscode';
import { excludeGlobs, listFolder, useIgnoreFiles } from '../../../src/extension/folderListing';
import { FileIndex } from '../../../src/workspace/fileIndex';
import { listFiles } from '../../../src/workspace/listFiles';
import { metrics } from './index';
import { workspaceRoot } from './rawp';

function put(root: string, rel: string, text = 'x\n'): void {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), text);
}

describe('extension host: the @ index lists what VS Code search lists (findFiles vs the direct listing)', function () {
  this.timeout(120_000);
  let root: string;

  before(() => {
    root = join(workspaceRoot(), '.rawp-host-tests', 'listing');
    rmSync(root, { recursive: true, force: true });
    put(root, '.gitignore', 'build/\n*.log\n!keep.log\n');
    put(root, 'src/main.ts');
    put(root, 'src/deep/er/file.ts');
    put(root, 'src/.hidden/dot.ts');
    put(root, 'build/out.js'); // .gitignore
    put(root, 'debug.log'); // .gitignore
    put(root, 'keep.log'); // re-included
    put(root, 'node_modules/pkg/index.js'); // search.exclude default
    put(root, 'web/node_modules/x.js'); // search.exclude default, nested
    put(root, '.DS_Store'); // files.exclude default
    put(root, 'a space/b [c].md');
    put(root, 'unicodé/文件.txt');
    // A tree big enough to time: 40 folders × 50 files.
    for (let d = 0; d < 40; d++) for (let f = 0; f < 50; f++) put(root, `gen/d${d}/f${f}.ts`, '');
    execFileSync('git', ['init', '-q'], { cwd: root });
  });

  after(() => rmSync(root, { recursive: true, force: true }));

  it('§16.1.1 the same set of paths from workspace.findFiles (+ ignore files) and from listFiles (git and walk), with the user\'s files.exclude and search.exclude', async () => {
    const uri = vscode.Uri.file(root);
    const folder = { root, uri };
    const g = excludeGlobs(uri);
    assert.ok(g.search.some((p) => p.includes('node_modules')), `search.exclude has its defaults: ${g.search.join(', ')}`);
    const options = { caseSensitive: process.platform === 'linux', extraExcludes: [...g.files, ...g.search], useIgnoreFiles: useIgnoreFiles(uri) };

    let t = performance.now();
    const viaVscode = (await listFolder(folder, { excludes: true })).sort();
    const findFilesMs = performance.now() - t;
    t = performance.now();
    const viaGit = await listFiles(root, options);
    const gitMs = performance.now() - t;
    t = performance.now();
    const viaWalk = await listFiles(root, { ...options, noGit: true });
    const walkMs = performance.now() - t;

    for (const p of ['src/main.ts', 'src/deep/er/file.ts', 'src/.hidden/dot.ts', 'keep.log', '.gitignore', 'a space/b [c].md', 'unicodé/文件.txt']) assert.ok(viaVscode.includes(p), `${p} is listed`);
    for (const p of ['build/out.js', 'debug.log', 'node_modules/pkg/index.js', 'web/node_modules/x.js', '.DS_Store']) assert.ok(!viaVscode.includes(p), `${p} is hidden`);
    assert.equal(viaVscode.length, 7 + 2000);
    assert.deepEqual([...viaWalk.paths].sort(), viaVscode, 'the walk lists the same paths');
    assert.equal(viaGit.source, 'git');
    assert.deepEqual([...viaGit.paths].sort(), viaVscode, 'git ls-files lists the same paths');
    metrics.listFindFilesMs = findFilesMs;
    metrics.listGitMs = gitMs;
    metrics.listWalkMs = walkMs;
    metrics.listFiles = viaVscode.length;
  });

  it('decision 363: with rawp.search.includeIgnored the findFiles path lists what .gitignore hides, as git ls-files and the walk do; the exclude globs still apply', async () => {
    const uri = vscode.Uri.file(root);
    const g = excludeGlobs(uri);
    const options = { caseSensitive: process.platform === 'linux', extraExcludes: [...g.files, ...g.search], useIgnoreFiles: useIgnoreFiles(uri), includeIgnored: true };
    const viaVscode = (await listFolder({ root, uri }, { excludes: true, includeIgnored: true })).sort();
    for (const p of ['build/out.js', 'debug.log', 'keep.log', 'src/main.ts']) assert.ok(viaVscode.includes(p), `${p} is listed`);
    for (const p of ['node_modules/pkg/index.js', 'web/node_modules/x.js', '.DS_Store']) assert.ok(!viaVscode.includes(p), `${p} stays hidden (search.exclude / files.exclude)`);
    assert.equal(viaVscode.length, 9 + 2000);
    const viaGit = await listFiles(root, options);
    assert.equal(viaGit.source, 'git');
    assert.deepEqual([...viaGit.paths].sort(), viaVscode, 'git ls-files lists the same paths');
    assert.deepEqual([...(await listFiles(root, { ...options, noGit: true })).paths].sort(), viaVscode, 'the walk lists the same paths');
  });

  it('decision 636: scope global (the picker\'s "Search hidden files too") lists what .gitignore, files.exclude and search.exclude hide, but never version-control metadata (.git/, .hg/, .svn/: their config may hold credentials)', async () => {
    const uri = vscode.Uri.file(root);
    put(root, '.hg/hgrc', '[auth]\nx.password = hunter2\n');
    put(root, '.svn/entries', '12\n');
    const all = await listFolder({ root, uri }, { excludes: false });
    for (const p of ['build/out.js', 'debug.log', 'node_modules/pkg/index.js', 'web/node_modules/x.js', '.DS_Store', 'src/main.ts']) assert.ok(all.includes(p), `${p} is listed`);
    assert.ok(existsSync(join(root, '.git', 'config')), 'the folder is a git repository');
    assert.deepEqual(all.filter((p) => /(^|\/)(\.git|\.hg|\.svn)\//.test(p)), [], 'nothing of .git/, .hg/ or .svn/');
  });

  it('security: files under a symlinked folder are not listed, though findFiles follows links (a link to a folder outside showed its names in the picker; the picker trial of 2026-12-05)', async () => {
    const base = mkdtempSync(join(tmpdir(), 'rawp-links-'));
    const inside = join(root, 'links');
    try {
      put(base, 'outside/secret/key.txt');
      put(inside, 'own.ts');
      symlinkSync(join(base, 'outside'), join(inside, 'out-link'));
      symlinkSync(join(root, 'src'), join(inside, 'src-link'));
      const listed = await listFolder({ root, uri: vscode.Uri.file(root) }, { excludes: true });
      assert.ok(listed.includes('links/own.ts'), 'the folder\'s own file is listed');
      assert.deepEqual(listed.filter((p) => p.startsWith('links/out-link/') || p.startsWith('links/src-link/')), [], 'nothing under a linked folder');
    } finally {
      rmSync(inside, { recursive: true, force: true });
      rmSync(base, { recursive: true, force: true });
    }
  });

  it('§16.1 the index build in VS Code beside the Node one, on a real corpus (scripts/bench/data, RAWP_BENCH_PATHS): the same paths, timed', async () => {
    const corpus = process.env.RAWP_BENCH_PATHS;
    assert.ok(corpus, 'RAWP_BENCH_PATHS names a paths-*.txt.br of scripts/bench/data');
    const paths = brotliDecompressSync(readFileSync(corpus)).toString('utf8').split('\n').filter(Boolean);
    const base = mkdtempSync(join(tmpdir(), 'rawp-bench-corpus-'));
    try {
      for (const p of paths) put(base, p, '');
      execFileSync('git', ['init', '-q'], { cwd: base });
      const uri = vscode.Uri.file(base);
      const g = excludeGlobs(uri);
      const extraExcludes = [...g.files, ...g.search];
      let t = performance.now();
      const listed = await listFolder({ root: base, uri }, { excludes: true });
      const vscodeIndex = await FileIndex.fromListed([{ root: base, paths: listed, statFile: async () => undefined }]);
      const vscodeMs = performance.now() - t;
      t = performance.now();
      const gitIndex = await FileIndex.open({ roots: [base], extraExcludes });
      const gitMs = performance.now() - t;
      t = performance.now();
      const walkIndex = await FileIndex.open({ roots: [base], extraExcludes, noGit: true });
      const walkMs = performance.now() - t;
      const sorted = (i: FileIndex) => i.folders[0].index.allPaths().sort();
      assert.ok(listed.length > paths.length * 0.9, `${listed.length} of ${paths.length} listed`);
      assert.deepEqual(sorted(gitIndex), sorted(vscodeIndex), 'git ls-files and findFiles index the same paths');
      assert.deepEqual(sorted(walkIndex), sorted(vscodeIndex), 'the walk and findFiles index the same paths');
      for (const i of [vscodeIndex, gitIndex, walkIndex]) i.dispose();
      metrics.benchCorpusFiles = listed.length;
      metrics.benchVscodeBuildMs = vscodeMs;
      metrics.benchGitBuildMs = gitMs;
      metrics.benchWalkBuildMs = walkMs;
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});
