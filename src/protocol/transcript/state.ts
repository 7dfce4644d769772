// The transcript object: the view model (public fields) plus the indexes the reducer needs to
// find things in O(1) (`idx`, not part of the view). Also the small tree helpers every handler
// uses: registering nodes, bumping revisions up the tree, and choosing where a block goes.
import type { Frame, FrameOf, PayloadOf } from '../frameTypes';
import type {
  AgentStateView,
  Block,
  CompactionBlock,
  ErrorEntry,
  ErrorSeverity,
  FinalizationRecord,
  HistoryIssue,
  HistoryTruncatedWarning,
  InteractionBlock,
  Node,
  ParallelGroupBlock,
  SubagentRun,
  TextBlock,
  ThinkingBlock,
  TimelineEntry,
  TodoList,
  TokenTotals,
  ToolBlock,
  Turn,
  UsagePayload,
} from './types';

/** The session-level list: turns, prompts and anything that arrived outside a turn. */
export interface Root extends Node {
  blocks: TimelineEntry[];
}

/** Where blocks are appended: the session timeline, a turn, or a subagent run. */
export type Container = Root | Turn | SubagentRun;

export interface TranscriptIndex {
  /** §2.1 idempotency: every message_id ever applied. */
  seen: Set<string>;
  nodes: Map<string, Node>;
  /** child key -> parent key, for bumping revisions upwards. */
  parentOf: Map<string, string>;
  nextKey: number;
  root: Root;
  turns: Map<string, Turn>;
  /** Started and not ended, in start order; the last one is the current turn. Change it only
   *  through openTurn/closeTurn, which keep `current` right. */
  openTurns: Set<Turn>;
  /** The last of openTurns, cached: asked for on almost every frame. */
  current?: Turn;
  /** `${containerKey}|t|${content_index}` / `|k|` -> the latest text / thinking block of that index. */
  content: Map<string, TextBlock | ThinkingBlock>;
  streaming: Set<TextBlock | ThinkingBlock>;
  /** Thinking blocks whose last delta was redacted (consecutive redacted deltas share one mask). */
  redactedTail: Set<ThinkingBlock>;
  tools: Map<string, ToolBlock>;
  openTools: Set<ToolBlock>;
  groups: Map<string, ParallelGroupBlock>;
  interactions: Map<string, InteractionBlock>;
  pendingInteractions: Set<InteractionBlock>;
  /** Answers that arrived before their request (e.g. reordered history). */
  earlyAnswers: Map<string, FrameOf<'control.interaction.response'> | FrameOf<'control.interaction.timeout'>>;
  /** message_id of an applied control.interaction.response -> its question (for a refusal). */
  answerMessages: Map<string, InteractionBlock>;
  /** A second answer (another master's) to a question already answered here, by interaction id:
   *  it stands if the client refuses ours. */
  laterAnswers: Map<string, FrameOf<'control.interaction.response'> | FrameOf<'control.interaction.timeout'>>;
  runs: Map<string, SubagentRun>;
  runningRuns: Set<SubagentRun>;
  /** Latest main-agent usage per turn id, for the cumulative sum. */
  turnUsage: Map<string, UsagePayload>;
  /** checkpoint_id (a turn's, or the rewind checkpoint that undoes a rewind of it) -> that turn. */
  checkpointTurns: Map<string, Turn>;
}

export interface TranscriptOptions {
  /** Apply only frames of this session; others are counted and skipped. */
  sessionId?: string;
}

export interface TranscriptStats {
  applied: number;
  duplicates: number;
  /** Vendor frames and types the transcript does not show (file search, candidates, …). */
  ignored: number;
  otherSession: number;
}

