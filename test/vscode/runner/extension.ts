// The test-runner extension for code-server (where @vscode/test-electron cannot download VS Code):
// installed next to the real VSIX, it runs the extension-host suites once the window has started
// and writes their results to the file named by RAWP_VSCODE_TEST_RESULTS. Without that variable
// it does nothing.
//
// It also provides the in-memory file system `rawpmem:` (issue 13): the test workspace names
// `rawpmem:/rawp-virtual` as its second folder, so VS Code activates this extension for the scheme
// and the provider must be there, with the folder's files, before the folder resolves.
import { runAndReport } from '../suite/index';
import { seedVirtualFolder } from '../suite/memFs';

export function activate(): void {
  const file = process.env.RAWP_VSCODE_TEST_RESULTS;
  if (!file) return;
  seedVirtualFolder();
  void runAndReport(file);
}

export function deactivate(): void {}
