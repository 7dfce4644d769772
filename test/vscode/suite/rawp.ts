// Shared by the suites: our extension, activated, and its test API.
import * as vscode from 'vscode';
import type { RawpExtensionApi } from '../../../src/extension/extension';
import type { Services } from '../../../src/extension/services';

export const EXTENSION_ID = 'rawp.rawp-vscode';

/** The extension, activated, its API, and its services (loaded on first use). */
export async function rawp(): Promise<{ ext: vscode.Extension<RawpExtensionApi>; api: RawpExtensionApi; s: Services }> {
  const ext = vscode.extensions.getExtension<RawpExtensionApi>(EXTENSION_ID);
  if (!ext) throw new Error(`${EXTENSION_ID} is not installed`);
  const api = await ext.activate();
  return { ext, api, s: await api.services() };
}

export function workspaceRoot(): string {
  const f = vscode.workspace.workspaceFolders?.[0];
  if (!f) throw new Error('the tests need a workspace folder');
  return f.uri.fsPath;
}

/** Polls until `check` returns a value (VS Code finishes some things asynchronously). */
export async function eventually<T>(check: () => T | undefined | Promise<T | undefined>, what: string, tries = 100): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const v = await check();
    if (v !== undefined && v !== false) return v as T;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`gave up waiting: ${what}`);
}
