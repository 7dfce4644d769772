// The view model the transcript reducer builds from frames: what the webview, the terminal
// master and the tests read. Payload-shaped parts reuse the frame schemas' types (PayloadOf), so
// no frame type is written twice.
//
// Model choice: MUTABLE objects plus revision counters (see docs/decisions/012-reducer-mutable-model.md). Every node
// (turn, block, run) has a `rev` that grows whenever it or anything inside it changes, and the
// transcript has a `version` that grows once per frame that changed something. A renderer memoises
// on (object identity, rev). Appending a delta is O(1) amortised: no array or object is copied,
// and `text += chunk` builds a rope in V8 that is flattened only when read.
import type { OutputTypeName } from '../common';
import type { PayloadOf } from '../frameTypes';
import type { CheckpointFile, CheckpointSkipped } from '../checkpointFrames';
import type { TodoItem } from './todos';

export type { TodoItem };

export type StopReasonName = PayloadOf<'session.turn.end'>['stop_reason'];
/** §7.8.1: a turn closed by finalization counts as ended with "disconnected" (view model only). */
export type TurnStopReason = StopReasonName | 'disconnected';
export type ToolResultStatus = PayloadOf<'tool.invoke.result'>['status'];
export type ToolStreamType = PayloadOf<'tool.invoke.stream'>['stream_type'];
export type ErrorSeverity = PayloadOf<'agent.error'>['severity'];
export type SubagentStatus = 'running' | PayloadOf<'agent.subagent.ended'>['status'];
export type InteractionStatus = 'pending' | 'answered' | 'timed_out' | 'discarded';
/** Why a question was retired without an answer of this view (§6.1.2 cancel, §7.5.2 turn end,
 *  §6.2 a refused answer: it was no longer open at the client, §7.8.2 the host that asked it died
 *  and its successor closed it). */
export type InteractionRetiredBy = 'cancelled' | 'turn_ended' | 'not_open' | 'host_restart';
export type FinalizeReason = 'connection_closed' | 'connection_error' | 'app_restart';

/** Shared by every node of the tree. `key` is unique in one transcript. */
export interface Node {
  key: string;
  /** Grows whenever this node or anything below it changes. */
  rev: number;
}

/** Subagent nesting depth of the frames behind a block (§10.2: no context means 0). */
export interface Scoped {
  depth: number;
  /** `parent_invocation_id` of the subagent run the block belongs to; absent for the main agent. */
  scope?: string;
}

/** §4.1 text, or a §9 plan document when the frames carry `metadata.content_role: "plan"`. */
export interface TextBlock extends Node, Scoped {
  kind: 'text' | 'plan';
  contentIndex: number;
  text: string;
  done: boolean;
  /** §6.1.2 `agent.text.done` with `is_cancelled: true`. */
  cancelled: boolean;
  /** §9.1 plan id, for plan blocks. */
  planId?: string;
  /** The `full_text` of `agent.text.done` differed from the deltas and replaced them. */
  repaired: boolean;
  /** Closed by finalization (§7.8.1) rather than by `agent.text.done`; unfinalization reopens it. */
  finalized: boolean;
  /** §9.2 the question that approves this plan (YN, or the permission of the plan tool): it is
   *  rendered inside the plan, as the plan's one approval control, and not as a card of its own. */
  approval?: InteractionBlock;
}

/** Replaces redacted thinking text: the raw text is never stored (§15.3). */
export const REDACTED_THINKING = '[redacted thinking]';

/** §4.2 thinking. A redacted delta's text is replaced by REDACTED_THINKING before it is stored. */
export interface ThinkingBlock extends Node, Scoped {
  kind: 'thinking';
  contentIndex: number;
  text: string;
  redacted: boolean;
  done: boolean;
  finalized: boolean;
}

export interface ToolChunk {
  sequence: number;
  streamType: ToolStreamType;
  chunk: string;
}

export interface ToolResult {
  status: ToolResultStatus;
  output: unknown;
  outputType: OutputTypeName;
  durationMs?: number;
  truncated: boolean;
  /** §7.8.1 synthesized locally ("Connection lost"); removed again by unfinalization. */
  synthetic: boolean;
  messageId: string;
  /** The error code of an error result, when the tool gave one (shown as a sentence). */
  errorCode?: string;
  /** The saved rule that let the call run without a question (decision 691), as the result named it. */
  allowedByRule?: NonNullable<PayloadOf<'tool.invoke.result'>['allowed_by_rule']>;
}

