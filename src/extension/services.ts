// Everything the extension runs, built once per window without I/O (activation must stay fast):
// the session host (hub, registry, persisted transcripts), the chat controller, the VS Code file
// backend shared by every built-in session, file search, secrets and sharing.
import * as vscode from 'vscode';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '../session/ports';
import { createSharedToolState, type SharedToolState } from '../tools/toolkit';
import { NodeFsBackend } from '../workspace/nodeFsBackend';
import { AgentCatalog } from '../host/agentCatalog';
import { ChatController } from './chatController';
import { BeforeContentProvider, openEditDiff, openFileAt } from './editorActions';
import { LazyFileSearch } from '../workspace/lazyFileSearch';
import { Secrets } from './secrets';
import { SessionHost } from '../host/sessionHost';
import { hostPermissionBroker } from '../host/permissions';
import { settings } from './settings';
import { Sharing } from './sharing';
import { restrictedReason } from './trust';
import { VscodeFsBackend } from './vscodeFsBackend';

export interface Services {
  host: SessionHost;
  catalog: AgentCatalog;
  controller: ChatController;
  sharing: Sharing;
  secrets: Secrets;
  before: BeforeContentProvider;
  shared: () => SharedToolState;
  blocked: () => string | undefined;
  restored: Promise<string[]>;
  dispose(): Promise<void>;
}

function roots(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
}

export function createServices(context: vscode.ExtensionContext, logger: Logger): Services {
  const blocked = () => restrictedReason() ?? (roots().length === 0 ? 'Open a folder to start a session: agents work inside a workspace folder.' : undefined);
  const rulesFile = join(context.globalStorageUri.fsPath, 'permission-rules.json');
  let shared: SharedToolState | undefined;
  const getShared = () =>
    (shared ??= createSharedToolState({
      fs: new VscodeFsBackend(new NodeFsBackend(roots(), { allowOutsideRoots: settings.tools().allowOutsideWorkspace })),
      settings: settings.tools(),
    }));
  const search = new LazyFileSearch(roots, () => getShared().fs);
  // The window's sessions are journaled like `rawp serve`'s (docs/decisions/123), in the
  // workspace's own storage folder; the journal is opened (and locked) on first use, not here.
  const stateDir = context.storageUri ? join(context.storageUri.fsPath, 'state') : join(context.globalStorageUri.fsPath, 'state-no-workspace');
  const secrets = new Secrets(context.secrets);
  const catalog = new AgentCatalog({
    shared: getShared,
    blocked,
    logger,
    openai: async () => ({ ...settings.openai(), apiKey: await secrets.apiKey('openai') }),
    apiKey: (provider) => secrets.apiKey(provider),
  });
  const agents = () => catalog.choices();
  const host = new SessionHost({
    logger,
    agents,
    defaultAgent: settings.defaultAgent,
    workspacePath: roots()[0] ?? '',
    history: settings.history,
    state: { dir: stateDir, budgetBytes: settings.transcriptBytes() },
    fileSearch: search.run,
    blocked,
    agentsReady: () => catalog.detect(),
    commands: { home: homedir(), workspaceFolders: roots() },
    permissions: hostPermissionBroker({ rulesFile, timeoutSec: settings.permissionTimeoutSec() }),
  });
  // Restored after activation returns: agents start, nothing blocks the editor.
  const restored: Promise<string[]> = blocked()
    ? Promise.resolve([])
    : new Promise<void>((r) => setImmediate(r)).then(() => host.restoreAll()).catch((e: unknown) => {
        logger.error('restoring sessions failed', { error: String(e) });
        return [];
      });
  const sharing = new Sharing(host, secrets, logger);
  const before = new BeforeContentProvider();
  const controller = new ChatController({
    host,
    logger,
    blocked,
    restored,
    agents: () => agents().map(({ id, name, description, available, unavailable_reason }) => ({ id, name, available, ...(description ? { description } : {}), ...(unavailable_reason ? { unavailable_reason } : {}) })),
    agentsChanged: catalog.detect().then(() => undefined),
    actions: {
      openFile: openFileAt,
      openDiff: (session_id, invocation_id) => openEditDiff(host, before, session_id, invocation_id),
      copyAttachUrl: async (session_id) => {
        const url = await sharing.share(session_id);
        await vscode.env.clipboard.writeText(url);
        controller.notice('info', 'Session shared: the attach URL (with its token) is on the clipboard.');
      },
      writeClipboard: async (text) => vscode.env.clipboard.writeText(text),
      permissionRules: () => host.permissionRules(),
      revokeRule: (id) => host.revokePermissionRule(id),
      enterSends: settings.enterSends,
    },
  });
  // A rule granted through any agent (or revoked) shows in the settings list at once.
  const rulesChanged = host.permissions.rules.onChange(() => controller.postSettings());
  context.subscriptions.push({ dispose: () => rulesChanged.dispose() });
  // Folders added or removed: slash commands follow at once; sessions started from now on get a
  // file backend (and search index) over the new folders. Running sessions keep theirs.
  context.subscriptions.push(
    vscode.workspace.onDidChangeWorkspaceFolders(() => {
      host.setWorkspaceFolders(roots());
      shared = undefined;
    }),
  );
  // The status bar shows the restored session even before the chat view is opened.
  void restored.then((ids) => {
    if (ids.length > 0 && !controller.activeSessionId) controller.switchTo(ids[ids.length - 1]);
  });
  return {
    host,
    catalog,
    controller,
    sharing,
    secrets,
    before,
    shared: getShared,
    blocked,
    restored,
    async dispose() {
      sharing.dispose();
      search.dispose();
      await host.dispose();
      shared?.ledger?.dispose();
    },
  };
}
