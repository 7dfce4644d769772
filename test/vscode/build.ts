// Builds what the extension-host tests need:
//   suite bundle  <out>/suite/index.js   (mocha + the suites; exports run() for @vscode/test-electron)
//   runner VSIX   <out>/rawp-test-runner.vsix (the runner extension for code-server)
// `vscode` stays external (the extension host provides it).
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as esbuild from 'esbuild';

const REPO = resolve(__dirname, '../..');

const common: esbuild.BuildOptions = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['vscode'],
  logLevel: 'error',
  sourcemap: 'inline',
};

export async function buildVscodeTests(out = join(REPO, '.cache', 'vscode-tests')): Promise<{ suite: string; runnerVsix: string }> {
  rmSync(out, { recursive: true, force: true });
  const suite = join(out, 'suite', 'index.js');
  await esbuild.build({ ...common, entryPoints: [join(__dirname, 'suite/index.ts')], outfile: suite });
  const stage = join(out, 'runner');
  mkdirSync(join(stage, 'dist'), { recursive: true });
  await esbuild.build({ ...common, entryPoints: [join(__dirname, 'runner/extension.ts')], outfile: join(stage, 'dist', 'runner.js') });
  copyFileSync(join(__dirname, 'runner/package.json'), join(stage, 'package.json'));
  copyFileSync(join(REPO, 'LICENSE'), join(stage, 'LICENSE'));
  writeFileSync(join(stage, 'README.md'), '# RAWP extension-host test runner\n\nRuns the extension-host suites inside code-server. Not for users.\n');
  const runnerVsix = join(out, 'rawp-test-runner.vsix');
  execFileSync(join(REPO, 'node_modules/.bin/vsce'), ['package', '--no-dependencies', '-o', runnerVsix], { cwd: stage, stdio: ['ignore', 'pipe', 'pipe'] });
  return { suite, runnerVsix };
}

if (require.main === module) {
  buildVscodeTests().then(
    (r) => console.log(JSON.stringify(r)),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}