export interface Transcript {
  /** Grows once per frame that changed something. */
  version: number;
  sessionId?: string;
  /** Everything in arrival order: prompts, turns, and blocks outside any turn. */
  timeline: TimelineEntry[];
  turns: Turn[];
  subagents: SubagentRun[];
  /** §10.6 frames are nested under their subagent only when the peer announced `subagent_context: true`. */
  subagentGrouping: boolean;
  todos?: TodoList;
  usage: {
    /** Latest main-agent report (§7.3). */
    latest?: UsagePayload;
    /** Sum over turns of each turn's latest report. */
    cumulative: TokenTotals;
    /** §10.5 subagent usage, kept apart: sum over runs of each run's latest report. */
    subagentCumulative: TokenTotals;
  };
  agentState?: AgentStateView;
  /** Mode of the latest turn (§7.5.1), else the latest `control.mode.switch`. */
  mode?: PayloadOf<'control.mode.switch'>['mode'];
  errors: ErrorEntry[];
  errorCounts: Record<ErrorSeverity, number>;
  commands?: PayloadOf<'agent.commands.publish'>['commands'];
  /** The command files that did not load, from the same publish (decision 721); none: all did. */
  unloadedCommands?: PayloadOf<'agent.commands.publish'>['unloaded'];
  toolCatalog?: PayloadOf<'tool.catalog.publish'>;
  /** Every `session.capabilities` seen, oldest first (client and master both send one). */
  capabilities: Array<PayloadOf<'session.capabilities'>>;
  name?: string;
  previousName?: string;
  deleted?: { reason: PayloadOf<'session.deleted'>['reason']; deletedBy: PayloadOf<'session.deleted'>['deleted_by']; timestamp: string };
  compactions: CompactionBlock[];
  plans: TextBlock[];
  historyTruncated?: HistoryTruncatedWarning;
  /** Frames inside a `session.history` that could not be replayed, with the reason. Capped. */
  historyIssues: HistoryIssue[];
  finalization?: FinalizationRecord;
  stats: TranscriptStats;
  readonly options: TranscriptOptions;
  readonly idx: TranscriptIndex;
}

export const MAX_HISTORY_ISSUES = 100;

/** Tool name shown for an invocation whose request was never seen. */
export const UNKNOWN_TOOL = '(unknown tool)';

export function zeroTokens(): TokenTotals {
  return { input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0, thinking_tokens: 0 };
}

export function createTranscript(options: TranscriptOptions = {}): Transcript {
  const root: Root = { key: 'session', rev: 0, blocks: [] };
  const idx: TranscriptIndex = {
    seen: new Set(),
    nodes: new Map([[root.key, root]]),
    parentOf: new Map(),
    nextKey: 0,
    root,
    turns: new Map(),
    openTurns: new Set(),
    content: new Map(),
    streaming: new Set(),
    redactedTail: new Set(),
    tools: new Map(),
    openTools: new Set(),
    groups: new Map(),
    interactions: new Map(),
    pendingInteractions: new Set(),
    earlyAnswers: new Map(),
    answerMessages: new Map(),
    laterAnswers: new Map(),
    runs: new Map(),
    runningRuns: new Set(),
    turnUsage: new Map(),
    checkpointTurns: new Map(),
  };
  return {
    version: 0,
    sessionId: options.sessionId,
    timeline: root.blocks,
    turns: [],
    subagents: [],
    subagentGrouping: false,
    usage: { cumulative: zeroTokens(), subagentCumulative: zeroTokens() },
    errors: [],
    errorCounts: { fatal: 0, error: 0, warning: 0 },
    capabilities: [],
    compactions: [],
    plans: [],
    historyIssues: [],
    stats: { applied: 0, duplicates: 0, ignored: 0, otherSession: 0 },
    options,
    idx,
  };
}

export function newKey(t: Transcript, prefix: string): string {
  return `${prefix}:${++t.idx.nextKey}`;
}

/** Registers a node under its parent so `touch` can walk upwards. */
export function register(t: Transcript, node: Node, parentKey: string | undefined): void {
  t.idx.nodes.set(node.key, node);
  if (parentKey !== undefined) t.idx.parentOf.set(node.key, parentKey);
}

/** Bumps the revision of a node and of every node above it (depth is small: block, run, tool, turn). */
export function touch(t: Transcript, key: string): void {
  let k: string | undefined = key;
  // The guard bounds the walk even if a future bug ever made a cycle.
  for (let guard = 0; k !== undefined && guard < 64; guard++) {
    const node = t.idx.nodes.get(k);
    if (node) node.rev++;
    k = t.idx.parentOf.get(k);
  }
}

/** Appends a block to a container and registers it. */
export function append<B extends Block>(t: Transcript, container: Container, block: B): B {
  container.blocks.push(block);
  register(t, block, container.key);
  touch(t, container.key);
  return block;
}

/** The current turn: the last one started and not ended. */
export function currentTurn(t: Transcript): Turn | undefined {
  return t.idx.current;
}

/** Marks a turn open and current (moving it to the end if it was open already). */
export function openTurn(t: Transcript, turn: Turn): void {
  t.idx.openTurns.delete(turn);
  t.idx.openTurns.add(turn);
  t.idx.current = turn;
}

/** Takes a turn out of the open set; the current turn falls back to the last still open. */
export function closeTurn(t: Transcript, turn: Turn): void {
  if (!t.idx.openTurns.delete(turn) || t.idx.current !== turn) return;
  let last: Turn | undefined;
  for (const open of t.idx.openTurns) last = open;
  t.idx.current = last;
}

