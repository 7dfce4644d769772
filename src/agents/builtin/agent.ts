// The built-in offline agent: deterministic, no model, zero set-up. It understands the small
// grammar of grammar.ts (docs/builtin-agent.md) and carries each request out with the real tools,
// through the same runner, ledger and permission prompts a model-driven agent would use — so a
// fresh install is useful and every frame type can be shown and tested.
import { randomUUID } from 'node:crypto';
import { contextFilesOf } from '../attachments';
import { BUILTIN_ATTACHMENTS, describeAttachment } from './attachments';
import type { AgentAdapter, AgentCapabilities, AgentHost, AgentInfo, AgentPrompt, CommandEntry, TurnOutcome } from '../../session/agentAdapter';
import type { PayloadOf } from '../../protocol/frameTypes';
import { decodePrompt, escapeUserText, fileTokens, formatFileToken, tokenDisplayPath } from '../../protocol/fileReference';
import type { DiffOutput } from '../../tools/diff';
import type { ToolCallResult } from '../../tools/runner';
import { ToolRunner } from '../../tools/runner';
import type { SubagentRequest, SubagentResult, SubagentRunner } from '../../tools/subagent';
import { createSharedToolState, createToolRunner, type SharedToolState } from '../../tools/toolkit';
import type { ToolSettings } from '../../tools/types';
import type { Todo } from '../../tools/todoStore';
import { NodeFsBackend } from '../../workspace/nodeFsBackend';
import type { FsBackend } from '../../workspace/fsBackend';
import { splitPipedContext } from '../../protocol/pipedContext';
import { parseRequests, referencePlaceholder, stripPlaceholderMarks, type BuiltinRequest } from './grammar';
import { clip, failure, findReply, listReply, readReply } from './replies';
import { builtinLanguage, builtinWords, type BuiltinWords } from './words';
import { TurnWriter } from './turnWriter';

/** Subagents may nest this deep (a subagent's subagent, but no further). */
const MAX_DEPTH = 2;

export interface BuiltinAgentOptions {
  settings?: Partial<ToolSettings>;
  /** Tool state shared with other sessions (one ledger, one rule store); built from the workspace when absent. */
  shared?: SharedToolState;
  /** The file backend; a NodeFsBackend on the host's workspace when absent. */
  fs?: FsBackend;
  /** The language the person reads (`ko`, `ko-KR`, `ko_KR.UTF-8`…): Korean or English (words.ts). */
  language?: string;
}

/** The commands it publishes, described in its language. */
export function builtinCommands(w: BuiltinWords): CommandEntry[] {
  return [
    { name: 'compact', description: w.compactCommand, category: 'session', parameters: [{ name: 'instruction', type: 'string', required: false, description: w.compactInstruction }] },
    { name: 'help', description: w.helpCommand, category: 'session' },
  ];
}

export class BuiltinAgent implements AgentAdapter, SubagentRunner {
  readonly info: AgentInfo = { id: 'builtin', displayName: 'Built-in (offline)', adapter_type: 'sdk', grammarOnly: true };
  private runner?: ToolRunner;
  private shared?: SharedToolState;
  private turns = 0;
  private readonly filesModified = new Set<string>();
  /** Paths this agent read or wrote (as the person typed them): an edit of any other path reads it
   *  first, so a restored session's first edit never shows a failed FS_NOT_OBSERVED call (decision 372). */
  private readonly observed = new Set<string>();

  /** What it says, in the person's language (decision 572). */
  private readonly words: BuiltinWords;

  constructor(private readonly options: BuiltinAgentOptions) {
    this.words = builtinWords(builtinLanguage(options.language));
  }

  async start(host: AgentHost) {
    const fs = this.options.shared?.fs ?? this.options.fs ?? new NodeFsBackend([host.workspacePath]);
    this.shared = this.options.shared ?? createSharedToolState({ fs, settings: this.options.settings });
    this.runner = createToolRunner(host, this.shared, { subagents: this });
    const catalog = this.runner.options.catalog.build();
    this.runner.options.catalog.markPublished(catalog);
    const capabilities: AgentCapabilities = {
      features: {
        thinking_stream: true,
        tool_streaming: true,
        subagent: true,
        subagent_context: true,
        context_compaction: true,
        plan_mode: true,
        file_reference: true,
        structured_output: false,
        adapter_type: 'sdk',
      },
      attachments: BUILTIN_ATTACHMENTS,
    };
    return { capabilities, tools: catalog.tools, ...(catalog.diagnostics ? { diagnostics: catalog.diagnostics } : {}), commands: builtinCommands(this.words) };
  }

