// Where the window keeps its state (docs/decisions/123): the journal in the workspace's own
// storage folder, and below it the §4.5.1 file store (docs/decisions/302), which the chat webview
// may load resources from. One place, so the webview's resource roots and the host agree.
import { join } from 'node:path';
import type * as vscode from 'vscode';

export function windowStateDir(context: Pick<vscode.ExtensionContext, 'storageUri' | 'globalStorageUri'>): string {
  return context.storageUri ? join(context.storageUri.fsPath, 'state') : join(context.globalStorageUri.fsPath, 'state-no-workspace');
}

/** The file store of the window's sessions (SessionHost's default: the state folder's files/). */
export function windowFilesDir(context: Pick<vscode.ExtensionContext, 'storageUri' | 'globalStorageUri'>): string {
  return join(windowStateDir(context), 'files');
}
