// The same extension-host suites through @vscode/test-electron — the runner extension authors
// expect — on a machine with a desktop VS Code: RAWP_VSCODE_EXECUTABLE=/path/to/code (no download),
// or RAWP_VSCODE_DOWNLOAD=1 to let test-electron fetch one (needs the internet).
// `npm run test:vscode`. (Here, offline, test/unit/e2e/vscodeHost.test.ts runs them in code-server.)
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runTests } from '@vscode/test-electron';
import { buildVscodeTests } from './build';

const REPO = resolve(__dirname, '../..');

async function main(): Promise<void> {
  const executable = process.env.RAWP_VSCODE_EXECUTABLE;
  if (!executable && process.env.RAWP_VSCODE_DOWNLOAD !== '1') {
    console.error('Set RAWP_VSCODE_EXECUTABLE to a VS Code binary (or RAWP_VSCODE_DOWNLOAD=1 to download one).');
    process.exit(2);
  }
  const { suite } = await buildVscodeTests();
  const workspace = mkdtempSync(join(tmpdir(), 'rawp-electron-ws-'));
  cpSync(join(REPO, 'media/sample-workspace'), workspace, { recursive: true });
  try {
    await runTests({
      ...(executable ? { vscodeExecutablePath: executable } : {}),
      extensionDevelopmentPath: REPO, // the development build in dist/ (npm run build)
      extensionTestsPath: suite,
      launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust'],
    });
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
