// Extension host entry. The only layer that imports 'vscode' (DESIGN.md).
import * as vscode from 'vscode';

export function activate(context: vscode.ExtensionContext): void {
  const log = vscode.window.createOutputChannel('RAWP Agent Client');
  context.subscriptions.push(log);
  log.appendLine('RAWP Agent Client activated');
}

export function deactivate(): void {
  // Sessions and servers register their own disposables on the context.
}
