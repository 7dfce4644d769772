// The Codex adapter: a single-turn process (§18). Each prompt runs `codex exec --json …`; the next
// one `codex exec --json … resume <thread_id> -`, so Codex keeps its own conversation. Sandbox by
// mode (plan/review read-only). Codex has no interactive approvals in exec mode: what the sandbox
// refuses is refused, and a refused patch (reported only on stderr) is surfaced as a warning.
import * as os from 'node:os';
import * as path from 'node:path';
import type { AgentAdapter, AgentCapabilities, AgentHost, AgentPrompt, CatalogTool, TurnOutcome } from '../../session/agentAdapter';
import { CODEX_INFO, codexCapabilities } from './capabilities';
import { SingleTurnRunner } from '../process';
import { badLineMessage } from '../process/jsonLines';
import { codexArgs, CODEX_RESUME_FLAG, toolDenied } from './args';
import { CODEX_TOOLS } from './catalog';
import { CodexFileChangeDiffer } from './fileChangeDiff';
import { WorkspaceTextReader } from './workspaceRead';
import type { FsBackend } from '../../workspace/fsBackend';
import { NodeFsBackend } from '../../workspace/nodeFsBackend';
import { explainFinding, StderrWatcher } from './stderrWatch';
import { CodexTurnTranslator, turnUsageSince } from './translate';
import { ThreadStarted, type CodexUsage } from './nativeEvents';
import { promptText } from '../promptText';
import { contextFilesOf } from '../attachments';
import { codexAttachments } from './attachments';
import type { AgentModeName } from '../../protocol/common';
import { writeScratchFile, type ScratchFile } from '../../workspace/scratchFile';
import { authRequiredError } from '../authRequired';
import { childEnv } from '../process/env';
import { codexLoggedIn } from './authFailure';
import { CONVERSATION_GONE, lostConversationWarning } from '../lostConversation';

export interface CodexAdapterOptions {
  /** The codex executable (default `codex` on PATH). */
  command?: string;
  /** Arguments before `exec` (e.g. a launcher's own flags). */
  prefixArgs?: string[];
  model?: string;
  /** Extra `-c key=value` config overrides. */
  config?: string[];
  /** Extra environment (CODEX_HOME, the provider's key variable, …). */
  env?: Record<string, string | undefined>;
  /**
   * Allow a workspace that is not a git repository (default true: the user chose this workspace
   * for this agent, which is the trust Codex's check asks for).
   */
  skipGitRepoCheck?: boolean;
  /** §17.2.3 grace period (5 s). */
  killGraceMs?: number;
  /** A thread to resume on the first prompt (restoring a session). */
  resumeThreadId?: string;
  /** Every stdout line as Codex printed it (captures for `rawp convert --from codex`, debugging). */
  onNativeLine?(line: string): void;
  /**
   * The workspace files as the session's other tools see them, for the diffs of Codex's file
   * changes (decision 714). Absent: the workspace folder on disk, through a backend of its own.
   */
  fs?: FsBackend;
}

export { CODEX_INFO };

export class CodexAdapter implements AgentAdapter {
  readonly info = CODEX_INFO;
  private host: AgentHost | undefined;
  private runner: SingleTurnRunner | undefined;
  private current: CodexTurnTranslator | undefined;
  private currentMode: AgentModeName = 'default';
  private readonly catalog: CatalogTool[] = CODEX_TOOLS.map((t) => ({ ...t }));
  private differ: CodexFileChangeDiffer | undefined;
  private pendingPrompt = '';
  /** §11: this turn's `--output-schema` file, removed when the turn ends. */
  private schemaFile: ScratchFile | undefined;
  private pendingImages: string[] = [];
  /** This turn's tool lists, kept at the source (decision 614). */
  private turnTools: { allowed_tools?: string[]; denied_tools?: string[] } = {};
  /** The thread's usage totals after the last completed turn (Codex reports running totals). */
  private threadUsage: CodexUsage | undefined;
  /** A restored session's thread, not yet seen to exist in this process (decision 624). */
  private unconfirmedResume: string | undefined;

  constructor(private readonly options: CodexAdapterOptions = {}) {}