  async prompt(prompt: AgentPrompt, signal: AbortSignal): Promise<TurnOutcome> {
    const runner = this.mustRunner();
    this.turns++;
    // A shell may have appeared or vanished since the last turn: republish the catalog if so (§5.4.1).
    runner.options.catalog.refresh(runner.host);
    const writer = new TurnWriter((e) => runner.emit(e));
    // §6.1.1: attached text files are read first (admission refused anything else).
    for (const f of await contextFilesOf(prompt, runner.host)) writer.text(describeAttachment(this.words, f));
    // Text piped beside the prompt is context, never requests (pipedContext.ts): a grammar has no
    // use for it, and says in its thinking that it left it unread (its answer stays the requests').
    const { prompt: own, piped } = splitPipedContext(prompt.text);
    if (piped !== undefined) writer.thinking(this.words.pipedContextUnread(piped.split('\n').length));
    const { text, paths } = referencedPrompt({ ...prompt, text: own });
    // The text as it arrives: an expanded command (`/peek x` -> `read x`) is plain text now, and a
    // command of our own still starts with its `/` (slash-commands §6; issue 11).
    const requests = parseRequests(text, paths, delegateReference);
    writer.thinking(this.words.parsed(requests.map((r) => r.kind), runner.host.mode));
    await this.execute(runner, requests, writer, signal, 0);
    return { stop_reason: signal.aborted ? 'cancelled' : 'end_turn', usage: { input_tokens: 0, output_tokens: 0 } };
  }

  /** SubagentRunner: Task runs the same grammar in a child runner whose frames carry subagent_context (§10.2). */
  async run(req: SubagentRequest): Promise<SubagentResult> {
    const parent = this.mustRunner();
    const subagentContext = { parent_invocation_id: req.parent_invocation_id, agent_type: req.agent_type, depth: req.depth };
    const child = new ToolRunner({
      ...parent.options,
      subagentContext,
      allowedTools: req.allowed_tools,
      subagents: req.depth < MAX_DEPTH ? this : undefined,
    });
    const writer = new TurnWriter((e) => child.emit(e));
    writer.thinking(this.words.subagentWorking(req.depth, req.description));
    // The Task prompt carries references as file tokens (delegateReference): data again here.
    const { text, paths } = referencedPrompt({ text: req.prompt, file_references: [] });
    const ok = await this.execute(child, parseRequests(text, paths, delegateReference), writer, req.signal, req.depth);
    // §10.5: a subagent reports its own usage, with its context. Zeros: no model ran.
    child.emit({
      type: 'session.usage',
      payload: { token_usage: { input_tokens: 0, output_tokens: 0 }, cost_usage: { limit: -1, used: 0, unit: 'USD' }, message_usage: { limit: -1, used: 0, unit: 'COUNT' }, time_to_reset: 'PT0S' },
    });
    const status = req.signal.aborted ? 'cancelled' : ok ? 'completed' : 'failed';
    return { status, result: writer.said.join('\n\n') };
  }

  async setMode(): Promise<void> {
    // Nothing to tell: the runner reads host.mode on every call.
  }

  async compact(instruction: string | undefined): Promise<PayloadOf<'session.compacted'>> {
    const todos = this.shared && this.runner ? this.shared.todos.read(this.runner.host.session_id) : [];
    const active = todos.filter((t) => t.status === 'pending' || t.status === 'in_progress');
    const files = [...this.filesModified];
    const summary = this.words.summary(this.turns, files, active.map((t) => t.content), instruction);
    // Zero tokens before and after: no model context exists, and we say so rather than invent numbers.
    return {
      summary,
      previous_token_count: 0,
      current_token_count: 0,
      preserved_elements: { files_modified: files, active_todos: active.map((t) => ({ ...t }) as Record<string, unknown>) },
      trigger: 'manual',
    };
  }

