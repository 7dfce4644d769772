// The palette commands (package.json contributes.commands). Each acts on the active session of
// the chat view and reports what it did or why it could not.
import * as vscode from 'vscode';
import { AgentMode } from '../protocol/common';
import type { Services } from './services';
import { CHAT_VIEW_ID } from './chatViewProvider';
import type { CommandId } from './commandIds';
import { openEditDiff } from './editorActions';

export type CommandHandlers = Record<CommandId, (...args: unknown[]) => unknown>;

/** The handlers of every palette command (loaded lazily; extension.ts registers the ids). */
export function paletteCommandHandlers(s: Services, channel: vscode.OutputChannel): CommandHandlers {
  const c = s.controller;
  const active = (): string | undefined => {
    const id = c.activeSessionId;
    if (!id) void vscode.window.showInformationMessage('RAWP: no session is open.');
    return id;
  };
  const pickSession = async (placeHolder: string) => {
    const items = s.host.list().map((x) => ({ label: x.name, description: `${x.agent ?? ''} · ${x.state ?? ''}${x.shared ? ' · shared' : ''}`, id: x.session_id }));
    if (items.length === 0) {
      void vscode.window.showInformationMessage('RAWP: there are no sessions.');
      return undefined;
    }
    return (await vscode.window.showQuickPick(items, { placeHolder }))?.id;
  };
  const share = async () => {
    const id = active();
    if (!id) return;
    const url = await s.sharing.share(id);
    await vscode.env.clipboard.writeText(url);
    void vscode.window.showInformationMessage('RAWP: session shared — the attach URL (with its token) is on the clipboard.');
  };

  return {
    'rawp.newSession': async () => {
      await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
      await c.newSession();
    },
    'rawp.switchSession': async () => {
      const id = await pickSession('Switch to session');
      if (id) c.switchTo(id);
    },
    'rawp.renameSession': async () => {
      const id = active();
      if (!id) return;
      const current = s.host.list().find((x) => x.session_id === id)?.name;
      const name = await vscode.window.showInputBox({ prompt: 'New session name', value: current, validateInput: (v) => (v.trim() ? undefined : 'A name is needed') });
      if (name?.trim()) s.host.rename(id, name.trim());
    },
    'rawp.deleteSession': async () => {
      const id = await pickSession('Delete session');
      if (!id) return;
      const ok = await vscode.window.showWarningMessage('Delete this session? Its agent stops and its transcript is removed.', { modal: true }, 'Delete');
      if (ok === 'Delete') await c.deleteSession(id);
    },
    'rawp.cancelTurn': () => {
      if (!c.cancelTurn()) void vscode.window.showInformationMessage('RAWP: no turn is running.');
    },
    'rawp.compact': async () => {
      if (!active()) return;
      const instruction = await vscode.window.showInputBox({ prompt: 'What must the summary keep? (optional)' });
      if (instruction !== undefined) c.compact(instruction.trim() || undefined);
    },
    'rawp.switchMode': async (mode?: unknown) => {
      if (!active()) return;
      const picked = typeof mode === 'string' ? mode : await vscode.window.showQuickPick([...AgentMode.options], { placeHolder: 'Agent mode' });
      const parsed = AgentMode.safeParse(picked);
      if (parsed.success) c.switchMode(parsed.data);
    },
    'rawp.pickAgent': async () => {
      const agents = c.agentsForPicker();
      const pick = await vscode.window.showQuickPick(
        agents.map((a) => ({ label: a.name, description: a.available ? a.description : `unavailable: ${a.unavailable_reason ?? ''}`, id: a.id })),
        { placeHolder: 'Agent for new sessions' },
      );
      if (pick) c.pickAgent(pick.id);
    },
    'rawp.shareSession': share,
    'rawp.copyAttachUrl': share,
    'rawp.stopSharing': async () => {
      const id = active();
      if (!id) return;
      await s.sharing.stop(id);
      void vscode.window.showInformationMessage('RAWP: the session is no longer shared; attached masters were disconnected.');
    },
    'rawp.showLogs': () => channel.show(true),
    'rawp.managePermissionRules': async () => {
      const rules = s.host.permissionRules();
      if (rules.length === 0) {
        void vscode.window.showInformationMessage('RAWP: no saved permission rules.');
        return;
      }
      const picked = await vscode.window.showQuickPick(
        rules.map((r) => ({ label: `${r.decision === 'reject' ? 'Reject' : 'Allow'} ${r.tool_name}`, description: r.command_prefix ? `command: ${r.command_prefix}` : r.path_glob ? `paths: ${r.path_glob}` : 'any call', detail: `${r.lifetime === 'always' ? 'saved' : 'this session'}, from ${r.created_by}, ${r.created_at}`, id: r.id })),
        { canPickMany: true, placeHolder: 'Select the rules to revoke' },
      );
      for (const p of picked ?? []) s.host.revokePermissionRule(p.id);
      if (picked?.length) c.postSettings();
    },
    'rawp.setApiKey': async () => {
      const provider = await vscode.window.showQuickPick(['openai', 'anthropic', 'gemini'], { placeHolder: 'Provider' });
      if (!provider) return;
      const key = await vscode.window.showInputBox({ prompt: `API key for ${provider} (empty removes it)`, password: true, ignoreFocusOut: true });
      if (key === undefined) return;
      await s.secrets.setApiKey(provider, key.trim());
      await s.catalog.detect(true); // an agent may be available now
      void vscode.window.showInformationMessage(key.trim() ? `RAWP: ${provider} API key saved in SecretStorage.` : `RAWP: ${provider} API key removed.`);
    },
    'rawp.openDiff': async (session_id?: unknown, invocation_id?: unknown) => {
      if (typeof session_id === 'string' && typeof invocation_id === 'string') await openEditDiff(s.host, s.before, session_id, invocation_id);
    },
  };
}
