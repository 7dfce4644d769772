// The extension-host integration suites (test/vscode/suite) run INSIDE a real VS Code: code-server
// with the packaged VSIX and the test-runner extension installed. Opening the workbench in
// Chromium starts the extension host; the runner runs mocha there and writes the results as JSON,
// which this test reads and checks, one area at a time. (Where a desktop VS Code exists, the same
// suites run through @vscode/test-electron: `npm run test:vscode`.)
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import type { SuiteReport } from '../../vscode/suite/index';
import { buildVscodeTests } from '../../vscode/build';
import { buildVsix, launchChromium, REPO, startCodeServer, type CodeServer } from './codeServer';

describe('extension host: the suites inside VS Code (code-server)', function () {
  this.timeout(300_000);
  let cs: CodeServer | undefined;
  let browser: Browser | undefined;
  let workspace: string;
  let report: SuiteReport;

  before(async () => {
    workspace = mkdtempSync(join(tmpdir(), 'rawp-host-ws-'));
    cpSync(join(REPO, 'media/sample-workspace'), workspace, { recursive: true });
    const results = join(workspace, '..', `${workspace.split('/').pop()}-results.json`);
    const { runnerVsix } = await buildVscodeTests();
    // Dirty documents stay dirty until saved (desktop VS Code's default): code-server saves them
    // after 1 s, which the suites' unsaved-typing cases outlast on a slow machine.
    cs = await startCodeServer({ workspace, vsixes: [buildVsix(), runnerVsix], settings: { 'files.autoSave': 'off' }, env: { RAWP_VSCODE_TEST_RESULTS: results, RAWP_BENCH_PATHS: join(REPO, 'scripts/bench/data/paths-astro.txt.br') } });
    browser = await launchChromium();
    // Two folders (issue 13): the sample workspace on disk, and `rawpmem:/rawp-virtual`, an
    // in-memory file system the runner extension provides (test/vscode/suite/memFs.ts).
    const workspaceFile = `${workspace}.code-workspace`;
    writeFileSync(workspaceFile, JSON.stringify({ folders: [{ path: workspace }, { uri: 'rawpmem:/rawp-virtual', name: 'rawp-virtual' }] }));
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(`${cs.url}/?workspace=${encodeURIComponent(workspaceFile)}`);
    await page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
    // Bounded: the runner renames the finished file into place; read it until it parses.
    const deadline = Date.now() + 180_000;
    for (;;) {
      const parsed = existsSync(results) ? parseReport(readFileSync(results, 'utf8')) : undefined;
      if (parsed) {
        report = parsed;
        break;
      }
      if (Date.now() > deadline) throw new Error(`no results from the extension host\n${cs.output().slice(-4000)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    rmSync(results, { force: true });
    console.log(`      extension-host suites: ${report.passed} passed, ${report.failed} failed; activation ${report.metrics.activationMs?.toFixed(1)} ms (activate()), ${report.metrics.activationWallMs?.toFixed(1)} ms (with loading the bundle); services loaded after it in ${report.metrics.servicesLoadMs?.toFixed(1)} ms`);
    if (report.metrics.listFiles) console.log(`      @ index listing of ${report.metrics.listFiles} files: workspace.findFiles ${report.metrics.listFindFilesMs?.toFixed(1)} ms, git ls-files ${report.metrics.listGitMs?.toFixed(1)} ms, Node walk ${report.metrics.listWalkMs?.toFixed(1)} ms`);
    if (report.metrics.benchCorpusFiles) console.log(`      @ index build, astro corpus (${report.metrics.benchCorpusFiles} files): VS Code (findFiles) ${report.metrics.benchVscodeBuildMs?.toFixed(1)} ms, Node git ls-files ${report.metrics.benchGitBuildMs?.toFixed(1)} ms, Node walk ${report.metrics.benchWalkBuildMs?.toFixed(1)} ms`);
  });

  after(async () => {
    await browser?.close();
    await cs?.stop();
    rmSync(workspace, { recursive: true, force: true });
    rmSync(`${workspace}.code-workspace`, { force: true });
  });

  const area = (prefix: string) => () => {
    const tests = report.tests.filter((t) => t.title.startsWith(prefix));
    assert.ok(tests.length > 0, `the suite "${prefix}" ran`);
    const failed = tests.filter((t) => t.state === 'failed');
    assert.deepEqual(failed.map((t) => `${t.title}: ${t.error}`), []);
  };

  it('activation and commands: activates, registers every contributed command, contributes the Chat view', area('extension host: activation and commands'));
  it('webview: the Chat view resolves with a strict nonce CSP', area('extension host: the chat webview view'));
  it('read-before-write: the VS Code FsBackend never overwrites unsaved typing; edits keep undo history', area('extension host: the VS Code FsBackend'));
  it('settings: every rawp.* setting is described and read live', area('extension host: settings'));
  it('sessions: New Session starts the built-in agent (§13.1)', area('extension host: sessions'));
  it('sharing: a shared session is reachable by a master with the token; stop sharing disconnects it (§2.4)', area('extension host: sharing a session with remote masters'));
  it('editor: file references open at the line; an edit opens in vscode.diff, or as its patch once the file changed', area('extension host: the editor side of the chat'));
  it('read-before-write: the FsBackend contract passes for the VS Code backend over file: and over an extension\'s file system (issue 13)', () => {
    area('FsBackend contract: the VS Code backend over a file: folder')();
    area('FsBackend contract: the VS Code backend over an extension\'s file system')();
  });
  it('§16.1 a virtual workspace folder: the @ picker finds its files, the built-in agent edits one through the ledger, files.exclude applies live (issue 13)', area('extension host: a virtual workspace folder'));
  it('§16.1.1 the @ index of a file: folder: workspace.findFiles and the direct listing give the same paths (issue 13)', area('extension host: the @ index lists what VS Code search lists'));
  it('issue 17: a rewind restores an open document through the editor (undo survives); unsaved typing is a conflict until forced', area('extension host: checkpoint rewind through the editor'));
  it('no suite failed and activation time was measured', () => {
    assert.equal(report.failed, 0);
    assert.ok(report.passed >= 15, `${report.passed} passed`);
    assert.ok(Number.isFinite(report.metrics.activationMs));
  });
});

/** The runner's report, or undefined while the file is not whole yet. */
function parseReport(text: string): SuiteReport | undefined {
  try {
    return JSON.parse(text) as SuiteReport;
  } catch {
    return undefined;
  }
}
