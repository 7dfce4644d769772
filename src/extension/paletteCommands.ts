// The palette commands (package.json contributes.commands). Each acts on the active session of
// the chat view and reports what it did or why it could not.
import * as vscode from 'vscode';
import { AgentMode } from '../protocol/common';
import type { Services } from './services';
import { CHAT_VIEW_ID } from './chatViewProvider';
import type { CommandId } from './commandIds';
import { openEditDiff } from './editorActions';
import { cleanSessionName } from '../protocol/sessionName';
import { agentReasonIn } from '../protocol/hostPhrases';
import { builtinLanguage } from '../agents/builtin/words';

export type CommandHandlers = Record<CommandId, (...args: unknown[]) => unknown>;

/** The handlers of every palette command (loaded lazily; extension.ts registers the ids). */
export function paletteCommandHandlers(s: Services, channel: vscode.OutputChannel): CommandHandlers {
  const c = s.controller;
  const active = (): string | undefined => {
    const id = c.activeSessionId;
    if (!id) void vscode.window.showInformationMessage(vscode.l10n.t('RAWP: no session is open.'));
    return id;
  };
  const pickSession = async (placeHolder: string) => {
    const items = s.host.list().map((x) => ({ label: x.name, description: `${x.agent ?? ''} · ${x.state ?? ''}${x.shared ? ` · ${vscode.l10n.t('shared')}` : ''}`, id: x.session_id }));
    if (items.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('RAWP: there are no sessions.'));
      return undefined;
    }
    return (await vscode.window.showQuickPick(items, { placeHolder }))?.id;
  };
  const share = async () => {
    const id = active();
    if (!id) return;
    const url = await s.sharing.share(id);
    await vscode.env.clipboard.writeText(url);
    void vscode.window.showInformationMessage(vscode.l10n.t('RAWP: session shared — the attach URL (with its token) is on the clipboard.'));
  };

  return {
    'rawp.newSession': async () => {
      await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
      await c.newSession();
    },
    'rawp.switchSession': async () => {
      const id = await pickSession(vscode.l10n.t('Switch to session'));
      if (id) c.switchTo(id);
    },
    'rawp.renameSession': async () => {
      const id = active();
      if (!id) return;
      const current = s.host.list().find((x) => x.session_id === id)?.name;
      const name = await vscode.window.showInputBox({ prompt: vscode.l10n.t('New session name'), value: current, validateInput: (v) => (cleanSessionName(v) ? undefined : vscode.l10n.t('A name is needed')) });
      if (name !== undefined) s.host.rename(id, name);
    },
    'rawp.deleteSession': async () => {
      const id = await pickSession(vscode.l10n.t('Delete session'));
      if (!id) return;
      const del = vscode.l10n.t('Delete');
      // The dialog names the session it deletes (issue 15 Why 8).
      const name = s.host.list().find((x) => x.session_id === id)?.name ?? id;
      const ok = await vscode.window.showWarningMessage(vscode.l10n.t('Delete “{0}”? Its agent stops and its transcript is removed.', name), { modal: true }, del);
      if (ok === del) await c.deleteSession(id);
    },
    'rawp.cancelTurn': () => {
      if (!c.cancelTurn()) void vscode.window.showInformationMessage(vscode.l10n.t('RAWP: no turn is running.'));
    },
    'rawp.compact': async () => {
      if (!active()) return;
      const instruction = await vscode.window.showInputBox({ prompt: vscode.l10n.t('What must the summary keep? (optional)') });
      if (instruction !== undefined) c.compact(instruction.trim() || undefined);
    },
    'rawp.switchMode': async (mode?: unknown) => {
      if (!active()) return;
      const picked = typeof mode === 'string' ? mode : await vscode.window.showQuickPick([...AgentMode.options], { placeHolder: vscode.l10n.t('Agent mode') });
      const parsed = AgentMode.safeParse(picked);
      if (parsed.success) c.switchMode(parsed.data);
    },
    'rawp.pickAgent': async () => {
      const agents = c.agentsForPicker();
      const pick = await vscode.window.showQuickPick(
        agents.map((a) => ({ label: a.name, description: a.available ? a.description : vscode.l10n.t('unavailable: {0}', agentReasonIn(a, builtinLanguage(vscode.env.language)) ?? ''), id: a.id })),
        { placeHolder: vscode.l10n.t('Agent for new sessions') },
      );
      if (pick) await c.pickAgent(pick.id);
    },
    'rawp.shareSession': share,
    'rawp.copyAttachUrl': share,
    'rawp.stopSharing': async () => {
      const id = active();
      if (!id) return;
      await s.sharing.stop(id);
      void vscode.window.showInformationMessage(vscode.l10n.t('RAWP: the session is no longer shared; attached masters were disconnected.'));
    },
    'rawp.showLogs': () => channel.show(true),
    'rawp.managePermissionRules': async () => {
      const rules = s.host.permissionRules();
      if (rules.length === 0) {
        void vscode.window.showInformationMessage(vscode.l10n.t('RAWP: no saved permission rules.'));
        return;
      }
      const picked = await vscode.window.showQuickPick(
        rules.map((r) => ({ label: r.decision === 'reject' ? vscode.l10n.t('Reject {0}', r.tool_name) : vscode.l10n.t('Allow {0}', r.tool_name), description: r.command_prefix ? vscode.l10n.t('command: {0}', r.command_prefix) : r.path_glob ? vscode.l10n.t('paths: {0}', r.path_glob) : vscode.l10n.t('any call'), detail: vscode.l10n.t('{0}, from {1}, {2}', r.lifetime === 'always' ? vscode.l10n.t('saved') : vscode.l10n.t('this session'), r.created_by, r.created_at), id: r.id })),
        { canPickMany: true, placeHolder: vscode.l10n.t('Select the rules to revoke') },
      );
      for (const p of picked ?? []) s.host.revokePermissionRule(p.id);
      if (picked?.length) c.postSettings();
    },
    'rawp.setApiKey': async () => {
      const provider = await vscode.window.showQuickPick(['openai', 'anthropic', 'gemini'], { placeHolder: vscode.l10n.t('Provider') });
      if (!provider) return;
      const key = await vscode.window.showInputBox({ prompt: vscode.l10n.t('API key for {0} (empty removes it)', provider), password: true, ignoreFocusOut: true });
      if (key === undefined) return;
      await s.secrets.setApiKey(provider, key.trim());
      await s.catalog.detect(true); // an agent may be available now
      void vscode.window.showInformationMessage(key.trim() ? vscode.l10n.t('RAWP: {0} API key saved in SecretStorage.', provider) : vscode.l10n.t('RAWP: {0} API key removed.', provider));
    },
    'rawp.openDiff': async (session_id?: unknown, invocation_id?: unknown) => {
      if (typeof session_id === 'string' && typeof invocation_id === 'string') await openEditDiff(s.host, s.before, session_id, invocation_id);
    },
  };
}