/** §5 one tool call: request, streamed output (ordered by `sequence`) and result. */
export interface ToolBlock extends Node, Scoped {
  kind: 'tool';
  invocationId: string;
  toolName: string;
  toolVersion?: string;
  input: Record<string, unknown>;
  parallelGroupId?: string;
  /** §10.1 present when the call starts a subagent. */
  subagentSpec?: PayloadOf<'tool.invoke.request'>['subagent'];
  /** False while only stream/result frames were seen (e.g. a truncated history). */
  requestSeen: boolean;
  turnId?: string;
  /** Sorted by `sequence`; a repeated sequence is dropped (first one wins). */
  chunks: ToolChunk[];
  duplicateChunks: number;
  result?: ToolResult;
  /** §10 the run this invocation started, with its own blocks when grouping is on (§10.6). */
  subagent?: SubagentRun;
  /** How long the call waited for the answer to its permission question (from the question's
   *  timestamp to the answer's): the view leaves it out of the tool's own time (decision 565). */
  permissionWaitMs?: number;
  /** The permission question this call was asked about (§4.3): while it is pending, the call waits. */
  asking?: InteractionBlock;
}

/** §5.2.1 / §13.4 tool calls sent together under one `parallel_group_id`. */
export interface ParallelGroupBlock extends Node, Scoped {
  kind: 'parallel';
  groupId: string;
  invocations: ToolBlock[];
}

/** §4.3 a question to the user and what became of it (§6.2). */
export interface InteractionBlock extends Node, Scoped {
  kind: 'interaction';
  interactionId: string;
  request: PayloadOf<'agent.interaction.request'>;
  /** The request frame's timestamp. */
  askedAt?: string;
  status: InteractionStatus;
  response?: { selectedValue: string | string[]; textInput?: string };
  /** Discarded by finalization (§7.8.1); unfinalization makes it pending again. */
  synthetic: boolean;
  /** The turn that asked (frame turn_id, else the current turn). */
  turnId?: string;
  /** Set when the question was retired without an answer from this view (status 'discarded'). */
  retiredBy?: InteractionRetiredBy;
  /** §9.2 the key of the plan this question approves (see TextBlock.approval). */
  planKey?: string;
}

export interface ErrorEntry {
  source: 'agent' | 'session';
  /** `session.error` counts as "fatal" when `fatal: true`, else "error". */
  severity: ErrorSeverity;
  code: string;
  message: string;
  recoverable?: boolean;
  details?: PayloadOf<'agent.error'>['details'];
  turnId?: string;
  messageId: string;
  timestamp: string;
}

export interface ErrorBlock extends Node, Scoped {
  kind: 'error';
  error: ErrorEntry;
}

/** §7.2 a context compaction report. */
export interface CompactionBlock extends Node, Scoped {
  kind: 'compaction';
  compaction: PayloadOf<'session.compacted'>;
  timestamp: string;
}

/** §4.5 a file handed over by URL. */
export interface FileTransferBlock extends Node, Scoped {
  kind: 'file_transfer';
  transfer: PayloadOf<'agent.file.transfer'>;
}

/** §6.1.1 the user's prompt (relayed `control.prompt.request`). */
export interface PromptBlock extends Node {
  kind: 'prompt';
  messageId: string;
  prompt: PayloadOf<'control.prompt.request'>;
  timestamp: string;
}

export type Block =
  | TextBlock
  | ThinkingBlock
  | ToolBlock
  | ParallelGroupBlock
  | InteractionBlock
  | ErrorBlock
  | CompactionBlock
  | FileTransferBlock
  | PromptBlock;

export type UsagePayload = PayloadOf<'session.usage'>;

export interface TokenTotals {
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  thinking_tokens: number;
}

/** §10 a subagent run, keyed by the `invocation_id` of the call that started it. */
export interface SubagentRun extends Node {
  parentInvocationId: string;
  /** The run this one was started from (its invocation's scope); absent for a run of the main agent. */
  parentRunId?: string;
  depth: number;
  agentType?: string;
  description?: string;
  status: SubagentStatus;
  /** `agent.subagent.started` was seen. */
  started: boolean;
  durationMs?: number;
  /** Ended by finalization (§7.8.1). */
  synthetic: boolean;
  /** Frames with this run's `subagent_context` (§10.2), when grouping is on (§10.6). */
  blocks: Block[];
  /** §10.5 the run's own latest usage report, never added to the main agent's totals. */
  usage?: UsagePayload;
  agentState?: string;
  todos?: TodoList;
}

