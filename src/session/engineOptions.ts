// What a host hands an AgentSession (engine.ts): the adapter, the frame sink and the ports and
// host services the engine's policy uses. Kept apart so the engine file holds behaviour only.
import type { PromptAdmission } from './admission';
import type { AgentAdapter } from './agentAdapter';
import type { ContextFileSource, ResolvedContextFile, SessionFilePort } from './contextFiles';
import type { Frame, PayloadOf } from '../protocol/frameTypes';
import type { PermissionBroker } from './permissions/broker';
import type { Clock, Logger, Timers } from './ports';
import type { SchemaValidator } from './structuredOutput';
import type { TurnHooks } from './turnHooks';

export type DeleteReason = PayloadOf<'session.deleted'>['reason'];
export type DeletedBy = PayloadOf<'session.deleted'>['deleted_by'];
export type RenamedBy = PayloadOf<'session.renamed'>['renamed_by'];

export interface AgentSessionOptions {
  adapter: AgentAdapter;
  /** Every frame the session makes goes here, in order (the hub's `publish`). */
  out: (frame: Frame) => void;
  /** Called once after `session.deleted` went out: close the connections, forget the session. */
  onEnded?: (info: { reason: DeleteReason; deleted_by: DeletedBy }) => void;
  session_id?: string;
  name?: string;
  /** A person gave `name`, so the agent's titles never replace it (default: any `name` given; decision 728). */
  nameByPerson?: boolean;
  workspacePath?: string;
  clock?: Clock;
  timers?: Timers;
  logger?: Logger;
  /** Announced as `max_frame_size`. */
  maxFrameSize?: number;
  /** After a cancel, how long the adapter gets to stop before the turn is ended anyway (default: the policy's grace + 1 s). */
  cancelGraceMs?: number;
  /** The host's permission policy and rules store, shared by its sessions (default: a private one). */
  permissions?: PermissionBroker;
  /** How long `dispose()` may take on session end before clean-up frames go out anyway. */
  disposeTimeoutMs?: number;
  /** Every control.prompt.request passes this port first (admission.ts; the host implements it). */
  admission?: PromptAdmission;
  /** Turn the prompt text into what this agent reads (§16.3 token conversion). */
  preparePrompt?: (prompt: PayloadOf<'control.prompt.request'>) => string;
  /** §6.3.1 between 0.80 and 0.95 utilization: compact now? (At 0.95 we always do.) */
  autoCompactConsider?: (utilization: number) => boolean;
  /** A restored session goes on counting: its next `turn_index` (§7.5.1). Default 0. */
  firstTurnIndex?: number;
  /** When the session began (a session restored after a restart keeps its own). */
  created_at?: string;
  /** How often tool statuses are re-checked while idle (§5.4.1-2; adapters with refreshTools). Default 10 s, 0 = never. */
  toolRecheckMs?: number;
  /** Awaited around each turn (turnHooks.ts: the host's workspace checkpoints). */
  turnHooks?: TurnHooks;
  /**
   * §18.3: the agent named its own session id at a turn's end, a new one or another than before.
   * The host keeps it with the session (journal), so a restart resumes the agent's conversation:
   * agents name it during their first turn, after the session's capabilities went out.
   */
  onAgentSession?: (agent_session_id: string) => void;
  /** A local file with an attachment's bytes (AgentHost.localCopy; Codex's `--image`). */
  localCopy?: (file: ResolvedContextFile) => Promise<string>;
  /** §16.1 fuzzy file search; when given, `file_search_fuzzy` is announced. */
  fileSearch?: (query: PayloadOf<'control.file.search'>, signal: AbortSignal, lane: string) => Promise<PayloadOf<'session.file.candidates'>>;
  /** Where adapters read `context_files` and `binary_ref` files (contextFiles.ts); default: refuse all. */
  contextFiles?: ContextFileSource;
  /** §11: validates `config_overrides.json_schema` answers; when given, `structured_output` is announced. */
  schemaValidator?: SchemaValidator;
  /** §4.5.1: the host's file store for this session (agents' downloads, masters' upload announcements). */
  files?: SessionFilePort;
}