  /** §5.4.1-2: the engine asks while idle; a shell that appeared or vanished republishes the catalog. */
  refreshTools(): void {
    const runner = this.runner;
    if (runner) runner.options.catalog.refresh(runner.host);
  }

  async dispose(): Promise<void> {
    // No process of our own: Bash kills its process group at the end of every call.
    this.runner = undefined;
  }

  // ---------------------------------------------------------------------------------------------

  private mustRunner(): ToolRunner {
    if (!this.runner) throw new Error('the built-in agent was not started');
    return this.runner;
  }

  /**
   * Runs the requests in order; false when any of them failed. Several requests end with a recap of
   * what each came to: the last text is all a headless run prints (`rawp run`, like `claude -p`), and
   * a failure in the middle must not hide behind a later success.
   */
  private async execute(runner: ToolRunner, requests: BuiltinRequest[], writer: TurnWriter, signal: AbortSignal, depth: number): Promise<boolean> {
    let ok = true;
    let explained = false;
    let failed = 0;
    const replies: string[] = [];
    for (const req of requests) {
      if (signal.aborted) break;
      if (req.kind === 'unknown') {
        if (!explained) writer.text(this.words.connectHelp);
        explained = true;
        // Among several requests, the recap names the line it did not understand (it was left out).
        if (requests.length > 1) {
          replies.push(this.words.notUnderstood(clip(req.text.trim(), 200)));
          failed++;
        }
        continue;
      }
      const before = writer.said.length;
      const done = await this.step(runner, req, writer, signal, depth);
      if (!done) failed++;
      ok = done && ok;
      replies.push(writer.said.slice(before).join(' '));
    }
    if (replies.length > 1 && !signal.aborted) writer.text(this.words.recap(replies, failed));
    return ok;
  }

  private async step(runner: ToolRunner, req: Exclude<BuiltinRequest, { kind: 'unknown' }>, writer: TurnWriter, signal: AbortSignal, depth: number): Promise<boolean> {
    const call = (tool: string, input: Record<string, unknown>) => runner.invoke(tool, input, signal);
    const w = this.words;
    switch (req.kind) {
      case 'help':
        writer.text(w.grammarHelp);
        return true;
      case 'read': {
        const r = await call('Read', { file_path: req.path, ...(req.offset ? { offset: req.offset } : {}), ...(req.limit ? { limit: req.limit } : {}) });
        if (r.status === 'success') this.observed.add(req.path);
        // Issue 15 Why 7: the Read card shows the contents; the reply does not repeat them.
        writer.text(r.status === 'success' ? readReply(w, req.path, String(r.output), r.truncated === true) : failure(w, w.reading(req.path), r));
        return r.status === 'success';
      }
      case 'find': {
        const r = await call('Grep', { pattern: req.pattern, output_mode: 'content', '-n': true, ...(req.path ? { path: req.path } : {}) });
        writer.text(r.status !== 'success' ? failure(w, w.searchingFor(req.pattern), r) : findReply(w, req.pattern, String(r.output)));
        return r.status === 'success';
      }
      case 'files': {
        const r = await call('Glob', { pattern: req.pattern });
        writer.text(r.status === 'success' ? listReply(w, `\`${req.pattern}\``, r.output, w.noFilesMatch(req.pattern), r.truncated === true) : failure(w, w.glob, r));
        return r.status === 'success';
      }
      case 'ls': {
        const r = await call('LS', { path: req.path });
        writer.text(r.status === 'success' ? listReply(w, `\`${req.path}\``, r.output, w.isEmpty(req.path), r.truncated === true) : failure(w, w.listing(req.path), r));
        return r.status === 'success';
      }
      case 'replace':
        return this.replace(runner, req, writer, signal);
      case 'write': {
        const r = await call('Write', { file_path: req.path, content: req.content });
        if (r.status === 'success') {
          this.observed.add(req.path);
          const d = r.output as DiffOutput;
          this.filesModified.add(d.file_path);
          writer.text(d.created ? w.created(d.file_path, d.additions) : r.output_type === 'empty' ? w.unchanged(d.file_path) : w.updated(d.file_path, d.additions, d.deletions));
        } else if (r.error_code === 'FS_EXISTS') {
          writer.text(w.existsUnread(req.path));
        } else writer.text(failure(w, w.writing(req.path), r));
        return r.status === 'success';
      }
      case 'run': {
        const r = await call('Bash', { command: req.command });
        // Issue 15 Why 7: the Bash card shows the output (live, then as the result); the reply only says how it ended.
        const out = String(r.output);
        const exit = /\(exit code (\S+)\)\s*$/.exec(out)?.[1];
        const c = req.command;
        writer.text(r.status === 'success' ? w.finished(c, !out.trim()) : r.status === 'timeout' ? w.timedOut(c) : r.status === 'cancelled' ? w.commandCancelled(c) : r.error_code === 'NONZERO_EXIT' ? w.commandFailed(c, exit) : failure(w, w.running(c), r));
        return r.status === 'success';
      }
      case 'todo': {
        const r = await call('TodoWrite', { todos: req.items.map((content, i) => ({ content, status: i === 0 ? 'in_progress' : 'pending' })) });
        writer.text(r.status === 'success' ? todoReply(w, (r.output as { todos: Todo[] }).todos, true) : failure(w, w.updatingTasks, r));
        return r.status === 'success';
      }
      case 'todos': {
        const r = await call('TodoRead', {});
        writer.text(r.status === 'success' ? todoReply(w, (r.output as { todos: Todo[] }).todos, false) : failure(w, w.readingTasks, r));
        return r.status === 'success';
      }
      case 'plan':
        return this.plan(runner, req, writer, signal, depth);
      case 'delegate': {
        const r = await call('Task', { description: req.prompt.split('\n')[0].slice(0, 60), prompt: req.prompt, subagent_type: 'general-purpose' });
        const out = r.output as { status?: string; result?: string } | string;
        // The Task card shows the subagent's answer; the reply does not repeat it.
        writer.text(r.status === 'success' && typeof out === 'object' ? w.subagentFinished : failure(w, w.subagent, r));
        return r.status === 'success';
      }
      case 'compact': {
        if (depth > 0) {
          writer.text(w.subagentCannotCompact);
          return false;
        }
        const result = await this.compact(req.instruction);
        runner.emit({ type: 'session.compacted', payload: result });
        writer.text(w.compacted(result.summary));
        return true;
      }
    }
  }