/** §7.5 one turn. */
export interface Turn extends Node {
  kind: 'turn';
  turnId: string;
  index?: number;
  mode?: PayloadOf<'session.turn.start'>['mode'];
  open: boolean;
  stopReason?: TurnStopReason;
  structuredOutput?: PayloadOf<'session.turn.end'>['structured_output'];
  toolInvocationCount?: number;
  /** Ended by finalization with stop reason "disconnected" (§7.8.1). */
  synthetic: boolean;
  /** Created because a frame named this turn before its `session.turn.start` was seen. */
  implicit: boolean;
  /** §6.1.2 a `control.prompt.cancel` targeted this turn. */
  cancelRequested: boolean;
  /** Latest main-agent `session.usage` for this turn. */
  usage?: UsagePayload;
  blocks: Block[];
  startedAt?: string;
  endedAt?: string;
  /** Issue 17: the files this turn changed (`x-rawp.checkpoint.created`) and its latest rewind. */
  checkpoint?: TurnCheckpoint;
  /** No checkpoint could be taken for this turn, and why (`x-rawp.checkpoint.none`, decision 645). */
  unrecorded?: 'off' | 'late' | 'failed';
}

/** A turn's checkpoint as the review UI shows it (docs/remote.md#checkpoints). */
export interface TurnCheckpoint {
  checkpointId: string;
  files: CheckpointFile[];
  skipped: CheckpointSkipped[];
  /**
   * The latest `x-rawp.checkpoint.restored` of this checkpoint (or of the one that undoes its rewind),
   * with the earlier answers of the same action summed in (decision 673).
   */
  restore?: CheckpointRestoreView;
  /**
   * The undo checkpoints of this turn's rewinds not undone yet, oldest first: a rewind and each
   * forced follow-up of its conflicts records one. "Undo rewind" restores them newest first, so a
   * later answer (a forced file, a rewind that found nothing to do, an error) never hides the undo
   * of what was rewound before it (decision 612).
   */
  undoable: string[];
}

export interface CheckpointRestoreView {
  /** The checkpoint the answer is for: the turn's own (a rewind) or its undo checkpoint (an undo). */
  checkpointId: string;
  /** True when this answers the restore of the undo checkpoint (the rewind was undone). */
  undo: boolean;
  restored: string[];
  /** Of `restored`, the files that were already as they were: nothing was written for them. */
  unchanged: string[];
  conflicts: string[];
  failed: Array<{ path: string; message: string }>;
  /** Restoring this checkpoint undoes the rewind (absent when nothing was written). */
  undoCheckpointId?: string;
  error?: { code: string; message: string };
  /**
   * An undo: the undo checkpoints the same "Undo rewind" sent whose answers have not come yet; their
   * answers are added to this one (decision 673), as a rewind's "Apply choices" is added to it.
   */
  undoPending?: string[];
}

export type TimelineEntry = Turn | Block;

/** §8.1 tasks as TodoRead/TodoWrite report them (§8.2). */
export interface TodoList {
  items: TodoItem[];
  invocationId: string;
  toolName: string;
  /** Items that did not match §8.1 and were left out. */
  invalidItems: number;
}

export interface AgentStateView {
  current: string;
  previous?: string;
  reason?: string;
  /** Set to idle by finalization (§7.8.1). */
  synthetic: boolean;
}

/** §7.1.1 the UI must tell the user that history was lost. */
export interface HistoryTruncatedWarning {
  policyApplied: PayloadOf<'session.history'>['buffer_status']['policy_applied'];
  lostFrameCount?: number;
  lastMessageId: string;
  /** `disconnected`: frames published while a reattaching view was away were lost; `budget`: the
   *  session is longer than the host's history budget, so a fresh view starts past its beginning. */
  cause: 'disconnected' | 'budget';
  /** In English, for the CLI and logs; the webview words it from `cause` in its own language. */
  message: string;
}

/** What finalization changed, so unfinalization can undo exactly that (§7.8.3). */
export interface FinalizationRecord {
  reason: FinalizeReason;
  /** message_ids of the synthesized `tool.invoke.result` frames. */
  syntheticFrameIds: string[];
  /** The invocations those frames completed. */
  tools: ToolBlock[];
  blocks: Array<TextBlock | ThinkingBlock>;
  turns: Turn[];
  interactions: InteractionBlock[];
  runs: SubagentRun[];
  /** The agent state before it was forced to idle. */
  agentStateBefore?: AgentStateView;
  /** Why a later history did not undo it (§7.8.3), if one arrived. */
  kept?: 'history_truncated' | 'session_deleted';
}

export interface HistoryIssue {
  index: number;
  message: string;
}
