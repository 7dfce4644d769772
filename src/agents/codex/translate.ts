// One Codex turn (`codex exec --json` lines) -> DPS frame content. Codex prints whole items, not
// token deltas, so each reasoning/message item becomes one delta plus its done. Item ids restart
// at item_0 in every process (and so in every resumed turn): invocations get fresh UUIDs.
//
// Lines are handled strictly in order through a promise queue, because turning a file change into
// a diff reads files. `finish()` waits for the queue and closes whatever is still open; a diff that
// takes longer than `diffTimeoutMs` (a read that hangs) is given up, so the turn always ends.
import { newId } from '../../protocol/build';
import type { PayloadOf } from '../../protocol/frameTypes';
import type { AgentEvent, CatalogTool, TurnUsage } from '../../session/agentAdapter';
import { CODEX_APPLY_PATCH, CODEX_BASH, CODEX_TODOS, CODEX_TOOLS, CODEX_WEB_SEARCH, mcpCatalogEntry } from './catalog';
import { CodexEvent, CodexItem, ProviderErrorBody, type CodexUsage, type FileChangeItem } from './nativeEvents';
import { describeIssues } from '../../protocol/parse';
import { isCodexAuthFailure } from './authFailure';
import { WarningBudget, WARNINGS_PER_KIND } from '../process/warningBudget';

export interface CodexTranslatorOptions {
  emit(event: AgentEvent): void;
  /**
   * The unified diff of a file change, or undefined when it cannot be known (the converter has no
   * files). `phase: 'started'` lets an implementation snapshot the files before Codex writes them.
   */
  fileChangeDiff?(item: FileChangeItem, phase: 'started' | 'completed'): Promise<string | undefined>;
  /** The catalog so far; a tool not in it (an MCP tool) is added and re-published first (§5.4.1). */
  catalog?: CatalogTool[];
  /**
   * Reported, never thrown: a line we could not make sense of — `malformed` (a known event or
   * item whose fields do not fit) or `unknown` (a type of a newer Codex, nothing to show).
   */
  onUnknown?(what: string, value: unknown, kind: 'malformed' | 'unknown'): void;
  /** The API answered 401 (no or refused credentials): the first time in the turn (decision 441). */
  onAuthFailure?(message: string): void;
  /** How long one file change's diff may take before the plain summary stands in (default 5 s). */
  diffTimeoutMs?: number;
}

const DIFF_TIMEOUT_MS = 5_000;

type ResultStatus = PayloadOf<'tool.invoke.result'>['status'];
/** A tool's output: any JSON value; `null` stands for "none" (the field itself is required). */
type ToolOutput = PayloadOf<'tool.invoke.result'>['output'];

export type CodexTurnEnd = 'completed' | 'failed' | 'open';

interface OpenTool {
  invocation_id: string;
  tool_name: string;
  started: number;
}

export class CodexTurnTranslator {
  /** Codex's thread id (= its session id, §18.3), from `thread.started`. */
  threadId: string | undefined;
  /** turn.completed usage as Codex reports it: running totals of the whole thread. */
  threadUsage: CodexUsage | undefined;
  end: CodexTurnEnd = 'open';
  toolCount = 0;
  private blockIndex = 0;
  private queue: Promise<void> = Promise.resolve();
  private readonly open = new Map<string, OpenTool>();
  private readonly catalog: CatalogTool[];
  private errorReported = false;
  /** Codex's words for the API's 401, when it came: the adapter reports AUTH_REQUIRED instead. */
  authFailure: string | undefined;
  /** Warnings of each error_code this turn: the first shown, the rest counted and said in one line (decision 714). */
  private readonly warned = new WarningBudget();
  /** Aborted when the turn is cancelled: a diff still being read is not waited for. */
  private readonly diffsOff = new AbortController();

  constructor(private readonly opts: CodexTranslatorOptions) {
    this.catalog = opts.catalog ?? CODEX_TOOLS.map((t) => ({ ...t }));
  }

  /** Feed one decoded stdout line. */
  push(value: unknown): void {
    this.queue = this.queue.then(
      () => this.handle(value),
      () => this.handle(value),
    );
  }

  /**
   * Handle one line at once, for converters that have no files to diff (no `fileChangeDiff`):
   * then nothing awaits and the frames are out when this returns.
   */
  handleNow(value: unknown): void {
    void this.handle(value);
  }