/** A turn by id; created (open, implicit) when a frame names a turn whose start was never seen. */
export function ensureTurn(t: Transcript, turnId: string, timestamp: string): Turn {
  const known = t.idx.turns.get(turnId);
  if (known) return known;
  const turn: Turn = {
    kind: 'turn',
    key: newKey(t, 'turn'),
    rev: 0,
    turnId,
    open: true,
    synthetic: false,
    implicit: true,
    cancelRequested: false,
    blocks: [],
    startedAt: timestamp,
  };
  t.idx.turns.set(turnId, turn);
  openTurn(t, turn);
  t.turns.push(turn);
  t.idx.root.blocks.push(turn);
  register(t, turn, t.idx.root.key);
  touch(t, t.idx.root.key);
  const usage = t.idx.turnUsage.get(turnId);
  if (usage) turn.usage = usage;
  return turn;
}

/** The turn a frame belongs to: its `turn_id`, else the current turn, else none (session level). */
export function turnOf(t: Transcript, frame: Frame): Turn | undefined {
  if (frame.turn_id !== undefined) return ensureTurn(t, frame.turn_id, frame.timestamp);
  return currentTurn(t);
}

/** The subagent context a frame is grouped under, or undefined (main agent, or grouping off §10.6). */
export function contextOf(t: Transcript, frame: Frame): { parentInvocationId: string; depth: number; agentType?: string } | undefined {
  const ctx = frame.metadata?.subagent_context;
  if (!t.subagentGrouping || ctx === undefined || ctx === null) return undefined;
  return { parentInvocationId: ctx.parent_invocation_id, depth: ctx.depth, agentType: ctx.agent_type };
}

/** A placeholder tool block for an invocation known only from a later frame. */
export function placeholderTool(
  t: Transcript,
  container: Container,
  invocationId: string,
  toolName: string,
  frame: Frame,
  scoped: { depth: number; scope?: string } = scopeOf(t, frame),
): ToolBlock {
  const tool: ToolBlock = {
    kind: 'tool',
    key: newKey(t, 'tool'),
    rev: 0,
    invocationId,
    toolName,
    input: {},
    requestSeen: false,
    turnId: frame.turn_id ?? currentTurn(t)?.turnId,
    chunks: [],
    duplicateChunks: 0,
    ...scoped,
  };
  t.idx.tools.set(invocationId, tool);
  t.idx.openTools.add(tool);
  return append(t, container, tool);
}

/** The subagent run of an invocation, created (and its invocation, if unknown) on first mention. */
export function ensureRun(t: Transcript, parentInvocationId: string, depth: number, frame: Frame): SubagentRun {
  const known = t.idx.runs.get(parentInvocationId);
  if (known) return known;
  let tool = t.idx.tools.get(parentInvocationId);
  // The frame's context names this run, not the one the unseen invocation lived in: that is
  // unknown, so the placeholder goes to the turn, one level up from the run.
  if (!tool) tool = placeholderTool(t, containerOfTurn(t, frame), parentInvocationId, UNKNOWN_TOOL, frame, { depth: Math.max(0, depth - 1) });
  const run: SubagentRun = {
    key: newKey(t, 'run'),
    rev: 0,
    parentInvocationId,
    parentRunId: tool.scope,
    depth,
    status: 'running',
    started: false,
    synthetic: false,
    blocks: [],
  };
  tool.subagent = run;
  t.idx.runs.set(parentInvocationId, run);
  t.idx.runningRuns.add(run);
  t.subagents.push(run);
  register(t, run, tool.key);
  touch(t, tool.key);
  return run;
}

/** The frame's turn, or the session timeline when it belongs to no turn. */
function containerOfTurn(t: Transcript, frame: Frame): Container {
  return turnOf(t, frame) ?? t.idx.root;
}

/** Where a frame's block goes: its subagent run (§10.2, grouping on), else its turn, else the timeline. */
export function containerOf(t: Transcript, frame: Frame): Container {
  const ctx = contextOf(t, frame);
  if (ctx) return ensureRun(t, ctx.parentInvocationId, ctx.depth, frame);
  return containerOfTurn(t, frame);
}

/** Depth and scope for a block built from this frame. */
export function scopeOf(t: Transcript, frame: Frame): { depth: number; scope?: string } {
  const ctx = contextOf(t, frame);
  return ctx ? { depth: ctx.depth, scope: ctx.parentInvocationId } : { depth: 0 };
}
