// DESIGN.md: only src/extension/ imports 'vscode'; src/protocol and src/session stay pure
// (no Node built-ins, no DOM-only code paths, no upward imports).
import { strict as assert } from 'node:assert';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const root = join(__dirname, '..', '..', '..');

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sourceFiles(p));
    else if (/\.(ts|tsx|mts|cts|js|mjs)$/.test(name)) out.push(p);
  }
  return out;
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs: string[] = [];
  const re = /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]/gm;
  for (let m; (m = re.exec(text)); ) specs.push(m[1] ?? m[2] ?? m[3] ?? m[4]);
  return specs;
}

const all = [...sourceFiles(join(root, 'src')), ...sourceFiles(join(root, 'webview-ui', 'src'))];

describe('architecture: layers of DESIGN.md', () => {
  it('only src/extension/ imports vscode', () => {
    const offenders = all.filter((f) => !relative(root, f).startsWith('src/extension/') && importsOf(f).includes('vscode'));
    assert.deepEqual(offenders.map((f) => relative(root, f)), []);
  });

  for (const layer of ['protocol', 'session']) {
    it(`src/${layer} imports no Node built-ins and no higher layer`, () => {
      const files = all.filter((f) => relative(root, f).startsWith(`src/${layer}/`));
      assert.ok(files.length > 0, `src/${layer} has source files`);
      const bad: string[] = [];
      for (const f of files) {
        for (const spec of importsOf(f)) {
          const nodeBuiltin = spec.startsWith('node:') || ['fs', 'path', 'child_process', 'net', 'http', 'os', 'crypto', 'events', 'stream', 'ws'].includes(spec);
          const upward = /\.\.\/(extension|host|cli|remote|agents|commands|tools|workspace)\b/.test(spec) || (layer === 'protocol' && /\.\.\/session\b/.test(spec));
          if (nodeBuiltin || upward || spec === 'vscode') bad.push(`${relative(root, f)} -> ${spec}`);
        }
      }
      assert.deepEqual(bad, []);
    });
  }

  it('src/host sits below src/extension, src/cli and src/remote (imports none of them)', () => {
    const files = all.filter((f) => relative(root, f).startsWith('src/host/'));
    assert.ok(files.length > 0, 'src/host has source files');
    const bad = files.flatMap((f) => importsOf(f).filter((spec) => /\.\.\/(extension|cli|remote)\b/.test(spec)).map((spec) => `${relative(root, f)} -> ${spec}`));
    assert.deepEqual(bad, []);
  });

  it('the checker itself sees every import form (so a vscode import cannot slip through)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rawp-layers-'));
    try {
      const f = join(dir, 'probe.ts');
      writeFileSync(f, "import * as vscode from 'vscode';\nconst fs = require('fs');\nexport { x } from './x';\nimport './side';\nconst m = import('dyn');\n");
      assert.deepEqual(importsOf(f).sort(), ['./side', './x', 'dyn', 'fs', 'vscode']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
