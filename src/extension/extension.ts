// Extension host entry. The only layer that imports 'vscode' (DESIGN.md). Activation only builds
// objects and registers things (no I/O, no agent start), so it stays well under 50 ms; the
// previous window's sessions are restored right after it returns. The time is logged.
import * as vscode from 'vscode';
import { performance } from 'node:perf_hooks';
import { BEFORE_SCHEME } from './editorActions';
import { ChatViewProvider, CHAT_VIEW_ID } from './chatViewProvider';
import { channelLogger } from './logger';
import { registerPaletteCommands } from './paletteCommands';
import { createServices, type Services } from './services';
import { settings } from './settings';
import { StatusBar } from './statusBar';

/** What activate() returns: used by the integration tests running inside VS Code. */
export interface RawpExtensionApi {
  activationMs: number;
  services: Services;
  provider: ChatViewProvider;
  /** The rawp.* settings as the extension reads them. */
  settings: typeof settings;
}

let running: Services | undefined;

export function activate(context: vscode.ExtensionContext): RawpExtensionApi {
  const t0 = performance.now();
  const channel = vscode.window.createOutputChannel('RAWP Agent Client');
  context.subscriptions.push(channel);
  const logger = channelLogger(channel, settings.logLevel);
  const services = createServices(context, logger);
  running = services;
  const provider = new ChatViewProvider(context.extensionUri, services.controller);
  const status = new StatusBar();
  const refreshStatus = async () => {
    const id = services.controller.activeSessionId;
    const info = services.host.list().find((s) => s.session_id === id);
    const turn = id ? services.host.registry.get(id)?.turnActive === true : false;
    void vscode.commands.executeCommand('setContext', 'rawp.turnActive', turn);
    status.update({ agentName: info?.agent, state: info?.state, shared: info?.shared ?? false, masters: await services.sharing.masterCount(), blocked: services.blocked() });
  };
  context.subscriptions.push(
    vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, provider),
    vscode.workspace.registerTextDocumentContentProvider(BEFORE_SCHEME, services.before),
    status,
    services.controller.onDidChange(() => void refreshStatus()),
    services.sharing.onDidChange(() => void refreshStatus()),
    services.host.onEvent((e) => {
      if (e.kind === 'sessions') void refreshStatus();
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      void refreshStatus();
      services.controller.notice('info', 'The workspace is trusted now: start a session with “New Session”.');
    }),
    ...registerPaletteCommands(services, channel),
  );
  void refreshStatus();
  const activationMs = performance.now() - t0;
  logger.info(`RAWP Agent Client activated in ${activationMs.toFixed(1)} ms`);
  return { activationMs, services, provider, settings };
}

export async function deactivate(): Promise<void> {
  // Save transcripts and stop agents; stored sessions stay for the next window (§7.8 on restore).
  await running?.dispose();
  running = undefined;
}
