// Issue 17 item 2 in VS Code: a turn's "N files changed" opens VS Code's multi-file diff
// (`vscode.changes`) of the checkpoint — the files before the turn — against the files as they are
// now. The left side is served read-only from the shadow git's blobs through the host's
// checkpoint service (`rawp-checkpoint:` scheme); the right side is the real file, so the diff
// editor's own "Revert Block" / revert-selected-ranges edits only that hunk of the file on disk
// (decision 400). A whole file is reverted from the chat through the host's restore.
import * as vscode from 'vscode';
import type { SessionHost } from '../host/sessionHost';

export const CHECKPOINT_SCHEME = 'rawp-checkpoint';

/** The text of `path` before the turn of `checkpoint_id`, as a read-only document URI. */
export function checkpointBeforeUri(checkpoint_id: string, path: string): vscode.Uri {
  return vscode.Uri.from({ scheme: CHECKPOINT_SCHEME, path: `/${path.replace(/^\/+/, '')}`, query: new URLSearchParams({ checkpoint: checkpoint_id }).toString() });
}

/** Serves `rawp-checkpoint:/<path>?checkpoint=<id>`: the file's blob in that checkpoint's "before" tree. */
export class CheckpointContentProvider implements vscode.TextDocumentContentProvider {
  constructor(private readonly host: SessionHost) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const id = new URLSearchParams(uri.query).get('checkpoint');
    const service = this.host.checkpoints?.service;
    if (!id || !service) return '';
    const text = await service.textAt(id, uri.path.replace(/^\/+/, ''), 'before');
    // A file the turn created did not exist before: an empty left side.
    return text ?? '';
  }
}

/** Opens the review of one checkpoint: every file (vscode.changes), or one file (vscode.diff). */
export async function openCheckpointReview(host: SessionHost, session_id: string, checkpoint_id: string, path?: string): Promise<void> {
  const rec = host.checkpoints?.service.get(checkpoint_id);
  if (!rec || rec.session_id !== session_id) throw new Error(vscode.l10n.t('That turn’s checkpoint is no longer kept.'));
  // Checkpoints cover the first workspace folder (src/host/checkpoints: its paths are relative to it).
  const root = vscode.workspace.workspaceFolders?.[0]?.uri;
  if (!root) throw new Error(vscode.l10n.t('No workspace folder is open.'));
  const files = path ? rec.files.filter((f) => f.path === path) : rec.files;
  if (files.length === 0) throw new Error(vscode.l10n.t('{0} is not among the files this turn changed.', path ?? ''));
  const triples = files.map((f) => {
    const now = vscode.Uri.joinPath(root, ...f.path.split('/'));
    const before = f.change === 'created' ? undefined : checkpointBeforeUri(checkpoint_id, f.from ?? f.path);
    const after = f.change === 'deleted' ? undefined : now;
    return [now, before, after] as [vscode.Uri, vscode.Uri | undefined, vscode.Uri | undefined];
  });
  if (path && triples.length === 1) {
    const [now, before, after] = triples[0];
    await vscode.commands.executeCommand('vscode.diff', before ?? checkpointBeforeUri(checkpoint_id, path), after ?? now, vscode.l10n.t('{0} (before the turn ↔ now)', path), { preview: true });
    return;
  }
  // The multi-file diff editor adds the count itself ("… (3 files)"), so the title names none.
  await vscode.commands.executeCommand('vscode.changes', vscode.l10n.t('Changes made by the turn'), triples);
}
