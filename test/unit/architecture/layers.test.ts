// DESIGN.md's layers, checked by dependency-cruiser with the rules in .dependency-cruiser.cjs:
// only src/extension imports 'vscode'; src/protocol imports only zod; src/session only
// src/protocol; src/tools never src/agents; webview-ui only src/protocol from src/; node:fs only
// in src/workspace, src/host, src/cli, src/extension; the view never imports preact/compat; and no import runs back up the stack
// protocol < session < workspace < tools < commands < agents < remote < host < cli | extension.
// Zero violations, zero exceptions: the first test fails on any, naming the rule and the import.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const root = join(__dirname, '..', '..', '..');
const CONFIG = join(root, '.dependency-cruiser.cjs');
const CRUISER = join(root, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
}
interface Summary {
  violations: Violation[];
  totalCruised: number;
}

/** Runs dependency-cruiser over `dirs` from `cwd` with the repository's rules. */
function cruise(cwd: string, dirs: string[]): Summary {
  const run = spawnSync(process.execPath, [CRUISER, '--config', CONFIG, '--output-type', 'json', ...dirs], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    timeout: 240_000,
  });
  // Exit code = number of errors; the JSON report is printed either way.
  if (run.error) throw run.error;
  if (!run.stdout.trim().startsWith('{')) throw new Error(`dependency-cruiser failed (exit ${run.status}):\n${run.stderr.slice(-4000)}`);
  return (JSON.parse(run.stdout) as { summary: Summary }).summary;
}

// The fixture's node_modules is a link to the repository's, which resolves to its real path.
const show = (v: Violation): string => `${v.rule.name}: ${v.from} -> ${v.to.replace(/^.*?node_modules\//, 'node_modules/')}`;

describe('architecture: the layers of DESIGN.md (dependency-cruiser)', function () {
  this.timeout(300_000);

  it('src/ and webview-ui/src have zero violations of the layer rules', () => {
    const summary = cruise(root, ['src', 'webview-ui/src']);
    assert.ok(summary.totalCruised > 200, `dependency-cruiser saw only ${summary.totalCruised} modules`);
    assert.deepEqual(summary.violations.map(show), []);
  });

  it('each rule fires on its kind of import, and allowed imports pass (so no rule is silently dead)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rawp-layers-'));
    try {
      const files: Record<string, string> = {
        'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'commonjs', moduleResolution: 'node', strict: true } }),
        'src/protocol/ok.ts': "import { z } from 'zod';\nexport const s = z.string();\n",
        'src/protocol/bad.ts': "import { join } from 'node:path';\nexport const j = join;\n",
        'src/session/bad.ts': "import type * as vscode from 'vscode';\nexport type V = typeof vscode;\n",
        'src/workspace/ok.ts': "import { readFileSync } from 'node:fs';\nexport const r = readFileSync;\n",
        'src/tools/bad.ts': "import { a } from '../agents/a';\nexport const t = a;\n",
        'src/agents/a.ts': "import { promises } from 'node:fs';\nexport const a = promises;\n",
        'src/remote/bad.ts': "import { h } from '../host/h';\nexport const r = h;\n",
        'src/host/h.ts': "import { s } from '../protocol/ok';\nexport const h = s;\n",
        'src/host/ok.ts': "export { r } from '../remote/bad';\n",
        'src/cli/bad.ts': "import { e } from '../extension/e';\nexport const c = e;\n",
        'src/extension/e.ts': "import * as vscode from 'vscode';\nexport const e = vscode;\n",
        'src/commands/bad.ts': "import { m } from './missing';\nexport const c = m;\n",
        'webview-ui/src/compat.ts': "import { memo } from 'preact/compat';\nexport const m = memo;\n",
        'webview-ui/src/ok.ts': "import { h } from 'preact';\nexport const p = h;\n",
        'webview-ui/src/bad.ts': "import type { V } from '../../src/session/bad';\nimport { s } from '../../src/protocol/ok';\nexport type W = V;\nexport const w = s;\n",
      };
      for (const [name, text] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, name)), { recursive: true });
        writeFileSync(join(dir, name), text);
      }
      symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
      const found = cruise(dir, ['src', 'webview-ui/src']).violations.map(show).sort();
      assert.deepEqual(found, [
        'layer-cli-no-upward-import: src/cli/bad.ts -> src/extension/e.ts',
        'layer-remote-no-upward-import: src/remote/bad.ts -> src/host/h.ts',
        'layer-tools-no-upward-import: src/tools/bad.ts -> src/agents/a.ts',
        'no-unresolvable-import: src/commands/bad.ts -> ./missing',
        'node-fs-only-in-io-layers: src/agents/a.ts -> fs',
        'protocol-imports-only-zod: src/protocol/bad.ts -> path',
        'session-imports-only-protocol: src/session/bad.ts -> node_modules/@types/vscode/index.d.ts',
        'vscode-only-in-extension: src/session/bad.ts -> node_modules/@types/vscode/index.d.ts',
        'webview-ui-imports-only-protocol-from-src: webview-ui/src/bad.ts -> src/session/bad.ts',
        'webview-ui-no-preact-compat: webview-ui/src/compat.ts -> node_modules/preact/compat/dist/compat.js',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
