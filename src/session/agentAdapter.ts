// The agent-adapter interface. It lives in the session layer, which drives adapters, so adapters
// (src/agents) and tools (src/tools) import it from here and every layer arrow points downwards.
// An adapter only translates: a native agent's stream -> DPS frame content, and DPS controls -> the agent. Policy (modes, tool whitelist, one prompt at a time,
// clean-up order, capability filtering) lives once in the session engine (src/session).
//
// Adapters emit *frame bodies* (type + payload + optional metadata); the engine stamps the
// envelope (message_id, timestamp, session_id, turn_id) so every agent gets identical framing.
import type { FrameType, PayloadOf } from '../protocol/frameTypes';
import type { Metadata } from '../protocol/envelope';
import type { FeatureSet } from '../protocol/capabilities';
import type { AgentModeName } from '../protocol/common';
import type { PermissionPolicy, PermissionQuestion, PermissionVerdict } from './permissions';
import type { CatalogDiagnostic, CatalogTool, CommandEntry, ContextFile, FileReferenceEntry } from '../protocol/payloadTypes';
import type { ContextFileSource, FileTransferPayload, OutgoingFile, ResolvedContextFile } from './contextFiles';
import type { AttachmentSupport } from './attachments';

/** What an adapter emits: a frame without its envelope. */
export type AgentEvent = { [T in FrameType]: { type: T; payload: PayloadOf<T>; metadata?: Metadata } }[FrameType];

export type { CatalogDiagnostic, CatalogTool, CommandEntry, ContextFile };
export type FileReference = FileReferenceEntry;

export interface AgentInfo {
  /** Stable id: 'builtin', 'claude-code', 'codex', 'acp:gemini', 'openai', … */
  id: string;
  displayName: string;
  adapter_type: 'process' | 'sdk';
  /** §18: the process ends after each turn and is respawned with `resume_flag`. */
  single_turn_process?: boolean;
  resume_flag?: string;
  /**
   * The agent follows a fixed grammar, not a language model (the built-in agent): prompts written
   * for a model, as the bundled `/review`, `/explain` and `/test` are, ask what it cannot do, and
   * those are not offered to it. The user's own command files still are (they may speak its grammar).
   */
  grammarOnly?: boolean;
}

/**
 * The §6.1.1 `config_overrides` an agent honours itself (turnOverrides.ts): a native JSON-Schema
 * option (§11) and a native step cap. The engine does the rest for it.
 */
export interface NativeOverrides {
  json_schema?: boolean;
  max_turns?: boolean;
  /**
   * The tool through which the agent hands over its structured answer (Claude Code's
   * `StructuredOutput`): with a schema it is allowed even when `allowed_tools` leaves it out.
   */
  structured_output_tool?: string;
}

/** What the agent can do; the engine announces it in `session.capabilities`. */
export interface AgentCapabilities {
  features: FeatureSet;
  /** Vendor extensions, e.g. `agent_session_id` (§18.3). */
  extensions?: Record<string, unknown>;
  /** Not announced: which config_overrides the adapter passes to the agent natively. */
  native_overrides?: NativeOverrides;
  /** §6.1.1 `context_files` the agent takes; admission refuses others before the turn. None when absent. */
  attachments?: AttachmentSupport;
}

/** A prompt as the engine hands it to the adapter: tokens already converted for this agent (§16.3). */
export interface AgentPrompt {
  turn_id: string;
  turn_index: number;
  text: string;
  input_type: 'text' | 'slash_command' | 'continuation' | 'piped_stdin';
  mode: AgentModeName;
  file_references: FileReference[];
  context_files: ContextFile[];
  allowed_tools?: string[];
  denied_tools?: string[];
  /** §11: the schema, only for an adapter with `native_overrides.json_schema` (validated by the engine). */
  json_schema?: Record<string, unknown>;
  /** §6.1.1 step cap, only for an adapter with `native_overrides.max_turns`; its error code is MAX_TURNS. */
  max_turns?: number;
  /** §6.1.1 `output_format` of the request (the headless runner honours it). */
  output_format?: 'text' | 'json' | 'stream-json';
}

/** The answer to an interaction the adapter asked for. */
export type InteractionAnswer =
  /** `by_default`: nobody answered in time and the request's `default_value` was taken. */
  | { kind: 'response'; selected_value: string | string[]; text_input?: string; by_default?: boolean }
  | { kind: 'timeout' }
  /** The interaction was discarded (turn cancelled, session ended). */
  | { kind: 'cancelled' };

