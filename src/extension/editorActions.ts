// What the chat asks of the editor: open a file at a line, open an edit's diff in VS Code's diff
// editor, and the clipboard. Paths from tools and file references are workspace-relative display
// paths (or absolute); they are resolved against the workspace folders.
import * as vscode from 'vscode';
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { isDiffOutput, textBefore } from './diffContent';
import type { SessionHost } from '../host/sessionHost';

export const BEFORE_SCHEME = 'rawp-before';

/** Serves the rebuilt "before" texts the diff editor shows on its left side. */
export class BeforeContentProvider implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private counter = 0;

  put(displayPath: string, text: string): vscode.Uri {
    const key = `/${++this.counter}/${displayPath.replace(/^\/+/, '')}`;
    this.texts.set(key, text);
    if (this.texts.size > 50) this.texts.delete(this.texts.keys().next().value as string);
    return vscode.Uri.from({ scheme: BEFORE_SCHEME, path: key });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.path) ?? '';
  }
}

export function resolveWorkspacePath(path: string): string | undefined {
  if (isAbsolute(path)) return path;
  const folders = vscode.workspace.workspaceFolders ?? [];
  for (const f of folders) {
    const p = join(f.uri.fsPath, path);
    if (existsSync(p)) return p;
    // Multi-root display paths start with the folder name.
    const [head, ...rest] = path.split('/');
    if (head === f.name && rest.length > 0 && existsSync(join(f.uri.fsPath, ...rest))) return join(f.uri.fsPath, ...rest);
  }
  return folders[0] ? join(folders[0].uri.fsPath, path) : undefined;
}

export async function openFileAt(path: string, line?: number): Promise<void> {
  const abs = resolveWorkspacePath(path);
  if (!abs) throw new Error(`No workspace folder to open ${path} in.`);
  // A folder reference (decision 363) is shown in the Explorer, not opened as a document.
  if (path.endsWith('/')) {
    await vscode.commands.executeCommand('revealInExplorer', vscode.Uri.file(abs));
    return;
  }
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(abs));
  const options: vscode.TextDocumentShowOptions = { preview: true };
  if (line !== undefined) {
    const pos = new vscode.Position(Math.max(0, Math.min(line - 1, doc.lineCount - 1)), 0);
    options.selection = new vscode.Range(pos, pos);
  }
  await vscode.window.showTextDocument(doc, options);
}

/** Opens `vscode.diff` for one edit result of a session's transcript. */
export async function openEditDiff(host: SessionHost, before: BeforeContentProvider, session_id: string, invocation_id: string): Promise<void> {
  const frames = host.log(session_id)?.all() ?? [];
  const result = frames.find((f) => f.type === 'tool.invoke.result' && (f.payload as { invocation_id?: unknown } | undefined)?.invocation_id === invocation_id);
  const output = (result?.payload as { output?: unknown } | undefined)?.output;
  if (!isDiffOutput(output)) throw new Error('That tool call has no file edit to show.');
  const abs = resolveWorkspacePath(output.file_path);
  const current = abs ? await vscode.workspace.openTextDocument(vscode.Uri.file(abs)).then((d) => d, () => undefined) : undefined;
  // The text the right side shows: unsaved typing if any, else the disk (a clean document may not
  // have caught up with a change on disk yet).
  let now: string | undefined;
  try {
    now = current?.isDirty ? current.getText() : abs ? readFileSync(abs, 'utf8') : undefined;
  } catch {
    now = undefined;
  }
  const beforeText = current && now !== undefined ? textBefore(output, now) : undefined;
  if (current && beforeText !== undefined) {
    const left = before.put(output.file_path, output.created ? '' : beforeText);
    await vscode.commands.executeCommand('vscode.diff', left, current.uri, `${output.file_path} (edit by the agent)`, { preview: true });
    return;
  }
  // The file changed since (or is gone): show the patch itself, read-only (no "save?" on close).
  const doc = await vscode.workspace.openTextDocument(before.put(`${output.file_path}.diff`, output.unified_diff));
  await vscode.window.showTextDocument(await vscode.languages.setTextDocumentLanguage(doc, 'diff'), { preview: true });
}
