// The @ index build inside a real VS Code (issue 13), for `npm run bench:search` with
// RAWP_BENCH_VSCODE=astro[,void,…]: the corpus is written out as empty files, and inside
// code-server the extension-host test "the index build in VS Code beside the Node one"
// (test/vscode/suite/folderListing.test.ts) lists it with workspace.findFiles and builds the
// index, then does the same with the Node listing (git ls-files and the walk), checks that all
// three give the same paths, and reports the times. Needs code-server and Chromium
// (scripts/setup-vscode.sh); takes the machine for ~1 minute per corpus.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildVscodeTests } from '../../test/vscode/build';
import type { SuiteReport } from '../../test/vscode/suite/index';
import { buildVsix, launchChromium, openWorkbench, startCodeServer } from '../../test/unit/e2e/codeServer';

export interface VscodeIndexBuild {
  files: number;
  vscode_ms: number;
  node_git_ms: number;
  node_walk_ms: number;
}

export async function vscodeIndexBuild(corpusFile: string): Promise<VscodeIndexBuild> {
  const workspace = mkdtempSync(join(tmpdir(), 'rawp-bench-vscode-'));
  writeFileSync(join(workspace, 'README.md'), 'search benchmark workspace\n');
  const results = `${workspace}-results.json`;
  const { runnerVsix } = await buildVscodeTests();
  const cs = await startCodeServer({
    workspace,
    vsixes: [buildVsix(), runnerVsix],
    env: { RAWP_VSCODE_TEST_RESULTS: results, RAWP_VSCODE_TEST_GREP: 'the index build in VS Code', RAWP_BENCH_PATHS: corpusFile },
  });
  const browser = await launchChromium();
  try {
    await openWorkbench(browser, cs, workspace);
    const deadline = Date.now() + 300_000;
    while (!existsSync(results)) {
      if (Date.now() > deadline) throw new Error(`no results from the extension host\n${cs.output().slice(-2000)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    await new Promise((r) => setTimeout(r, 200));
    const report = JSON.parse(readFileSync(results, 'utf8')) as SuiteReport;
    if (report.failed > 0 || report.passed !== 1) throw new Error(`the VS Code index build did not pass: ${JSON.stringify(report.tests)}`);
    const m = report.metrics;
    return { files: m.benchCorpusFiles, vscode_ms: m.benchVscodeBuildMs, node_git_ms: m.benchGitBuildMs, node_walk_ms: m.benchWalkBuildMs };
  } finally {
    await browser.close();
    await cs.stop();
    rmSync(workspace, { recursive: true, force: true });
    rmSync(results, { force: true });
  }
}