  /** Close open tool calls at once (converters; see finish()). */
  closeNow(reason: 'cancelled' | 'ended'): void {
    for (const [key, tool] of this.open) {
      this.open.delete(key);
      this.emitResult(tool, 'cancelled', reason === 'cancelled' ? 'Cancelled' : 'Codex ended before the tool finished', undefined);
    }
  }

  /** Wait for every queued line; then close open tool calls (cancelled: the turn was stopped). */
  async finish(reason: 'cancelled' | 'ended'): Promise<void> {
    if (reason === 'cancelled') this.diffsOff.abort();
    await this.queue.catch(() => undefined);
    this.closeNow(reason);
    for (const { kind: error_code, held: dropped } of this.warned.drain()) {
      this.emitWarning(error_code, `…and ${dropped} more ${error_code} warning${dropped === 1 ? ' was' : 's were'} dropped (only the first ${WARNINGS_PER_KIND} of a turn are shown)`, { dropped });
    }
  }

  /**
   * Report a problem the translator cannot see (stderr, a stdout line not read) as a recoverable
   * error frame, in order. Counted at once: past WARNINGS_PER_KIND of its code nothing is queued,
   * so two million garbage lines cost a counter, not two million frames (decision 714).
   */
  reportWarning(error_code: string, message: string, details: Record<string, unknown> = {}): void {
    if (!this.countWarning(error_code)) return;
    this.queue = this.queue.then(() => this.emitWarning(error_code, message, details));
  }

  /** A warning from inside the queue (a line handled now), under the same cap as reportWarning. */
  warnNow(error_code: string, message: string, details: Record<string, unknown> = {}): void {
    if (this.countWarning(error_code)) this.emitWarning(error_code, message, details);
  }

  /** Counts one warning of `error_code`; true while it is still to be shown. */
  private countWarning(error_code: string): boolean {
    return this.warned.admit(error_code);
  }

  private emitWarning(error_code: string, message: string, details: Record<string, unknown>): void {
    this.opts.emit({ type: 'agent.error', payload: { error_code, message, severity: 'warning', recoverable: true, details: { module: 'codex', ...details } } });
  }

  /** Synchronous unless a file change needs its diff read from disk. */
  private handle(value: unknown): void | Promise<void> {
    const parsed = CodexEvent.safeParse(value);
    if (!parsed.success) {
      this.opts.onUnknown?.(`codex event: ${describeIssues(parsed.error)}`, value, 'malformed');
      return;
    }
    const ev = parsed.data;
    switch (ev.type) {
      case 'thread.started':
        this.threadId = ev.thread_id;
        return;
      case 'turn.started':
        return;
      case 'turn.completed':
        this.end = 'completed';
        if (ev.usage) this.threadUsage = ev.usage;
        return;
      case 'turn.failed':
        this.end = 'failed';
        if (this.noteAuthFailure(ev.error?.message)) return;
        if (!this.errorReported) this.emitError('CODEX_TURN_FAILED', readableError(ev.error?.message ?? 'Codex reported a failed turn'), 'error');
        return;
      case 'error':
        // Its retries of a 401 are not errors of their own: one login card says it (decision 441).
        if (this.noteAuthFailure(ev.message)) return;
        this.errorReported = true;
        this.emitError('CODEX_ERROR', readableError(ev.message), 'error');
        return;
      case 'unknown_variant':
        // An event type of a newer Codex: nothing we could show.
        this.opts.onUnknown?.(`codex event type ${ev.native} skipped`, value, 'unknown');
        return;
      case 'item.started':
      case 'item.updated':
      case 'item.completed': {
        const item = CodexItem.safeParse(ev.item);
        if (!item.success) {
          this.opts.onUnknown?.(`codex item ${ev.item.type}: ${describeIssues(item.error)}`, ev.item, 'malformed');
          return;
        }
        return this.item(ev.type, item.data);
      }
    }
  }