  /** Edit; an unread file is read first (edits need a read, read-before-write.md) and the edit retried once. */
  private async replace(runner: ToolRunner, req: Extract<BuiltinRequest, { kind: 'replace' }>, writer: TurnWriter, signal: AbortSignal): Promise<boolean> {
    const input = { file_path: req.path, old_string: req.old_string, new_string: req.new_string, ...(req.all ? { replace_all: true } : {}) };
    const w = this.words;
    const readIt = async (): Promise<boolean> => {
      const read = await runner.invoke('Read', { file_path: req.path, limit: 1 }, signal);
      if (read.status !== 'success') writer.text(failure(w, w.reading(req.path), read));
      else this.observed.add(req.path);
      return read.status === 'success';
    };
    // Not read by this agent (a new or restored session): read before editing, not after a refusal.
    let readFirst = false;
    if (!this.observed.has(req.path)) {
      if (!(await readIt())) return false;
      readFirst = true;
    }
    let r: ToolCallResult = await runner.invoke('Edit', input, signal);
    if (r.error_code === 'FS_NOT_OBSERVED' && !readFirst) {
      // The ledger forgot it (e.g. the file is another name of one we read): read and retry once.
      if (!(await readIt())) return false;
      readFirst = true;
      r = await runner.invoke('Edit', input, signal);
    }
    if (r.status !== 'success') {
      writer.text(failure(w, w.replacingIn(req.path), r) + (r.error_code === 'FS_STALE_VERSION' ? w.staleHint(req.path) : ''));
      return false;
    }
    const d = r.output as DiffOutput & { replacements: number; note?: string };
    this.filesModified.add(d.file_path);
    this.observed.add(req.path);
    writer.text(w.replaced(d.file_path, d.replacements, d.additions, d.deletions, readFirst, d.note));
    return true;
  }