  async start(host: AgentHost): Promise<{ capabilities: AgentCapabilities; tools: CatalogTool[]; commands: [] }> {
    this.host = host;
    const env = this.options.env ?? {};
    const codexHome = env.CODEX_HOME ?? process.env.CODEX_HOME ?? path.join(os.homedir(), '.codex');
    const reader = new WorkspaceTextReader(this.options.fs ?? diskOf(host.workspacePath), host.workspacePath);
    this.differ = new CodexFileChangeDiffer({
      workspacePath: host.workspacePath,
      reader,
      codexHome,
      threadId: () => this.runner?.agentSessionId,
      // A session-log line over its bound (decision 718): said once, among the turn's frames.
      onWarning: (message) => this.current?.warnNow('CODEX_SESSION_LOG', message),
    });
    const watcher = new StderrWatcher((found) => {
      const f = explainFinding(found, toolDenied(this.turnTools, 'Bash'));
      this.current?.reportWarning(f.error_code, f.message, { stderr: f.line });
    });
    this.runner = new SingleTurnRunner({
      agent: 'codex',
      session_id: host.session_id,
      workspacePath: host.workspacePath,
      command: this.options.command ?? 'codex',
      env,
      killGraceMs: this.options.killGraceMs,
      resume_flag: CODEX_RESUME_FLAG,
      buildArgs: ({ resumeArgs }) => [
        ...(this.options.prefixArgs ?? []),
        ...codexArgs({ mode: this.currentMode, resumeArgs, model: this.options.model, config: this.options.config, skipGitRepoCheck: this.options.skipGitRepoCheck ?? true, images: this.pendingImages, tools: this.turnTools, ...(this.schemaFile ? { outputSchemaFile: this.schemaFile.path } : {}) }),
      ],
      stdinText: () => this.pendingPrompt,
      onMessage: (value, line) => {
        this.options.onNativeLine?.(line);
        // §18.3: keep the thread id the moment Codex reports it, so even a cancelled turn resumes.
        const started = ThreadStarted.safeParse(value);
        if (started.success && this.runner) {
          this.runner.agentSessionId = started.data.thread_id;
          this.unconfirmedResume = undefined;
          this.host?.reportAgentSession?.(started.data.thread_id);
        }
        this.current?.push(value);
      },
      // A line not read (over the reader's limit, or not JSON) is shown, in its place among the
      // turn's frames; the turn goes on (decision 551). The translator caps them (decision 714).
      onBadLine: (line, reason) => this.current?.reportWarning('UNPARSEABLE_OUTPUT', badLineMessage('Codex', line, reason)),
      onStderr: (chunk) => watcher.push(chunk),
    });
    if (this.options.resumeThreadId) this.runner.agentSessionId = this.unconfirmedResume = this.options.resumeThreadId;
    return {
      capabilities: codexCapabilities(this.options.resumeThreadId),
      tools: this.catalog.map((t) => ({ ...t })),
      commands: [],
    };
  }

