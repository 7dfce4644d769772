// Everything the extension runs, built once per window without I/O (activation must stay fast):
// the session host (hub, registry, persisted transcripts), the chat controller, the VS Code file
// backend shared by every built-in session, file search, secrets and sharing.
import * as vscode from 'vscode';
import { builtinLanguage } from '../agents/builtin/words';
import { agentSummaryOf } from '../protocol/webviewMessages';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '../session/ports';
import { createSharedToolState, type SharedToolState } from '../tools/toolkit';
import { AgentCatalog } from '../host/agentCatalog';
import { ChatController } from './chatController';
import { loginAgent } from './agentLogin';
import type { AttentionNotifier } from './notifications';
import { BeforeContentProvider, openEditDiff, openFileAt } from './editorActions';
import { openCheckpointReview } from './checkpointReview';
import { EditorFileSearch } from './editorFileSearch';
import { Secrets } from './secrets';
import { SessionHost } from '../host/sessionHost';
import { hostPermissionBroker } from '../host/permissions';
import { settings } from './settings';
import { Sharing } from './sharing';
import { restrictedReason } from './trust';
import { VscodeFsBackend } from './vscodeFsBackend';
import { folderRoots } from './workspaceRoots';
import { windowFilesDir, windowStateDir } from './stateFolders';
import { unsavedFiles } from './unsavedFiles';

export interface Services {
  host: SessionHost;
  catalog: AgentCatalog;
  controller: ChatController;
  sharing: Sharing;
  secrets: Secrets;
  before: BeforeContentProvider;
  shared: () => SharedToolState;
  /** The §16.1 search behind the @ picker (the view's and every master's). */
  fileSearch: EditorFileSearch['run'];
  /** The editor's file index (tests wait for it to settle), opened if needed. */
  fileIndex: EditorFileSearch['index'];
  /** Is the editor's file index open (or opening)? (Tests of its warm-up, decision 638.) */
  fileIndexOpen: () => boolean;
  blocked: () => string | undefined;
  restored: Promise<string[]>;
  /** Notifications and the badge (set by wiring.ts; tests read what was shown). */
  attention?: AttentionNotifier;
  dispose(): Promise<void>;
}

/** Workspace folders of every scheme (issue 13): `file:` ones are their paths, others docs/decisions/220. */
function folderUris(): vscode.Uri[] {
  return (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri);
}

function roots(): string[] {
  return folderRoots(folderUris()).map((r) => r.root);
}

/** Folders on the local disk (slash commands are read from there). */
function diskRoots(): string[] {
  return folderUris().filter((u) => u.scheme === 'file').map((u) => u.fsPath);
}

