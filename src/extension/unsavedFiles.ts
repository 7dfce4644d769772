// The checkpoint service's question to the editor (issue 17 item 3): which of these workspace
// files have unsaved changes? A rewind never overwrites a person's unsaved typing unasked.
import * as vscode from 'vscode';
import { relative, sep } from 'node:path';

export function unsavedFiles(workspace: string, paths: readonly string[]): string[] {
  const wanted = new Set(paths);
  const dirty: string[] = [];
  for (const doc of vscode.workspace.textDocuments) {
    if (!doc.isDirty || doc.uri.scheme !== 'file') continue;
    const rel = relative(workspace, doc.uri.fsPath).split(sep).join('/');
    if (wanted.has(rel)) dirty.push(rel);
  }
  return dirty;
}
