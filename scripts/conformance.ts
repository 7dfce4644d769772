// `npm run conformance`: rebuilds docs/conformance.md — every clause of our clause catalogue
// (src/protocol/conformance/map/catalogue.ts) with the mocha tests whose titles cite its id — and
// docs/protocol/clauses.md, the catalogue itself. Nothing outside the repository is read: the
// catalogue is the project's own copy of the spec's clauses (issue 14 item 4). The test titles come
// from a dry run of mocha with the JSON reporter, so titles built in loops are seen as mocha prints them.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { CLAUSES, coverClauses, renderCatalogue, renderMap, type TestTitle } from '../src/protocol/conformance/map';

export const REPO_ROOT = resolve(__dirname, '..');
export const MAP_PATH = join(REPO_ROOT, 'docs', 'conformance.md');
export const CATALOGUE_PATH = join(REPO_ROOT, 'docs', 'protocol', 'clauses.md');

/** Every test mocha would run (per .mocharc.json), without running any; files relative to the repository. */
export function collectTests(repoRoot = REPO_ROOT): TestTitle[] {
  const dir = mkdtempSync(join(tmpdir(), 'rawp-conformance-'));
  try {
    const output = join(dir, 'tests.json');
    const mocha = require.resolve('mocha/bin/mocha.js', { paths: [repoRoot] });
    const run = spawnSync(process.execPath, [mocha, '--dry-run', '--reporter', 'json', '--reporter-option', `output=${output}`], {
      cwd: repoRoot,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    if (run.status !== 0) {
      throw new Error(`mocha --dry-run failed (exit ${run.status}); a test file does not load:\n${(run.stderr || run.stdout).slice(-4000)}`);
    }
    const report = JSON.parse(readFileSync(output, 'utf8')) as { tests: { fullTitle: string; file?: string }[] };
    return report.tests.map((t) => ({ fullTitle: t.fullTitle, file: t.file === undefined ? undefined : relative(repoRoot, t.file) }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The text docs/conformance.md should have now. */
export function generateConformanceMap(repoRoot = REPO_ROOT, tests: TestTitle[] = collectTests(repoRoot)): string {
  return renderMap(coverClauses(CLAUSES, tests));
}

if (require.main === module) {
  writeFileSync(CATALOGUE_PATH, renderCatalogue());
  const text = generateConformanceMap();
  writeFileSync(MAP_PATH, text);
  const summary = /\*\*(.+?)\*\*/.exec(text)?.[1] ?? '';
  console.log(`wrote ${CATALOGUE_PATH} and ${MAP_PATH}: ${summary}`);
}
