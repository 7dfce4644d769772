// The OpenAI-compatible agent (adapter_type "sdk"): the agent loop runs here, in the host. Each
// step streams one chat completion with our tools (Claude Code names and schemas, from
// src/tools); tool calls run through the same ToolRunner as the built-in agent — mode gate,
// permission prompts, read-before-write ledger, streamed Bash output — and their results go back
// to the model until it answers without tools. Works with OpenAI, vLLM, LM Studio, Ollama.
import { randomUUID } from 'node:crypto';
import type { AgentAdapter, AgentCapabilities, AgentHost, AgentInfo, AgentPrompt, CatalogDiagnostic, CatalogTool, TurnOutcome, TurnUsage } from '../../session/agentAdapter';
import { TaskTool } from '../../tools/task';
import { ALL_TOOLS } from '../../tools/registry';
import type { ToolRunner } from '../../tools/runner';
import { createSharedToolState, createToolRunner, type SharedToolState } from '../../tools/toolkit';
import type { ToolSettings } from '../../tools/types';
import { NodeFsBackend } from '../../workspace/nodeFsBackend';
import type { FsBackend } from '../../workspace/fsBackend';
import { STREAM_IDLE_TIMEOUT_MS, streamChat, type ChatMessage, type ChatToolDef } from './chatStream';
import { baseUrlProblem, shownUrl } from './baseUrl';
import { promptText } from '../promptText';
import { contextFilesOf } from '../attachments';
import { openaiAttachments, openaiUserContent } from './attachments';
import { TOO_DEEP_WORDS, count, modelJsonTooDeep } from './streamLimits';
import { cutAt } from '../../protocol/cutText';
import type { PayloadOf } from '../../protocol/frameTypes';
import { Conversation, type Trimmed } from './conversation';
import { answerTokensOf, fittedCall, tooLongWords } from './fittedCall';
import { compactConversation } from './compaction';
import { ServerWindow } from './serverWindow';

export interface OpenAIAdapterOptions {
  /** e.g. https://api.openai.com/v1, http://localhost:11434/v1 (Ollama), http://localhost:1234/v1 (LM Studio). */
  baseUrl: string;
  model: string;
  /** Never from plain settings: the CLI reads RAWP_OPENAI_API_KEY, the extension SecretStorage. */
  apiKey?: string;
  settings?: Partial<ToolSettings>;
  shared?: SharedToolState;
  fs?: FsBackend;
  /** Model calls per turn before the loop stops (a runaway guard). */
  maxSteps?: number;
  systemPrompt?: string;
  /** Extra request fields (temperature, …). */
  requestExtra?: Record<string, unknown>;
  /** Give up on a model call that sends nothing for this long (chatStream.ts; default 5 minutes). */
  idleTimeoutMs?: number;
  /** The model reads images (`image_url` parts); the user says so (decision 314). Default false. */
  vision?: boolean;
  /**
   * The model's context window in tokens, when the user knows it (setting rawp.openai.contextWindow,
   * `--context-window`): the conversation is held to it and the engine compacts near it. Without
   * it the window is asked of the server (its model list, or Ollama's /api/ps: decisions 738, 734)
   * or learned from the server's first refusal for length (decision 730).
   */
  contextWindow?: number;
}

export const OPENAI_ENV_KEY = 'RAWP_OPENAI_API_KEY';

/** Task needs a subagent runner this agent does not have; the rest is Claude Code's tool set. */
const OPENAI_TOOLS = ALL_TOOLS.filter((t) => t !== TaskTool);

function defaultSystemPrompt(workspace: string): string {
  return [
    'You are a coding agent working in the workspace at ' + workspace + '.',
    'Use the tools to read, search, edit files and run commands. Read a file before you edit or overwrite it.',
    'Paths may be absolute or relative to the workspace. Keep answers short and say what you changed.',
  ].join('\n');
}

export class OpenAIAdapter implements AgentAdapter {
  readonly info: AgentInfo = { id: 'openai', displayName: 'OpenAI-compatible', adapter_type: 'sdk' };
  private runner: ToolRunner | undefined;
  private tools: ChatToolDef[] = [];
  /** The backend the tools use: referenced files are inlined through it too (virtual folders). */
  private fs?: FsBackend;
  private conversation: Conversation | undefined;
  /** Tokens the last model call held (its prompt and answer, by the server's count). */
  private contextUsed: number | undefined;
  /** Where the server says its window, while the user gave none (decisions 734, 738). */
  private serverWindow: ServerWindow | undefined;
  /** The window is Ollama's: the warning says how to raise it. */
  private windowFromOllama = false;