  /** §9: the plan document (content_role "plan"), a YN approval, then the steps if approved. */
  private async plan(runner: ToolRunner, req: Extract<BuiltinRequest, { kind: 'plan' }>, writer: TurnWriter, signal: AbortSignal, depth: number): Promise<boolean> {
    const plan_id = randomUUID();
    const w = this.words;
    const steps = req.steps.map((s, i) => ({ text: s, parsed: req.requests[i] }));
    const doc = [w.planTitle, '', ...steps.map((s, i) => `${i + 1}. ${s.text}${s.parsed.kind === 'unknown' ? w.planSkipped : ''}`)].join('\n');
    writer.text(doc, { content_role: 'plan', plan_id });
    const answer = await runner.host.requestInteraction(
      {
        interaction_id: randomUUID(),
        interaction_type: 'YN',
        question_text: w.planQuestion(steps.length),
        timeout_sec: 300,
        options: [
          { value: 'yes', label: w.approve, risk_level: 'moderate' },
          { value: 'no', label: w.reject, risk_level: 'safe' },
        ],
        default_value: 'no',
      },
      runner.options.subagentContext ? { metadata: { subagent_context: runner.options.subagentContext } } : undefined,
    );
    const value = answer.kind === 'response' ? (Array.isArray(answer.selected_value) ? answer.selected_value[0] : answer.selected_value) : undefined;
    if (value !== 'yes') {
      writer.text(answer.kind === 'cancelled' ? w.planDismissed : answer.kind === 'timeout' || (answer.kind === 'response' && answer.by_default) ? w.planNoAnswer : w.planRejected);
      return false;
    }
    writer.text(w.planApproved(steps.length, runner.host.mode));
    const runnable = steps.map((s) => s.parsed).filter((p) => p.kind !== 'plan');
    return this.execute(runner, runnable, writer, signal, depth);
  }
}

// The list itself is on the tool card and in the task panel above the composer; a reply that
// listed it again showed the same tasks three times on one screen. The reply says what changed.
function todoReply(w: BuiltinWords, todos: Todo[], wrote: boolean): string {
  if (todos.length === 0) return w.noTasks;
  const count = (status: Todo['status']) => todos.filter((t) => t.status === status).length;
  return w.tasks({ total: todos.length, inProgress: count('in_progress'), pending: count('pending'), completed: count('completed'), cancelled: count('cancelled') }, wrote);
}

/**
 * §16: file-reference tokens become workspace paths. Mapped tokens use their reference; a token the
 * references do not map stays literal per §16.2.1, but as an argument we still read its path.
 * Each path becomes a placeholder in `text` and its value in `paths`: the grammar treats it as data,
 * never as syntax (issue 12 finding 9), however it is named.
 */
export function referencedPrompt(prompt: Pick<AgentPrompt, 'text' | 'file_references'>): { text: string; paths: string[] } {
  // Tokens the references do not map get a stand-in reference naming their display path, so the
  // §16.2.2 decoder still unescapes the text around them (an escaped `\<@file:…>` stays literal).
  const refs = [...prompt.file_references];
  for (const m of fileTokens(prompt.text)) {
    if (!refs.some((r) => r.ref_id === m[1])) refs.push({ ref_id: m[1], path: m[2], name: m[2], workspace_relative_path: m[2] });
  }
  const paths: string[] = [];
  const text = decodePrompt(prompt.text, refs)
    .segments.map((s) => {
      if (s.kind === 'text') return stripPlaceholderMarks(s.text);
      paths.push(s.reference.workspace_relative_path || s.reference.path);
      return referencePlaceholder(paths.length - 1);
    })
    .join('');
  return { text, paths };
}

/** The text with every reference shown as its path (for display and tests). */
export function resolveFileTokens(prompt: Pick<AgentPrompt, 'text' | 'file_references'>): string {
  const { text, paths } = referencedPrompt(prompt);
  return parseFill(text, paths);
}

function parseFill(text: string, paths: readonly string[]): string {
  return text.replace(/\uE000(\d+)\uE001/g, (_w, n: string) => paths[Number(n)] ?? '');
}

/** A `delegate:` prompt keeps references as §16 file tokens (escaped text around them), which the subagent decodes as data. */
const delegateReference = { text: escapeUserText, ref: (path: string) => formatFileToken('ref_d', tokenDisplayPath(path)) };
