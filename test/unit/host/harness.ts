// A session host like the extension builds, without VS Code: a temp workspace, a temp home (for
// slash-command discovery), a temp store, the built-in agent on the Node file backend, and a
// scripted agent for turns the test holds open.
import type { HostCheckpointOptions } from '../../../src/host/checkpoints/hostCheckpoints';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BuiltinAgent } from '../../../src/agents/builtin';
import type { AgentChoice } from '../../../src/host/agentChoice';
import { ChatController, type HostActions } from '../../../src/extension/chatController';
import { SessionHost } from '../../../src/host/sessionHost';
import type { AgentSummary, HostMessage } from '../../../src/protocol/webviewMessages';
import type { Logger } from '../../../src/session/ports';
import type { HistoryOptions } from '../../../src/session/history';
import { createSharedToolState } from '../../../src/tools/toolkit';
import { NodeFsBackend } from '../../../src/workspace/nodeFsBackend';
import type { SessionRulesPort } from '../../../src/host/sessionRules';
import type { PermissionBroker } from '../../../src/session/permissions';
import { ScriptedAdapter, type ScriptedAdapterOptions } from '../../support/scriptedAdapter';

export interface Harness {
  dir: string;
  workspace: string;
  storeDir: string;
  logs: { level: string; message: string }[];
  scripted: ScriptedAdapter[];
  /** The resume id each scripted agent was created with (§18.3). */
  resumes: (string | undefined)[];
  makeHost(opts?: { blocked?: string; scripted?: ScriptedAdapterOptions; defaultAgent?: string; sessionRules?: SessionRulesPort; /** More agents (e.g. the real Claude Code against the mock model). */ agents?: AgentChoice[]; permissions?: PermissionBroker; migrateFrom?: string; /** The session history's budget (a small one makes the ring evict). */ history?: HistoryOptions; checkpoints?: HostCheckpointOptions; /** Decision 651 (default on). */ namesFromPrompt?: boolean }): SessionHost;
  /** Disposes every host (their last store writes land), then removes the temp folder. */
  cleanup(): Promise<void>;
}

export function harness(): Harness {
  const dir = mkdtempSync(join(tmpdir(), 'rawp-ext-'));
  const workspace = join(dir, 'ws');
  const home = join(dir, 'home');
  const storeDir = join(dir, 'store', 'sessions');
  mkdirSync(join(workspace, 'src'), { recursive: true });
  mkdirSync(home, { recursive: true });
  writeFileSync(join(workspace, 'src', 'greeting.ts'), 'export const greeting = "Hello";\n');
  const logs: { level: string; message: string }[] = [];
  const logger: Logger = {
    debug: (message) => logs.push({ level: 'debug', message }),
    info: (message) => logs.push({ level: 'info', message }),
    warn: (message) => logs.push({ level: 'warn', message }),
    error: (message) => logs.push({ level: 'error', message }),
  };
  const scripted: ScriptedAdapter[] = [];
  const resumes: (string | undefined)[] = [];
  const hosts: SessionHost[] = [];
  return {
    dir,
    workspace,
    storeDir,
    logs,
    scripted,
    resumes,
    makeHost(opts = {}) {
      const shared = createSharedToolState({ fs: new NodeFsBackend([workspace]) });
      const agents = (): AgentChoice[] => [
        { id: 'builtin', name: 'Built-in', available: !opts.blocked, rank: 0, create: (o) => new BuiltinAgent({ shared: o?.toolState ?? shared }) },
        {
          id: 'scripted',
          name: 'Scripted',
          available: !opts.blocked,
          rank: -1,
          create: (o) => {
            resumes.push(o?.resumeSessionId);
            const a = new ScriptedAdapter({ features: { plan_mode: true, thinking_stream: true, tool_streaming: true }, ...opts.scripted });
            scripted.push(a);
            return a;
          },
        },
        ...(opts.agents ?? []),
      ];
      const host = new SessionHost({
        logger,
        agents,
        defaultAgent: () => opts.defaultAgent ?? 'auto',
        workspacePath: workspace,
        state: { dir: storeDir, ...(opts.migrateFrom ? { migrateFrom: opts.migrateFrom } : {}) },
        ...(opts.sessionRules ? { sessionRules: opts.sessionRules } : {}),
        ...(opts.history ? { history: () => opts.history as HistoryOptions } : {}),
        ...(opts.permissions ? { permissions: opts.permissions } : {}),
        ...(opts.checkpoints !== undefined ? { checkpoints: opts.checkpoints } : {}),
        ...(opts.namesFromPrompt !== undefined ? { namesFromPrompt: opts.namesFromPrompt } : {}),
        blocked: () => opts.blocked,
        commands: { home, workspaceFolders: [workspace], watch: false },
        // As the extension wires it: the host's agents share this tool state, and the host makes its
        // ledger forget a rewind's files (issue 17 item 4).
        toolState: () => shared,
      });
      hosts.push(host);
      return host;
    },
    async cleanup() {
      // A host still writing its store while the folder goes makes rmSync fail with ENOTEMPTY.
      await Promise.allSettled(hosts.map((h) => h.dispose()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface ViewRecorder {
  messages: HostMessage[];
  post: (m: HostMessage) => void;
  frames(): Record<string, unknown>[];
  kinds(): string[];
  clear(): void;
}

export function viewRecorder(): ViewRecorder {
  const messages: HostMessage[] = [];
  return {
    messages,
    // What the webview gets has gone through structured cloning: keep a JSON copy.
    post: (m) => messages.push(JSON.parse(JSON.stringify(m)) as HostMessage),
    frames: () => messages.flatMap((m) => (m.kind === 'frames' ? m.payload.frames : [])),
    kinds: () => messages.map((m) => m.kind),
    clear: () => messages.splice(0),
  };
}

export function fakeActions(calls: string[] = []): HostActions & { calls: string[] } {
  return {
    calls,
    openFile: async (path, line) => void calls.push(`openFile ${path}:${line ?? ''}`),
    openDiff: async (s, i, f) => void calls.push(`openDiff ${s} ${i} ${f ?? ''}`),
    copyAttachUrl: async (s) => void calls.push(`copyAttachUrl ${s}`),
    writeClipboard: async (t) => void calls.push(`clipboard ${t}`),
    permissionRules: () => [],
    revokeRule: () => false,
    enterSends: () => true,
  };
}

export function controllerFor(host: SessionHost, h: Harness, opts: { blocked?: string; actions?: HostActions; agents?: AgentSummary[]; language?: 'en' | 'ko' } = {}): ChatController {
  const logger: Logger = {
    debug: () => undefined,
    info: () => undefined,
    warn: (message) => h.logs.push({ level: 'warn', message }),
    error: (message) => h.logs.push({ level: 'error', message }),
  };
  return new ChatController({
    host,
    logger,
    actions: opts.actions ?? fakeActions(),
    blocked: () => opts.blocked,
    agents: () => opts.agents ?? [{ id: 'builtin', name: 'Built-in', available: !opts.blocked }],
    ...(opts.language ? { language: opts.language } : {}),
  });
}