  constructor(private readonly options: OpenAIAdapterOptions) {
    this.info = { id: 'openai', displayName: `OpenAI-compatible (${options.model})`, adapter_type: 'sdk' };
  }

  async start(host: AgentHost): Promise<{ capabilities: AgentCapabilities; tools: CatalogTool[]; diagnostics?: CatalogDiagnostic[]; commands: [] }> {
    const fs = this.options.shared?.fs ?? this.options.fs ?? new NodeFsBackend([host.workspacePath]);
    const shared = this.options.shared ?? createSharedToolState({ fs, settings: this.options.settings });
    const runner = createToolRunner(host, shared, { tools: OPENAI_TOOLS });
    this.runner = runner;
    this.fs = shared.fs;
    const catalog = runner.options.catalog.build();
    runner.options.catalog.markPublished(catalog);
    this.tools = catalog.tools
      .filter((t) => t.status !== 'unavailable')
      .map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.input_schema ?? { type: 'object', properties: {} } } }));
    this.conversation = new Conversation(this.options.systemPrompt ?? defaultSystemPrompt(host.workspacePath), JSON.stringify(this.tools).length, this.options.contextWindow);
    if (this.options.contextWindow === undefined) this.serverWindow = new ServerWindow({ baseUrl: this.options.baseUrl, model: this.options.model, apiKey: this.options.apiKey, loadTimeoutMs: this.options.idleTimeoutMs ?? STREAM_IDLE_TIMEOUT_MS });
    const diagnostics: CatalogDiagnostic[] = [...(catalog.diagnostics ?? [])];
    if (!this.options.apiKey && !/^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])[:/]/.test(this.options.baseUrl)) {
      diagnostics.push({ severity: 'warning', code: 'API_KEY_MISSING', message: `no API key for ${shownUrl(this.options.baseUrl)}; set ${OPENAI_ENV_KEY}` });
    }
    const problem = baseUrlProblem(this.options.baseUrl);
    if (problem) diagnostics.push({ severity: 'error', code: 'BASE_URL_INVALID', message: problem });
    return {
      capabilities: {
        features: { adapter_type: 'sdk', thinking_stream: true, tool_streaming: true, plan_mode: true, context_compaction: true, subagent: false, structured_output: false, file_reference: true },
        // Every master and the journal get this frame: the URL as it may be shown.
        extensions: { model: this.options.model, base_url: shownUrl(this.options.baseUrl) },
        // §11 as `response_format` json_schema; §6.1.1 max_turns caps this loop's model calls.
        native_overrides: { json_schema: true, max_turns: true },
        attachments: openaiAttachments(this.options.vision === true),
      },
      tools: catalog.tools,
      ...(diagnostics.length ? { diagnostics } : {}),
      commands: [],
    };
  }

  async prompt(prompt: AgentPrompt, signal: AbortSignal): Promise<TurnOutcome> {
    const outcome = await this.turn(prompt, signal);
    // §7.3.1 context_window: what the last call held, against the window when it is known.
    const capacity = this.conversation?.capacity;
    const used = this.contextUsed;
    return { ...outcome, usage: { input_tokens: 0, output_tokens: 0, ...outcome.usage, ...(capacity !== undefined ? { context_capacity: capacity } : {}), ...(used !== undefined ? { context_used: used } : {}) } };
  }

  /** §6.3.1: the model summarizes the conversation, which the summary then stands for (compaction.ts). */
  async compact(instruction: string | undefined): Promise<PayloadOf<'session.compacted'>> {
    const conversation = this.conversation;
    if (!conversation) throw new Error('the agent has not started');
    const quiet = { onText: () => undefined, onReasoning: () => undefined };
    const extra = { ...this.options.requestExtra, tool_choice: 'none' };
    const result = await compactConversation(conversation, instruction, this.contextUsed, (messages) => streamChat(this.request(messages, new AbortController().signal, extra), quiet));
    this.contextUsed = result.current_token_count;
    return result;
  }

  private request(messages: ChatMessage[], signal: AbortSignal, extra: Record<string, unknown> | undefined) {
    return { baseUrl: this.options.baseUrl, apiKey: this.options.apiKey, model: this.options.model, messages, tools: this.tools, signal, extra, ...(this.options.idleTimeoutMs ? { idleTimeoutMs: this.options.idleTimeoutMs } : {}) };
  }

  private async turn(prompt: AgentPrompt, signal: AbortSignal): Promise<TurnOutcome> {
    const runner = this.runner;
    const conversation = this.conversation;
    if (!runner || !conversation) throw new Error('OpenAIAdapter.prompt before start');
    const host = runner.host;
    runner.options.catalog.refresh(host);
    // §16.3: a plain model cannot open files: referenced files are inlined (size-limited).
    const text = await promptText(prompt, host, { kind: 'inline' }, this.fs);
    conversation.push({ role: 'user', content: openaiUserContent(text, await contextFilesOf(prompt, host)) });
    let toldTrimmed = false;
    const usage: TurnUsage = { input_tokens: 0, output_tokens: 0 };
    let blockIndex = 0;
    const maxSteps = prompt.max_turns ?? this.options.maxSteps ?? 50;
    const extra = prompt.json_schema ? { ...this.options.requestExtra, response_format: responseFormat(prompt.json_schema) } : this.options.requestExtra;

    for (let step = 0; step < maxSteps; step++) {
      // One streamed block at a time; a switch between thinking and text closes the open one.
      let open: { kind: 'text' | 'thinking'; index: number; text: string } | undefined;
      const close = (cancelled: boolean) => {
        if (!open) return;
        if (open.kind === 'text') runner.emit({ type: 'agent.text.done', payload: { content_index: open.index, full_text: open.text, ...(cancelled ? { is_cancelled: true } : {}) } });
        else runner.emit({ type: 'agent.thinking.done', payload: { content_index: open.index } });
        open = undefined;
      };
      const delta = (kind: 'text' | 'thinking', text: string) => {
        if (open && open.kind !== kind) close(false);
        if (!open) open = { kind, index: blockIndex++, text: '' };
        open.text += text;
        const content_index = open.index;
        runner.emit(kind === 'text' ? { type: 'agent.text.delta', payload: { content_index, text } } : { type: 'agent.thinking.delta', payload: { content_index, text } });
      };
      await this.askServerWindow(conversation, signal);
      const result = await fittedCall(conversation, answerTokensOf(extra), (messages) => streamChat(this.request(messages, signal, extra), { onText: (t) => delta('text', t), onReasoning: (t) => delta('thinking', t) }), signal);
      // Once a turn: what no longer fits is said, as a warning (the turn goes on).
      const trimmed = conversation.takeTrimmed();
      if (!toldTrimmed && (trimmed.dropped > 0 || trimmed.shortened > 0)) {
        toldTrimmed = true;
        host.emit({ type: 'agent.error', payload: { error_code: 'CONTEXT_TRIMMED', message: trimmedWords(trimmed, conversation.windowTokens, this.windowFromOllama), severity: 'warning', recoverable: true, details: { module: 'openai', ...trimmed, ...(conversation.windowTokens ? { context_window: conversation.windowTokens } : {}) } } });
      }
      if (result.kind === 'too_long') {
        close(false);
        host.emit({ type: 'agent.error', payload: { error_code: 'CONTEXT_TOO_LONG', message: tooLongWords(result.needed, result.window), severity: 'error', recoverable: true, details: { module: 'openai', context_window: result.window } } });
        return { stop_reason: 'error', usage };
      }
      if (result.kind === 'failed') {
        close(signal.aborted);
        if (signal.aborted || result.cancelled) return { stop_reason: 'cancelled', usage };
        host.emit({ type: 'agent.error', payload: { error_code: result.stalled ? 'API_TIMEOUT' : result.status ? 'API_ERROR' : 'API_UNREACHABLE', message: result.message, severity: 'error', recoverable: true, details: { module: 'openai', ...(result.status ? { http_status: result.status } : {}) } } });
        return { stop_reason: 'error', usage };
      }
      close(false);
      if (result.usage) {
        this.contextUsed = result.usage.prompt_tokens + result.usage.completion_tokens;
        usage.input_tokens += result.usage.prompt_tokens;
        usage.output_tokens += result.usage.completion_tokens;
        if (result.usage.cached_tokens !== undefined) usage.cache_read_tokens = (usage.cache_read_tokens ?? 0) + result.usage.cached_tokens;
        if (result.usage.reasoning_tokens !== undefined) usage.thinking_tokens = (usage.thinking_tokens ?? 0) + result.usage.reasoning_tokens;
      }
      // Arguments nested deeper than a peer's frame may be are not decoded (JSON.parse takes 5,000
      // levels, the runner's zod and the frame's JSON.stringify do not, decision 717): no call of
      // this answer runs, the conversation records each call as refused, and the turn ends in words.
      const tooDeep = result.toolCalls.filter((c) => modelJsonTooDeep(c.arguments));
      if (tooDeep.length > 0) {
        conversation.push({ role: 'assistant', content: result.text || null, tool_calls: result.toolCalls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: tooDeep.includes(c) ? '{}' : c.arguments } })) });
        for (const c of result.toolCalls) conversation.push({ role: 'tool', tool_call_id: c.id, content: tooDeep.includes(c) ? `Refused: the arguments hold ${TOO_DEEP_WORDS}.` : 'Not run: another tool call of this answer was refused.' });
        const name = cutAt(tooDeep[0].name, 100);
        host.emit({ type: 'agent.error', payload: { error_code: 'API_ERROR', message: `${shownUrl(this.options.baseUrl)} sent a tool call (${JSON.stringify(name)}) whose arguments hold ${TOO_DEEP_WORDS}; no tool of that answer was run and the turn was stopped`, severity: 'error', recoverable: true, details: { module: 'openai', tool_name: name } } });
        return { stop_reason: 'error', usage };
      }
      conversation.push({
        role: 'assistant',
        content: result.text || null,
        ...(result.toolCalls.length ? { tool_calls: result.toolCalls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.arguments } })) } : {}),
      });
      if (result.toolCalls.length === 0) return { stop_reason: result.finish_reason === 'length' ? 'max_tokens' : 'end_turn', usage };

      // §13.4: calls of one model message form a parallel group; they run one after the other
      // so permission prompts never overlap.
      const group = result.toolCalls.length > 1 ? randomUUID() : undefined;
      for (const call of result.toolCalls) {
        let input: Record<string, unknown>;
        try {
          const parsed: unknown = call.arguments.trim() ? JSON.parse(call.arguments) : {};
          input = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : { value: parsed };
        } catch {
          input = { _raw_arguments: call.arguments };
        }
        const r = await runner.invoke(call.name, input, signal, group ? { parallel_group_id: group } : {});
        conversation.push({ role: 'tool', tool_call_id: call.id, content: typeof r.output === 'string' ? r.output : JSON.stringify(r.output) });
      }
      if (signal.aborted) return { stop_reason: 'cancelled', usage };
    }
    // As Claude Code's error_max_turns: the turn is cut, with a reason the user can act on.
    host.emit({ type: 'agent.error', payload: { error_code: 'MAX_TURNS', message: `the agent reached the maximum of ${maxSteps} step${maxSteps === 1 ? '' : 's'} (model calls) in one turn and was stopped`, severity: 'error', recoverable: true, details: { module: 'openai', max_turns: maxSteps } } });
    return { stop_reason: 'error', usage };
  }

  /** The server's window, asked for while none is known (serverWindow.ts): Ollama cuts what is over it without a word. */
  private async askServerWindow(conversation: Conversation, signal: AbortSignal): Promise<void> {
    if (!this.serverWindow || conversation.capacity !== undefined) return;
    const answer = await this.serverWindow.window(signal);
    if (answer === undefined) return;
    conversation.serverWindow(answer.tokens);
    this.windowFromOllama = answer.ollama;
  }

  /** §5.4.1-2: the engine asks while idle; a shell that appeared or vanished republishes the catalog. */
  refreshTools(): void {
    const runner = this.runner;
    if (runner) runner.options.catalog.refresh(runner.host);
  }

  async dispose(): Promise<void> {
    this.runner = undefined;
  }
}

