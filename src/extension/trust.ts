// Restricted Mode (an untrusted workspace): agents read, write and run commands in the workspace,
// so none runs until the person trusts the folder. The reason is shown in the chat.
import * as vscode from 'vscode';

export function restrictedReason(): string | undefined {
  return vscode.workspace.isTrusted
    ? undefined
    : vscode.l10n.t('This workspace is in Restricted Mode, so no agent runs: agents read and write files and run commands here. Trust the folder (“Manage Workspace Trust”) to start a session.');
}
