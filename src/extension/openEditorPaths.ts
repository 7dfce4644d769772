// The files open in the editor, the active one first, then the visible ones, then every other
// tab: the empty @ query looks up their modification times before any other file's (recency.ts),
// so what the user is working on can lead the first answer in a large workspace.
import * as vscode from 'vscode';

/** Local paths of the open text and diff editors' files, without repeats. */
export function openEditorPaths(): string[] {
  const uris: vscode.Uri[] = [];
  const active = vscode.window.activeTextEditor?.document.uri;
  if (active) uris.push(active);
  for (const e of vscode.window.visibleTextEditors) uris.push(e.document.uri);
  for (const group of vscode.window.tabGroups.all) {
    for (const tab of group.tabs) {
      const input = tab.input;
      if (input instanceof vscode.TabInputText) uris.push(input.uri);
      else if (input instanceof vscode.TabInputTextDiff) uris.push(input.modified);
    }
  }
  return [...new Set(uris.filter((u) => u.scheme === 'file').map((u) => u.fsPath))];
}