/** What the engine gives an adapter: a way to emit frames and to ask the user. */
export interface AgentHost {
  readonly session_id: string;
  readonly workspacePath: string;
  /**
   * Emit frame content; the engine stamps the envelope and applies policy. A `session.renamed` is
   * the agent's own title for its session, not a frame: the engine renames the session with it
   * (`renamed_by: 'edge'`) unless a person named the session, at most once per 10 s, the latest
   * title winning (src/session/agentTitles.ts, decision 725). Other engine-owned types are dropped.
   */
  emit(event: AgentEvent): void;
  /**
   * Ask before running a tool: the engine checks mode, whitelist and catalog status.
   * `allowed: false` carries the message to return to the agent (e.g. "Tool not allowed in current mode").
   */
  checkTool(
    tool_name: string,
    input: Record<string, unknown>,
    /** When a subagent makes the call: its spawning invocation, so its `allowed_tools` apply (§15.2). */
    context?: { parent_invocation_id?: string },
  ): { allowed: true } | { allowed: false; message: string; /** Why, as a code: TOOL_NOT_ALLOWED_IN_MODE, TOOL_DENIED, … (toolPolicy.ts). */ code?: string };
  /**
   * Send an `agent.interaction.request` and wait for the answer. A timeout resolves as `timeout`
   * (deny) or, except for PERMISSION, as the request's `default_value` (`by_default: true`);
   * a cancelled turn or ended session resolves as `cancelled`. `metadata` carries e.g. the
   * `subagent_context` of a subagent's permission ask.
   */
  requestInteraction(request: PayloadOf<'agent.interaction.request'>, options?: { metadata?: Metadata }): Promise<InteractionAnswer>;
  /**
   * Ask for a permission under the host's one policy and rules store (issue 11 item 4): a rule of
   * any agent may answer it at once; else a PERMISSION interaction with the policy's risk, timeout
   * and default; a "for this session" / "always" answer becomes a rule. The adapter maps its
   * native ask to the question and the verdict back to its native answer.
   */
  askPermission(question: PermissionQuestion, options?: { metadata?: Metadata }): Promise<PermissionVerdict>;
  /** The host's policy: e.g. how long an agent gets to end a cancelled turn (`cancelGraceMs`). */
  readonly policy: PermissionPolicy;
  /**
   * A local file with a context file's bytes, for an agent that takes attachments only as paths
   * (Codex's `--image`): kept in the session's private folder, removed with the session. Absent
   * when the host cannot make one.
   */
  localCopy?(file: ResolvedContextFile): Promise<string>;
  /** Current agent mode. */
  readonly mode: AgentModeName;
  /**
   * The agent changed its own mode (Claude Code leaves plan mode when the user approves its plan
   * through ExitPlanMode). The engine adopts it, says so with `agent.state.changed` reason
   * `mode_switch`, and the next `session.turn.start` carries it (§6.3.2). Optional for hosts.
   */
  reportMode?(mode: AgentModeName): void;
  /**
   * §18.3: the agent named its own session id (Claude Code's init, Codex's thread.started), the
   * moment it did: the host keeps it even if this turn never ends (a reload, a crash). Optional.
   */
  reportAgentSession?(agent_session_id: string): void;
  /**
   * Reads the prompt's `context_files` (§6.1.1) and `binary_ref` files (§5.3.1) by URL, bound to
   * this session (src/session/contextFiles.ts). The engine always sets it (a host without a file
   * store gets `noContextFiles`, which refuses every URL with a ContextFileError); optional only so
   * hand-made test hosts need not. Adapters: `host.contextFiles ?? noContextFiles`.
   */
  readonly contextFiles?: ContextFileSource;
  /**
   * Offer a file the agent made to every connection (§4.5.1 direction `download`): the host
   * stores it and the engine emits `agent.file.transfer` with its `file_url` and SHA-256
   * `checksum`. Pair it with a `tool.invoke.result` of output_type `binary_ref` (§5.3.1) by
   * giving `context.related_tool_invocation_id`. Rejects when the host has no file store or the
   * file is over the limit.
   */
  publishFile?(file: OutgoingFile): Promise<FileTransferPayload>;
}

export interface AgentAdapter {
  readonly info: AgentInfo;
  /** Start (spawn / connect). Resolves with capabilities, the tool catalog and commands. */
  start(host: AgentHost): Promise<{ capabilities: AgentCapabilities; tools: CatalogTool[]; diagnostics?: CatalogDiagnostic[]; commands: CommandEntry[] }>;
  /**
   * Run one turn. Emits text/thinking/tool frames through the host, and resolves when the turn is
   * over with how it ended. The engine emits `session.turn.start`/`end` and `session.usage`.
   */
  prompt(prompt: AgentPrompt, signal: AbortSignal): Promise<TurnOutcome>;
  /** Change mode between turns (only called when the agent announced `plan_mode`). */
  setMode?(mode: AgentModeName): Promise<void>;
  /** Compact the context (only when `context_compaction` was announced). */
  compact?(instruction: string | undefined, target_token_ratio: number | undefined): Promise<PayloadOf<'session.compacted'>>;
  /**
   * Re-check what the tools depend on (a CLI installed or removed, a key set) and emit
   * `tool.catalog.publish` when a status changed (§5.4.1-2). The engine calls it while idle.
   */
  refreshTools?(): void;
  /** Stop for good: kill processes (SIGTERM, SIGKILL after 5 s), release resources. */
  dispose(): Promise<void>;
}

export interface TurnUsage {
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens?: number;
  cache_write_tokens?: number;
  thinking_tokens?: number;
  cost_usd?: number;
  context_capacity?: number;
  context_used?: number;
}

export interface TurnOutcome {
  stop_reason: PayloadOf<'session.turn.end'>['stop_reason'];
  usage?: TurnUsage;
  structured_output?: PayloadOf<'session.turn.end'>['structured_output'];
  /**
   * §11: the object the agent handed over through its native structured-output channel (Claude
   * Code's StructuredOutput); the engine validates it against the requested schema.
   */
  structured_data?: Record<string, unknown>;
  /** The agent's own session id (§18.3), kept for resume. */
  agent_session_id?: string;
}