  private item(phase: 'item.started' | 'item.updated' | 'item.completed', item: CodexItem): void | Promise<void> {
    switch (item.type) {
      case 'reasoning':
        if (phase === 'item.completed' && item.text) this.block('thinking', item.text);
        return;
      case 'agent_message':
        if (phase === 'item.completed') this.block('text', item.text);
        return;
      case 'command_execution': {
        const tool = this.ensureRequest(item.id, CODEX_BASH, { command: item.command });
        if (phase !== 'item.completed') return;
        const ok = item.status === 'completed' && (item.exit_code ?? 0) === 0;
        const output = item.exit_code !== null && item.exit_code !== undefined && item.exit_code !== 0 ? `${item.aggregated_output}${item.aggregated_output.endsWith('\n') || !item.aggregated_output ? '' : '\n'}[exit code ${item.exit_code}]` : item.aggregated_output;
        this.finishTool(item.id, tool, ok ? 'success' : 'error', output);
        return;
      }
      case 'file_change':
        return this.fileChange(phase, item);
      case 'mcp_tool_call': {
        const entry = mcpCatalogEntry(item.server, item.tool);
        this.ensureCatalog(entry);
        const input = isRecord(item.arguments) ? item.arguments : { arguments: item.arguments ?? null };
        const tool = this.ensureRequest(item.id, entry.name, input);
        if (phase !== 'item.completed') return;
        const failed = item.status !== 'completed' || (item.error !== undefined && item.error !== null);
        this.finishTool(item.id, tool, failed ? 'error' : 'success', failed ? (item.error ?? item.status) ?? null : (item.result ?? null));
        return;
      }
      case 'web_search': {
        const tool = this.ensureRequest(item.id, CODEX_WEB_SEARCH, { query: item.query });
        if (phase === 'item.completed') this.finishTool(item.id, tool, 'success', { query: item.query });
        return;
      }
      case 'todo_list': {
        // Each update carries the whole list: one TodoWrite call per snapshot (§8.2).
        const todos = item.items.map((t, i) => ({ id: `${item.id}-${i}`, content: t.text, status: t.completed ? ('completed' as const) : ('pending' as const) }));
        const key = `${item.id}#${phase}`;
        const tool = this.ensureRequest(key, CODEX_TODOS, { todos });
        this.finishTool(key, tool, 'success', { success: true, count: todos.length, todos });
        return;
      }
      case 'error':
        // An item-level error does not end the turn (turn.failed does). "Falling back from
        // WebSockets to HTTPS transport. unexpected status 401…" is the same missing login.
        if (this.noteAuthFailure(item.message)) return;
        this.emitError('CODEX_ITEM_ERROR', item.message, 'warning');
        return;
      case 'unknown_variant':
        // An item type of a newer Codex (collab tools, images…): nothing we could show.
        if (phase === 'item.completed') this.opts.onUnknown?.(`codex item type ${item.native} skipped`, item, 'unknown');
        return;
    }
  }

  private fileChange(phase: 'item.started' | 'item.updated' | 'item.completed', item: FileChangeItem): void | Promise<void> {
    const input = { changes: item.changes.map((c) => ({ path: c.path, kind: c.kind })) };
    const known = this.open.has(item.id);
    const tool = this.ensureRequest(item.id, CODEX_APPLY_PATCH, input);
    const ok = item.status === 'completed';
    const summary = item.changes.map((c) => `${c.kind} ${c.path}`).join('\n');
    const finish = (diff: string | undefined) => this.finishTool(item.id, tool, ok ? 'success' : 'error', diff ?? (ok ? summary : `Patch ${item.status}:\n${summary}`));
    const differ = this.opts.fileChangeDiff;
    if (!differ) {
      if (phase === 'item.completed') finish(undefined);
      return;
    }
    return (async () => {
      if (!known && phase !== 'item.completed') await this.bounded(differ(item, 'started'));
      if (phase === 'item.completed') finish(ok ? await this.bounded(differ(item, 'completed')) : undefined);
    })();
  }

