// Notifications and the activity-bar badge (issue 15, decision 382): when a turn needs an approval
// or finishes while the user is not looking at that session (the chat hidden, the window
// unfocused, another session in front), VS Code shows a notification whose button opens the chat
// on that session, and the chat view's badge counts what is still unseen. Looking clears it.
import * as vscode from 'vscode';
import { AttentionTracker, type AttentionItem } from '../host/attention';
import type { SessionHost } from '../host/sessionHost';
import type { ChatController } from './chatController';
import { CHAT_VIEW_ID, type ChatViewProvider } from './chatViewProvider';
import { clip, plain } from './notificationText';

/** The notification's one button. */
export const openChatLabel = (): string => vscode.l10n.t('Open Chat');

export class AttentionNotifier implements vscode.Disposable {
  readonly tracker = new AttentionTracker();
  private readonly subs: vscode.Disposable[] = [];
  /** Notifications shown (tests read them). */
  readonly shown: string[] = [];

  constructor(
    private readonly host: SessionHost,
    private readonly controller: ChatController,
    private readonly provider: ChatViewProvider,
    private readonly agentName: (id: string | undefined) => string,
  ) {
    const hostSub = host.onEvent((e) => {
      if (e.kind === 'frame') {
        const item = this.tracker.onFrame(e.session_id, e.frame, this.isSeen(e.session_id));
        if (item) this.notify(item);
        this.update();
      } else if (e.kind === 'ended') {
        this.tracker.forget(e.session_id);
        this.update();
      }
    });
    this.subs.push(
      { dispose: () => hostSub.dispose() },
      // Opening the chat is looking at it, whatever the window's focus says (focus may sit in the webview).
      provider.onDidChangeVisibility((visible) => (visible ? this.lookedAt(true) : undefined)),
      vscode.window.onDidChangeWindowState(() => this.lookedAt()),
      controller.onDidChange(() => this.lookedAt()),
    );
  }

  /** The user sees `session_id` now: the chat is visible, the window focused, the session in front. */
  private isSeen(session_id: string): boolean {
    return this.provider.visible && vscode.window.state.focused && this.controller.activeSessionId === session_id;
  }

  private lookedAt(opened = false): void {
    const active = this.controller.activeSessionId;
    const seen = active && (opened ? this.provider.visible : this.isSeen(active));
    if (seen && this.tracker.markSeen(active)) this.update();
  }

  private update(): void {
    const n = this.tracker.count;
    const approvals = this.tracker.approvalCount;
    const tooltip = [approvals ? vscode.l10n.t('{0} waiting for your approval', approvals) : '', n - approvals ? vscode.l10n.t('{0} finished', n - approvals) : ''].filter(Boolean).join(', ');
    this.provider.setBadge(n > 0 ? { value: n, tooltip } : undefined);
  }

  private notify(item: AttentionItem): void {
    const info = this.host.list().find((s) => s.session_id === item.session_id);
    const agent = plain(this.agentName(info?.agent));
    // The session's name only when it says more than the agent's (new sessions are named after it).
    const session = info?.name && !info.name.startsWith(agent) ? plain(info.name) : undefined;
    const text =
      item.kind === 'approval'
        ? session
          ? vscode.l10n.t('{0} needs your approval ({1}): {2}', agent, session, clip(item.question))
          : vscode.l10n.t('{0} needs your approval: {1}', agent, clip(item.question))
        : item.stop_reason === 'error'
          ? session
            ? vscode.l10n.t('{0} stopped with an error ({1}).', agent, session)
            : vscode.l10n.t('{0} stopped with an error.', agent)
          : session
            ? vscode.l10n.t('{0} finished ({1}).', agent, session)
            : vscode.l10n.t('{0} finished.', agent);
    this.shown.push(text);
    const show = item.kind === 'approval' ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
    const open = openChatLabel();
    void show(text, open).then(async (pick) => {
      if (pick !== open) return;
      await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
      if (this.controller.activeSessionId !== item.session_id && this.host.has(item.session_id)) this.controller.switchTo(item.session_id);
      this.lookedAt();
    });
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
  }
}
