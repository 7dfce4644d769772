// `npm run conformance`: rebuilds docs/conformance.md — every MUST / MUST NOT clause of the spec
// and the mocha tests whose titles cite it. The test titles come from a dry run of mocha with the
// JSON reporter, so titles built in loops are seen as mocha prints them.
// The spec lives in the read-only shared/ folder beside the repository (CI clones the repo
// elsewhere with shared/ next to it); RAWP_SPEC_DIR overrides the folder.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { coverClauses, extractClauses, renderMap, type TestTitle } from '../src/protocol/conformance/map';

export const REPO_ROOT = resolve(__dirname, '..');
export const MAP_PATH = join(REPO_ROOT, 'docs', 'conformance.md');
const SPEC_FILE = 'rawp-dps-1.0.md';

export function specPath(repoRoot = REPO_ROOT, env: NodeJS.ProcessEnv = process.env): string {
  const dir = env.RAWP_SPEC_DIR ? resolve(env.RAWP_SPEC_DIR) : resolve(repoRoot, '..', 'shared', 'spec');
  return join(dir, SPEC_FILE);
}

/** Every test mocha would run (per .mocharc.json), without running any. */
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
    return report.tests.map((t) => ({ fullTitle: t.fullTitle, file: t.file }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The text docs/conformance.md should have now. */
export function generateConformanceMap(repoRoot = REPO_ROOT, tests: TestTitle[] = collectTests(repoRoot)): string {
  const spec = readFileSync(specPath(repoRoot), 'utf8');
  return renderMap(coverClauses(extractClauses(spec), tests), `shared/spec/${SPEC_FILE}`);
}

if (require.main === module) {
  const text = generateConformanceMap();
  writeFileSync(MAP_PATH, text);
  const summary = /\*\*(.+?)\*\*/.exec(text)?.[1] ?? '';
  console.log(`wrote ${MAP_PATH}: ${summary}`);
}
