// The status-bar item: the active session's agent state and how many remote masters are attached.
// Clicking it opens the chat.
import * as vscode from 'vscode';
import { statusText, type StatusInput } from './statusText';

export class StatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('rawp.status', vscode.StatusBarAlignment.Left, 100);

  constructor() {
    this.item.name = 'RAWP Agent';
    this.item.command = 'rawp.chat.focus';
    this.update({ masters: 0, shared: false });
    this.item.show();
  }

  update(s: StatusInput): void {
    const { text, tooltip } = statusText(s, vscode.l10n);
    this.item.text = text;
    this.item.tooltip = tooltip;
  }

  dispose(): void {
    this.item.dispose();
  }
}
