// The test-runner extension for code-server (where @vscode/test-electron cannot download VS Code):
// installed next to the real VSIX, it runs the extension-host suites once the window has started
// and writes their results to the file named by RAWP_VSCODE_TEST_RESULTS. Without that variable
// it does nothing.
import { runAndReport } from '../suite/index';

export function activate(): void {
  const file = process.env.RAWP_VSCODE_TEST_RESULTS;
  if (!file) return;
  void runAndReport(file);
}

export function deactivate(): void {}