  /**
   * A diff, or undefined once `diffTimeoutMs` passed or the turn was cancelled: the queue, and so
   * `finish` and the end of the turn, never wait on a read that hangs (a FIFO, a stalled mount).
   * The read itself is not stopped; its result is dropped. A failed diff is no diff.
   */
  private bounded<T>(diff: Promise<T>): Promise<T | undefined> {
    const signal = this.diffsOff.signal;
    if (signal.aborted) return Promise.resolve(undefined);
    return new Promise((done) => {
      const stop = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', stop);
        done(undefined);
      };
      const timer = setTimeout(stop, this.opts.diffTimeoutMs ?? DIFF_TIMEOUT_MS);
      signal.addEventListener('abort', stop, { once: true });
      diff.then(
        (v) => {
          clearTimeout(timer);
          signal.removeEventListener('abort', stop);
          done(v);
        },
        () => stop(),
      );
    });
  }

  private block(kind: 'text' | 'thinking', text: string): void {
    const content_index = this.blockIndex++;
    if (kind === 'text') {
      this.opts.emit({ type: 'agent.text.delta', payload: { content_index, text } });
      this.opts.emit({ type: 'agent.text.done', payload: { content_index, full_text: text } });
    } else {
      this.opts.emit({ type: 'agent.thinking.delta', payload: { content_index, text } });
      this.opts.emit({ type: 'agent.thinking.done', payload: { content_index } });
    }
  }

  private ensureCatalog(entry: CatalogTool): void {
    if (this.catalog.some((t) => t.name === entry.name)) return;
    this.catalog.push(entry);
    this.opts.emit({ type: 'tool.catalog.publish', payload: { tools: this.catalog.map((t) => ({ ...t })) } });
  }

  private ensureRequest(key: string, tool_name: string, input: Record<string, unknown>): OpenTool {
    const existing = this.open.get(key);
    if (existing) return existing;
    const tool: OpenTool = { invocation_id: newId(), tool_name, started: Date.now() };
    this.open.set(key, tool);
    this.toolCount++;
    this.opts.emit({ type: 'tool.invoke.request', payload: { invocation_id: tool.invocation_id, tool_name, input } });
    return tool;
  }

  private finishTool(key: string, tool: OpenTool, status: ResultStatus, output: ToolOutput): void {
    this.open.delete(key);
    this.emitResult(tool, status, output, Date.now() - tool.started);
  }

  private emitResult(tool: OpenTool, status: ResultStatus, output: ToolOutput, duration_ms: number | undefined): void {
    const declared = this.catalog.find((t) => t.name === tool.tool_name)?.output_type ?? 'text';
    this.opts.emit({
      type: 'tool.invoke.result',
      payload: { invocation_id: tool.invocation_id, tool_name: tool.tool_name, status, output, output_type: declared, ...(duration_ms !== undefined ? { duration_ms } : {}) },
    });
  }

  /** True for a message reporting the API's 401 (kept, reported once by the adapter). */
  private noteAuthFailure(message: string | undefined): boolean {
    if (!message || !isCodexAuthFailure(message)) return false;
    const first = this.authFailure === undefined;
    this.authFailure = message.replace(/^Reconnecting\.\.\. \d+\/\d+ \((.*)\)$/s, '$1');
    if (first) this.opts.onAuthFailure?.(this.authFailure);
    return true;
  }

  private emitError(error_code: string, message: string, severity: 'error' | 'warning'): void {
    this.opts.emit({ type: 'agent.error', payload: { error_code, message, severity, recoverable: true, details: { module: 'codex' } } });
  }
}

/**
 * One turn's usage. Codex reports running totals for the thread (a resumed turn includes every
 * earlier one), so the turn's share is the difference from the totals after the previous turn.
 */
export function turnUsageSince(previous: CodexUsage | undefined, now: CodexUsage): TurnUsage {
  const d = (a: number | undefined, b: number | undefined) => Math.max(0, (a ?? 0) - (b ?? 0));
  const p = previous;
  return {
    input_tokens: d(now.input_tokens, p?.input_tokens),
    output_tokens: d(now.output_tokens, p?.output_tokens),
    ...(now.cached_input_tokens !== undefined ? { cache_read_tokens: d(now.cached_input_tokens, p?.cached_input_tokens) } : {}),
    ...(now.cache_write_input_tokens ? { cache_write_tokens: d(now.cache_write_input_tokens, p?.cache_write_input_tokens) } : {}),
    ...(now.reasoning_output_tokens !== undefined ? { thinking_tokens: d(now.reasoning_output_tokens, p?.reasoning_output_tokens) } : {}),
  };
}

/** Codex passes a provider's JSON error body through as the message: show its own message. */
export function readableError(message: string): string {
  let body: unknown;
  try {
    body = JSON.parse(message);
  } catch {
    return message; // a plain message
  }
  const e = ProviderErrorBody.safeParse(body).data?.error;
  return e?.message ? `${e.message}${e.type ? ` (${e.type})` : ''}` : message;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
