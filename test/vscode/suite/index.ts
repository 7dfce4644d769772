// The extension-host test suite, bundled into one file (test/vscode/build.ts) that runs INSIDE VS
// Code. Two ways in:
//  - `run()`: the @vscode/test-electron contract (extensionTestsPath), where a desktop VS Code can
//    be had (test/vscode/runElectron.ts);
//  - `runAndReport(file)`: called by the runner extension inside code-server, which writes the
//    results as JSON for the mocha test outside (test/unit/e2e/vscodeHost.test.ts) to check.
import Mocha from 'mocha';
import { renameSync, writeFileSync } from 'node:fs';

export interface TestResult {
  title: string;
  state: 'passed' | 'failed';
  error?: string;
}

export interface SuiteReport {
  passed: number;
  failed: number;
  tests: TestResult[];
  metrics: Record<string, number>;
}

/** Metrics the suites record (activation time), reported next to the results. */
export const metrics: Record<string, number> = {};

function runMocha(): Promise<SuiteReport> {
  // RAWP_VSCODE_TEST_GREP runs only the matching tests (the search benchmark's VS Code figures).
  const grep = process.env.RAWP_VSCODE_TEST_GREP;
  const mocha = new Mocha({ ui: 'bdd', timeout: 60_000, color: false, reporter: 'spec', ...(grep ? { grep } : {}) });
  // The suites are bundled: register the BDD globals, then evaluate them (require keeps it lazy).
  mocha.suite.emit('pre-require', globalThis, 'rawp-vscode-suites', mocha);
  require('./suites');
  const tests: TestResult[] = [];
  return new Promise((resolve) => {
    const runner = mocha.run(() => {
      const failed = tests.filter((t) => t.state === 'failed').length;
      resolve({ passed: tests.length - failed, failed, tests, metrics });
    });
    runner.on('pass', (t) => tests.push({ title: t.fullTitle(), state: 'passed' }));
    runner.on('fail', (t, err: Error) => tests.push({ title: t.fullTitle(), state: 'failed', error: `${err?.message ?? err}\n${err?.stack ?? ''}`.slice(0, 4000) }));
  });
}

/** @vscode/test-electron: reject when any test failed. */
export async function run(): Promise<void> {
  const report = await runMocha();
  if (report.failed > 0) throw new Error(`${report.failed} extension-host test(s) failed`);
}

export async function runAndReport(file: string): Promise<SuiteReport> {
  let report: SuiteReport;
  try {
    report = await runMocha();
  } catch (e) {
    report = { passed: 0, failed: 1, tests: [{ title: 'suite could not run', state: 'failed', error: String(e) }], metrics };
  }
  // Written aside and renamed into place, so the reader outside never sees half a file.
  writeFileSync(`${file}.part`, JSON.stringify(report, null, 2));
  renameSync(`${file}.part`, file);
  return report;
}
