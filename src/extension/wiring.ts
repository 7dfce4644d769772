// Everything activation leaves for later, wired together: the services, the diff content
// provider, the status bar's updates, trust changes, and the palette commands' handlers.
import * as vscode from 'vscode';
import type { Logger } from '../session/ports';
import { BEFORE_SCHEME } from './editorActions';
import { CHECKPOINT_SCHEME, CheckpointContentProvider } from './checkpointReview';
import { paletteCommandHandlers, type CommandHandlers } from './paletteCommands';
import { createServices, type Services } from './services';
import type { StatusBar } from './statusBar';
import type { ChatViewProvider } from './chatViewProvider';
import { AttentionNotifier } from './notifications';
import { agentDisplayName } from './agentDisplayName';
import { warmFileIndexWhenShown } from './warmFileIndex';

export function wire(context: vscode.ExtensionContext, logger: Logger, status: StatusBar, provider: ChatViewProvider): { services: Services; handlers(channel: vscode.OutputChannel): CommandHandlers } {
  const services = createServices(context, logger);
  // Approvals and finished turns the user has not seen: notifications and the badge (decision 382).
  const nameOf = (id: string) => agentDisplayName(id, services.catalog.choices(), vscode.l10n);
  const agentName = (id: string | undefined) => (id ? nameOf(id) : vscode.l10n.t('The agent'));
  const attention = new AttentionNotifier(services.host, services.controller, provider, agentName);
  services.attention = attention;
  context.subscriptions.push(attention);
  // The @ index listed before the first @ (decision 638).
  context.subscriptions.push(warmFileIndexWhenShown(provider.onDidChangeVisibility, { blocked: services.blocked, open: services.fileIndex }));
  const refreshStatus = async () => {
    const id = services.controller.activeSessionId;
    const info = services.host.list().find((s) => s.session_id === id);
    const turn = id ? services.host.registry.get(id)?.turnActive === true : false;
    void vscode.commands.executeCommand('setContext', 'rawp.turnActive', turn);
    status.update({ agentName: info?.agent ? nameOf(info.agent) : undefined, state: info?.state, shared: info?.shared ?? false, masters: await services.sharing.masterCount(), blocked: services.blocked() });
  };
  context.subscriptions.push(
    vscode.workspace.registerTextDocumentContentProvider(BEFORE_SCHEME, services.before),
    vscode.workspace.registerTextDocumentContentProvider(CHECKPOINT_SCHEME, new CheckpointContentProvider(services.host)),
    services.controller.onDidChange(() => void refreshStatus()),
    services.sharing.onDidChange(() => {
      void refreshStatus();
      services.controller.refreshLists(); // shared flag and master counts in the session list
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('rawp.chat.enterSends')) services.controller.postSettings();
      // A path set or changed: look again, and the agent lists follow (decision 380).
      if (e.affectsConfiguration('rawp.agents')) void services.catalog.detect(true).then(() => services.controller.refreshLists());
    }),
    services.host.onEvent((e) => {
      if (e.kind === 'sessions') void refreshStatus();
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      void refreshStatus();
      void services.catalog.detect(true);
      services.controller.notice('info', vscode.l10n.t('The workspace is trusted now: start a session with “New Session”.'));
    }),
  );
  void refreshStatus();
  return { services, handlers: (channel) => paletteCommandHandlers(services, channel) };
}