  async prompt(prompt: AgentPrompt, signal: AbortSignal): Promise<TurnOutcome> {
    const host = this.host;
    const runner = this.runner;
    if (!host || !runner) throw new Error('CodexAdapter.prompt before start');
    this.currentMode = prompt.mode;
    this.turnTools = { ...(prompt.allowed_tools ? { allowed_tools: prompt.allowed_tools } : {}), ...(prompt.denied_tools ? { denied_tools: prompt.denied_tools } : {}) };
    const translator = new CodexTurnTranslator({
      emit: (e) => host.emit(e),
      catalog: this.catalog,
      fileChangeDiff: (item, phase) => this.differ!.diff(item, phase),
      // A type of a newer Codex is normal growth: only a line that does not fit is shown, and no
      // more than WARNINGS_PER_KIND of them in a turn (decision 714).
      onUnknown: (what, _value, kind) => kind === 'malformed' && translator.warnNow('CODEX_UNKNOWN_EVENT', `Ignored a Codex line: ${what}`),
      onAuthFailure: () => void auth.onFirst401(),
    });
    const auth = this.authWatch(host, signal);
    this.current = translator;
    // §16.3: Codex reads files itself; a file token becomes its workspace-relative path.
    const attached = await codexAttachments(await promptText(prompt, host, { kind: 'separate', mention: (p) => p }), await contextFilesOf(prompt, host, signal), host.localCopy?.bind(host));
    this.pendingPrompt = attached.text;
    this.pendingImages = attached.images;
    this.schemaFile = prompt.json_schema ? writeScratchFile('rawp-codex-schema-', 'schema.json', JSON.stringify(prompt.json_schema)) : undefined;
    // A resumed thread's log holds earlier sessions' changes: followed from its end (decision 718).
    await this.differ?.log.skipBacklog();
    let result;
    try {
      result = await runner.runTurn(auth.signal);
      const gone = this.unconfirmedResume;
      this.unconfirmedResume = undefined;
      if (gone !== undefined && result.stop_reason === 'error' && CONVERSATION_GONE.test(result.exit.stderr)) {
        // `exec resume` of a thread Codex no longer has fails before it starts: run as a new thread.
        host.emit(lostConversationWarning(this.info.displayName, gone));
        runner.agentSessionId = undefined;
        runner.retryAfterFailure();
        result = await runner.runTurn(auth.signal);
      }
    } finally {
      this.schemaFile?.dispose();
      this.schemaFile = undefined;
    }
    await translator.finish(result.stop_reason === 'cancelled' ? 'cancelled' : 'ended');
    this.current = undefined;
    auth.done();
    if (translator.authFailure !== undefined && !signal.aborted) {
      // No or refused credentials: one login card (decision 441), not Codex's retries and exit.
      host.emit(authRequiredError('codex', this.info.displayName, { refused: await auth.refused(), trace: translator.authFailure, details: { http_status: 401 } }));
      return { stop_reason: 'error', ...(runner.agentSessionId ? { agent_session_id: runner.agentSessionId } : {}) };
    }
    for (const e of result.events) host.emit(e);
    const stop_reason = result.stop_reason === 'cancelled' ? 'cancelled' : translator.end === 'failed' || result.stop_reason === 'error' ? 'error' : 'end_turn';
    const usage = translator.threadUsage ? turnUsageSince(this.threadUsage, translator.threadUsage) : undefined;
    if (translator.threadUsage) this.threadUsage = translator.threadUsage;
    return {
      stop_reason,
      ...(usage ? { usage } : {}),
      ...(runner.agentSessionId ? { agent_session_id: runner.agentSessionId } : {}),
    };
  }

  /**
   * The turn's abort signal, and what to do on its first 401. Codex retries a 401 ten times
   * (~13 s) before it gives up; when `codex login status` says there is no login to refresh, or
   * the credential is our API key (keys do not refresh), no retry can succeed, so the turn stops
   * at once. A stored login (ChatGPT tokens Codex may refresh) is left to Codex's own retries.
   */
  private authWatch(host: AgentHost, signal: AbortSignal) {
    const ac = new AbortController();
    const forward = () => ac.abort();
    if (signal.aborted) ac.abort();
    else signal.addEventListener('abort', forward, { once: true });
    // The environment Codex runs with (the runner builds the same one).
    const env = childEnv({ session_id: host.session_id, workspacePath: host.workspacePath }, this.options.env);
    const keyGiven = !!env.CODEX_API_KEY;
    let loggedIn: Promise<boolean | undefined> | undefined;
    const status = () => (loggedIn ??= codexLoggedIn(this.options.command ?? 'codex', this.options.prefixArgs ?? [], env, host.workspacePath));
    return {
      signal: ac.signal,
      onFirst401: async () => {
        if (keyGiven || (await status()) === false) ac.abort();
      },
      /** Credentials were there (a key, a login) and the API refused them. */
      refused: async () => keyGiven || (await status()) === true,
      done: () => signal.removeEventListener('abort', forward),
    };
  }

  async setMode(mode: AgentModeName): Promise<void> {
    this.currentMode = mode;
  }

  async dispose(): Promise<void> {
    await this.runner?.dispose();
  }
}

/** The workspace folder on disk; undefined when it cannot be opened (then no file is read for a diff). */
function diskOf(workspacePath: string): FsBackend | undefined {
  try {
    return new NodeFsBackend([workspacePath]);
  } catch {
    return undefined;
  }
}
