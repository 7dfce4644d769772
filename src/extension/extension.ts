// Extension host entry. The only layer that imports 'vscode' (DESIGN.md).
// Activation registers the view, the commands and the status item, and nothing else: the rest of
// the extension (protocol schemas, session engine, agents, tools, sharing) is loaded right after it
// returns, or on the first command, so VS Code is never held up. Both times are logged.
import { LOAD_START } from './loadStart';
import * as vscode from 'vscode';
import { performance } from 'node:perf_hooks';
import { ChatViewProvider, CHAT_VIEW_ID } from './chatViewProvider';
import { windowFilesDir } from './stateFolders';
import { COMMAND_IDS } from './commandIds';
import { channelLogger } from './logger';
import type { CommandHandlers } from './paletteCommands';
import type { Services } from './services';
import { settings } from './settings';
import { StatusBar } from './statusBar';

/** What activate() returns: used by the integration tests running inside VS Code. */
export interface RawpExtensionApi {
  /** activate() alone. */
  activationMs: number;
  /** Evaluating the bundle up to activate() plus activate(). */
  loadAndActivationMs: number;
  /** The services, loaded on first use (how long that took is `servicesLoadMs`). */
  services(): Promise<Services>;
  servicesLoadMs(): number | undefined;
  provider: ChatViewProvider;
  /** The rawp.* settings as the extension reads them. */
  settings: typeof settings;
}

let running: Promise<Services> | undefined;

export function activate(context: vscode.ExtensionContext): RawpExtensionApi {
  const t0 = performance.now();
  const channel = vscode.window.createOutputChannel('RAWP Agent Client');
  context.subscriptions.push(channel);
  const logger = channelLogger(channel, settings.logLevel);
  const status = new StatusBar();
  context.subscriptions.push(status);
  let loadMs: number | undefined;
  let handlers: CommandHandlers | undefined;

  const services = (): Promise<Services> =>
    (running ??= Promise.resolve().then(() => {
      const l0 = performance.now();
      // Loaded here, not imported above: this is the heavy part of the bundle.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { wire } = require('./wiring') as typeof import('./wiring');
      const s = wire(context, logger, status, provider);
      handlers = s.handlers(channel);
      loadMs = performance.now() - l0;
      logger.info(`RAWP Agent Client services loaded in ${loadMs.toFixed(1)} ms`);
      return s.services;
    }));

  const provider = new ChatViewProvider(context.extensionUri, () => services().then((s) => s.controller), windowFilesDir(context));
  context.subscriptions.push(
    vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, provider),
    ...COMMAND_IDS.map((id) =>
      vscode.commands.registerCommand(id, async (...args: unknown[]) => {
        try {
          await services();
          await handlers?.[id](...args);
        } catch (e) {
          void vscode.window.showErrorMessage(`RAWP: ${e instanceof Error ? e.message : String(e)}`);
        }
      }),
    ),
  );
  // Right after activation: restore the previous window's sessions, show their state.
  setImmediate(() => void services().catch((e: unknown) => logger.error('the extension could not start', { error: String(e) })));

  const end = performance.now();
  const activationMs = end - t0;
  const loadAndActivationMs = end - LOAD_START;
  logger.info(`RAWP Agent Client activated in ${activationMs.toFixed(1)} ms (${loadAndActivationMs.toFixed(1)} ms with loading the bundle)`);
  return { activationMs, loadAndActivationMs, services, servicesLoadMs: () => loadMs, provider, settings };
}

export async function deactivate(): Promise<void> {
  // Save transcripts and stop agents; stored sessions stay for the next window (§7.8 on restore).
  const s = await running?.catch(() => undefined);
  await s?.dispose();
  running = undefined;
}