/** The warning of a turn whose conversation was trimmed to fit the model's context window. */
function trimmedWords(t: Trimmed, window: number | undefined, ollama: boolean): string {
  const parts = [t.dropped > 0 ? `the oldest ${count(t.dropped)} message${t.dropped === 1 ? ' is' : 's are'} no longer sent to the model` : '', t.shortened > 0 ? `${count(t.shortened)} long tool output${t.shortened === 1 ? '' : 's'} or answer${t.shortened === 1 ? '' : 's'} of this turn ${t.shortened === 1 ? 'was' : 'were'} replaced by a line saying so` : ''].filter(Boolean);
  return `The conversation no longer fit ${window ? `the model's context window (${count(window)} tokens)` : "the model's context window"}: ${parts.join(', and ')}. /compact summarizes it instead.${ollama ? ' Ollama runs the model with this window; OLLAMA_CONTEXT_LENGTH (or num_ctx in a Modelfile) raises it.' : ''}`;
}

/**
 * §11 natively: the chat-completions structured-output request. Not `strict`: strict mode accepts
 * only a subset of JSON Schema (every property required, no additional ones), and the engine
 * validates the answer against the full schema anyway.
 */
function responseFormat(schema: Record<string, unknown>): Record<string, unknown> {
  const title = typeof schema.title === 'string' ? schema.title.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64) : '';
  return { type: 'json_schema', json_schema: { name: title || 'structured_output', schema, strict: false } };
}
