// What a SessionHost (sessionHost.ts) is given — the agents, the state folder, the file store, the
// checkpoints and the shared tool state — and what it tells its listeners. No vscode: the extension
// and `rawp serve` fill these in alike.
import type { AgentSessionOptions } from '../session/engine';
import type { HistoryOptions } from '../session/history';
import type { SessionOrigin } from '../session/hub';
import type { Clock, Logger } from '../session/ports';
import type { PermissionBroker } from '../session/permissions';
import type { WireFrame } from '../session/connection';
import type { SharedToolState } from '../tools/toolkit';
import type { AgentChoice } from './agentChoice';
import type { HostCheckpointOptions } from './checkpoints/hostCheckpoints';
import type { SessionRulesPort } from './sessionRules';

export interface SessionHostOptions {
  logger: Logger;
  /** A session named after its agent takes its first turn's prompt as its name (decision 651; default true, off for headless runs). */
  namesFromPrompt?: boolean;
  agents: () => readonly AgentChoice[];
  /** `auto` or an agent id (setting rawp.defaultAgent). */
  defaultAgent: () => string;
  workspacePath: string;
  /** Another name of the workspace folder (the symlink --workspace was given by): its paths are the same files (decision 729). */
  workspaceOtherName?: string;
  history?: () => HistoryOptions;
  /**
   * Where sessions are journaled (journal/, docs/decisions/120-123): the editor's storage folder, or
   * `rawp serve --state-dir`. Absent: sessions live in memory only.
   */
  state?: {
    dir: string;
    budgetBytes?: number;
    /** Where the journal's warnings go (default: `logger`). */
    logger?: Logger;
    /** A folder of the editor's older session snapshots, carried over once (migrateSnapshots.ts). */
    migrateFrom?: string;
  };
  /** The permission rules store's session rules: journaled with their session, back on restore. */
  sessionRules?: SessionRulesPort;
  /** §16.1 file search, served for every session. */
  fileSearch?: AgentSessionOptions['fileSearch'];
  /** Why no agent may run right now (Restricted Mode), or undefined. */
  blocked?: () => string | undefined;
  clock?: Clock;
  /** Settles when agent detection is done (a new session waits, so `auto` sees every agent). */
  agentsReady?: () => Promise<void>;
  /**
   * Detects the agents again, now: one's executable went away since detection (a continuation
   * checks before it starts, decision 644). Absent: such an agent is refused as gone.
   */
  detectAgentsAgain?: () => Promise<void>;
  /** Slash-command discovery: the home folder and workspace folders (absent: no discovery). */
  commands?: { home: string; workspaceFolders: readonly string[]; watch?: boolean };
  /** `local` (the editor: visible to masters once shared, §2.4) or `remote` (`rawp serve`: shared). */
  origin?: SessionOrigin;
  /**
   * The one permission policy and rules store of every session (hostPermissionBroker(): the
   * settings' timeout, the rules file). Absent: in memory, with the default policy.
   */
  permissions?: PermissionBroker;
  /**
   * The §4.5.1 file store (files/): kept in `dir`, by default the state folder's `files/`; without
   * either, no files are stored and adapters' context-file reads are refused. `maxBytes`: the
   * size limit (rawp.files.maxBytes, --max-file-bytes; default 20 MB).
   */
  files?: {
    dir?: string;
    maxBytes?: number;
    workspaceRoots?: () => readonly string[];
    /** Host names besides loopback whose absolute /v1/files URLs are this host's (`--public-host`). */
    ownHostNames?: () => ReadonlySet<string>;
  };
  /**
   * Checkpoints of every turn of every agent (issue 17, src/host/checkpoints): on when the host
   * has a state folder (kept in `<state>/checkpoints`) or a `dir` is given; `false` turns them off.
   */
  checkpoints?: HostCheckpointOptions;
  /**
   * The tool state every agent of this host shares (one read-before-write ledger, issue 17 item 4):
   * handed to each agent the host creates, and a rewind makes its ledger forget the files it
   * restored, for every session at once. The editor passes its own (the VS Code backend); default:
   * one on the workspace's files.
   */
  toolState?: () => SharedToolState;
}

/** What `switchAgent` did (issue 15 Why 5, decision 361). */
export type AgentSwitch =
  /** The session already runs that agent. */
  | { kind: 'unchanged'; session_id: string }
  /** The session was empty: it was replaced by one with the chosen agent (this id). */
  | { kind: 'replaced'; session_id: string; agent: string }
  /** The session has history and keeps its agent: offer a new session with the chosen one. */
  | { kind: 'has_history'; session_id: string; agent: string };

export type HostEvent =
  | { kind: 'sessions' }
  | { kind: 'frame'; session_id: string; frame: WireFrame }
  | { kind: 'ended'; session_id: string }
  /** `/clear` typed in a view of ours (a local connection): that view starts a new conversation. */
  | { kind: 'clear'; session_id: string; connection_id: string };