export function createServices(context: vscode.ExtensionContext, logger: Logger): Services {
  const blocked = () => restrictedReason() ?? (roots().length === 0 ? vscode.l10n.t('Open a folder to start a session: agents work inside a workspace folder.') : undefined);
  const rulesFile = join(context.globalStorageUri.fsPath, 'permission-rules.json');
  let shared: SharedToolState | undefined;
  let backend: VscodeFsBackend | undefined;
  const backends: VscodeFsBackend[] = [];
  const getShared = () => {
    if (!shared) {
      backend = new VscodeFsBackend(folderUris(), { allowOutsideRoots: settings.tools().allowOutsideWorkspace });
      backends.push(backend);
      shared = createSharedToolState({ fs: backend, settings: settings.tools() });
    }
    return shared;
  };
  const search = new EditorFileSearch(() => (getShared(), backend!));
  // The window's sessions are journaled like `rawp serve`'s (docs/decisions/123), in the
  // workspace's own storage folder; the journal is opened (and locked) on first use, not here.
  const stateDir = windowStateDir(context);
  const secrets = new Secrets(context.secrets);
  const catalog = new AgentCatalog({
    shared: getShared,
    blocked,
    logger,
    openai: async () => ({ ...settings.openai(), apiKey: await secrets.apiKey('openai') }),
    apiKey: (provider) => secrets.apiKey(provider),
    agentPaths: settings.agentPaths,
    // The built-in agent answers in the view's language (decision 572).
    language: vscode.env.language,
  });
  const agents = () => catalog.choices();
  const host = new SessionHost({
    logger,
    agents,
    defaultAgent: settings.defaultAgent,
    workspacePath: roots()[0] ?? '',
    history: settings.history,
    // The snapshots an older version kept in storage/sessions are carried over once.
    state: { dir: stateDir, budgetBytes: settings.transcriptBytes(), ...(context.storageUri ? { migrateFrom: join(context.storageUri.fsPath, 'sessions') } : {}) },
    fileSearch: search.run,
    blocked,
    agentsReady: () => catalog.detect(),
    // A continuation's agent whose executable went away: found again, and the lists say so (decision 644).
    detectAgentsAgain: () => catalog.detect(true).then(() => controller.refreshLists()),
    commands: { home: homedir(), workspaceFolders: diskRoots() },
    permissions: hostPermissionBroker({
      rulesFile,
      timeoutSec: settings.permissionTimeoutSec(),
      // "Always" rules hold in the workspace they were granted in (decision 708): its first folder
      // (its path on disk, or the URI of a virtual one).
      workspace: () => {
        const first = folderUris()[0];
        return first === undefined ? undefined : first.scheme === 'file' ? first.fsPath : first.toString();
      },
      onRulesProblem: (m) => {
        logger.warn(m);
        void vscode.window.showWarningMessage(`RAWP: ${m}`);
      },
    }),
    // §4.5.1 files in stateDir/files (the chat view's resource root, stateFolders.ts); file: URLs
    // of context_files may point into any workspace folder.
    files: { dir: windowFilesDir(context), maxBytes: settings.filesMaxBytes(), workspaceRoots: diskRoots },
    // Rewinds go through the VS Code backend (open documents are edited, undo survives) and ask the
    // editor for unsaved buffers; the host makes the shared ledger forget what they rewrote (issue 17).
    toolState: getShared,
    checkpoints: {
      enabled: settings.checkpointsEnabled,
      fs: () => getShared().fs,
      unsavedFiles: (paths) => unsavedFiles(roots()[0] ?? '', paths),
    },
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
  const controller: ChatController = new ChatController({
    host,
    l10n: vscode.l10n,
    language: builtinLanguage(vscode.env.language),
    logger,
    blocked,
    restored,
    agents: () => agents().map((a) => agentSummaryOf(a, { description: true })),
    agentsChanged: catalog.detect().then(() => undefined),
    actions: {
      openFile: openFileAt,
      openDiff: (session_id, invocation_id) => openEditDiff(host, before, session_id, invocation_id),
      copyAttachUrl: async (session_id) => {
        const url = await sharing.share(session_id);
        await vscode.env.clipboard.writeText(url);
        controller.notice('info', vscode.l10n.t('Session shared: the attach URL (with its token) is on the clipboard.'));
      },
      writeClipboard: async (text) => vscode.env.clipboard.writeText(text),
      permissionRules: () => host.permissionRules(),
      revokeRule: (id) => host.revokePermissionRule(id),
      enterSends: settings.enterSends,
      login: (agentId, via): Promise<void> => loginAgent({ catalog, controller, secrets }, agentId, via),
      workspaceRoots: () => roots(),
      reviewCheckpoint: (session_id, checkpoint_id, path) => openCheckpointReview(host, session_id, checkpoint_id, path),
    },
  });
  // A rule granted through any agent (or revoked) shows in the settings list at once.
  const rulesChanged = host.permissions.rules.onChange(() => controller.postSettings());
  context.subscriptions.push({ dispose: () => rulesChanged.dispose() });
  // Folders added or removed: slash commands follow at once; sessions started from now on get a
  // file backend (and search index) over the new folders. Running sessions keep theirs.
  context.subscriptions.push(
    vscode.workspace.onDidChangeWorkspaceFolders(() => {
      host.setWorkspaceFolders(diskRoots());
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
    fileSearch: search.run,
    fileIndex: () => search.index(),
    fileIndexOpen: () => search.isOpen,
    blocked,
    restored,
    async dispose() {
      sharing.dispose();
      search.dispose();
      await host.dispose();
      shared?.ledger?.dispose();
      for (const b of backends) b.dispose();
    },
  };
}
