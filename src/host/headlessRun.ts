// `rawp run`'s session: the same SessionHost as the editor window and `rawp serve` (agents,
// slash commands, prompt admission, the one permission broker and rules store), with one local
// master of its own that sends a single `control.prompt.request` and sees every frame of the
// conversation. Nobody is there to answer questions: permission prompts are answered by rules
// (`--allow` patterns become session rules; the saved rules store answers before any prompt) and
// otherwise rejected; other questions time out (§6.2.2). Each such answer is reported.
// docs/decisions/323.
import { mkdtempSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { filePath } from '../remote/controlPlane';
import type { ContextFile } from '../protocol/payloadTypes';
import { mimeTypeOf } from '../workspace/mimeType';
import { buildFrame } from '../protocol/build';
import { EVERY_FEATURE } from '../protocol/capabilities';
import { FinalAnswer } from '../protocol/finalAnswer';
import { phrasedNotice } from '../protocol/hostPhrases';
import { UNKNOWN_TOOL, unknownToolNames } from './toolNameCheck';
import { noticeOf, RAWP_EXTENSION_KEY, type NoticePayload, type NoticeWords } from '../protocol/rawpExtension';
import { PROTOCOL_VERSION } from '../protocol/envelope';
import { isKnownFrame, type PayloadOf, type WireFrame } from '../protocol/frameTypes';
import type { Connection } from '../session/connection';
import { rejectValue } from './rejectOption';
import { ToolOutputs } from './toolOutputs';
import { keepError } from './runErrors';
import { FileRefusal } from '../remote/fileApi';
import { ATTACHMENT_TOO_LARGE, ATTACHMENT_TYPE_MISMATCH, ATTACHMENT_UNAVAILABLE } from './attachmentAdmission';
import { DetectedAgents } from './detectedAgents';
import { hostPermissionBroker } from './permissions';
import { SessionHost } from './sessionHost';
import type { HeadlessResult, HeadlessRunOptions, Unanswered } from './headlessRunTypes';
import { StepLimit } from '../session/stepLimit';
import type { AgentAdapter, AgentEvent } from '../session/agentAdapter';
import { leavesRoot } from '../workspace/leavesRoot';

export type { HeadlessResult, HeadlessRunOptions, Unanswered, UnloadedCommands } from './headlessRunTypes';

/** How long the prompt may take to start a turn (admission, slash-command expansion). */
const TURN_START_TIMEOUT_MS = 60_000;
/** session.error codes of a frame the host dropped unread (parse.ts). */
const UNREAD_FRAME_CODES = new Set(['FRAME_TOO_LARGE', 'FRAME_TOO_DEEP', 'FRAME_TOO_WIDE', 'MALFORMED_JSON', 'INVALID_ENVELOPE']);
/** Refusals of a call by the turn's tool lists, the mode or a subagent's scope (the engine's and our tools' codes). */
const DENIAL_CODES: ReadonlySet<string> = new Set(['TOOL_DENIED', 'TOOL_NOT_ALLOWED', 'TOOL_NOT_ALLOWED_IN_MODE', 'SUBAGENT_SCOPE']);
const DENY_REASON = 'nobody can answer a question in a headless rawp run, and no --allow pattern or saved rule allows it';

export class HeadlessRun {
  private readonly agents: DetectedAgents;
  private host?: SessionHost;
  private agentId?: string;
  private session_id?: string;
  private readonly connectionId = `headless:${process.pid}`;
  private promptId?: string;
  private result?: HeadlessResult;
  private readonly answer = new FinalAnswer();
  /** Kept for an agent without a model, once its adapter is made (toolOutputs.ts). */
  private toolOutputs?: ToolOutputs;
  private readonly steps = new StepLimit(Number.POSITIVE_INFINITY); // the turn's steps (no cap: the engine or the agent enforces max_turns)
  private readonly startedAt = performance.now();
  private finish?: (r: HeadlessResult) => void;
  private opened?: () => void;
  private startTimer?: NodeJS.Timeout;
  /** The agent's tool names, from its latest §5.4.1 catalog. */
  private catalog: string[] = [];
  /** The newest stamp in the log: the run's own frames never go back before it (§2.3). */
  private lastStamp = 0;
  private readonly clock = { now: () => new Date((this.lastStamp = Math.max(Date.now(), this.lastStamp + 1))) };
  /** The run's private file store folder (attachments), removed with the run. */
  private filesDir?: string;

  constructor(private readonly o: HeadlessRunOptions) {
    this.agents = new DetectedAgents({ openai: o.openai ?? {}, acpCommands: o.agent.startsWith('acp:') ? [o.agent.slice(4)] : [], language: o.language });
  }

  /** The agent the arguments name, detected; throws why it cannot run (a usage error). */
  async resolveAgent(): Promise<string> {
    this.agentId = await this.agents.resolve(this.o.agent);
    return this.agentId;
  }

  /** Start the session, send the prompt, resolve when its turn ended (or could not start). */
  async run(): Promise<HeadlessResult> {
    const agent = this.agentId ?? (await this.resolveAgent());
    const host = new SessionHost({
      logger: this.o.logger,
      agents: () => this.agents.choices().map((c) => ({ ...c, create: (o) => this.made(c.create(o)) })),
      defaultAgent: () => agent,
      workspacePath: this.o.workspace,
      workspaceOtherName: this.o.workspaceOtherName,
      // Slash commands of the workspace and the home folder, as in the editor (no watching: one prompt).
      commands: { home: homedir(), workspaceFolders: [this.o.workspace], watch: false },
      origin: 'local',
      // One prompt, one run: no name to tell it apart by, and no session.renamed in its stream.
      namesFromPrompt: false,
      // Asks are answered at once (below), so no timeout is needed; the rules file is the user's.
      permissions: hostPermissionBroker({ rulesFile: this.o.rulesFile, timeoutSec: 0, workspace: () => this.o.workspace, ...(this.o.onRulesProblem ? { onRulesProblem: this.o.onRulesProblem } : {}) }),
      // The run's own file store (attachments; files agents produce), gone with the run.
      files: { dir: (this.filesDir = mkdtempSync(join(tmpdir(), 'rawp-run-files-'))) },
    });
    this.host = host;
    // `/clear` from a view starts a new conversation there; a run is one conversation already.
    host.onEvent((e) => {
      if (e.kind === 'clear' && e.connection_id === this.connectionId && this.result && this.result.turn_id === undefined) this.hostAnswered(this.result, phrasedNotice('notice.clear_run'));
    });
    const session_id = await host.create({ agent });
    this.session_id = session_id;
    this.result = { session_id, text: '', permission_denials: [], errors: [], notices: [], num_turns: 0, duration_ms: 0 };
    for (const scope of this.o.allow) host.permissions.rules.add(scope, { decision: 'allow', lifetime: 'session', session_id, created_by: 'rawp run' });

    const done = new Promise<HeadlessResult>((resolve) => (this.finish = resolve));
    const opened = new Promise<void>((resolve) => (this.opened = resolve));
    const conn: Connection = { id: this.connectionId, kind: 'local', send: (f) => this.fromClient(f), close: () => this.end() };
    const attached = host.hub.attach(session_id, conn, { history: false });
    if (!attached.ok) throw new Error(attached.message);
    // §13.1: the master's half of the exchange; what we render is everything (stream-json prints
    // it). Notices: a prompt the host answers itself (/help) or refuses says so instead of silence.
    const extensions = { [RAWP_EXTENSION_KEY]: { notices: true } };
    this.send(buildFrame('session.capabilities', { protocol_version: PROTOCOL_VERSION, supported_namespaces: ['agent', 'tool', 'session', 'control'], features: { ...EVERY_FEATURE }, extensions }, { session_id }, this.clock));
    await opened;
    // A tool list naming no tool of the agent (`--denied-tools bash`) would be ignored in silence.
    // --allow is held to the catalog where asks name catalog tools; an ACP agent asks with its own
    // tool names (Gemini's `read_file`), which its catalog, made from ACP tool kinds, does not list.
    const allow = this.agentId?.startsWith('acp:') ? [] : this.o.allow.map((r) => r.tool_name);
    const unknownTools = unknownToolNames({ ...(this.o.prompt.config_overrides ?? {}), allow }, this.catalog);
    if (unknownTools) {
      keepError(this.result.errors, { source: 'session', error_code: UNKNOWN_TOOL, message: unknownTools });
      this.end();
      return done;
    }
    const files = await this.attach(host, session_id);
    if (!files.ok) {
      // Refused before the prompt goes out, like the host's own admission refusals: no turn.
      keepError(this.result.errors, { source: 'session', error_code: files.error_code, message: files.message });
      this.end();
      return done;
    }
    const context_files = [...(this.o.prompt.context_files ?? []), ...files.files];
    const prompt = buildFrame('control.prompt.request', { ...this.o.prompt, ...(context_files.length ? { context_files } : {}) }, { session_id }, this.clock);
    this.promptId = prompt.message_id;
    this.startTimer = setTimeout(() => this.end(`the prompt started no turn within ${TURN_START_TIMEOUT_MS / 1000} s`), TURN_START_TIMEOUT_MS);
    this.send(prompt);
    return done;
  }

  /** Ctrl-C: cancel the running turn (§6.1.2); the run then ends with stop_reason `cancelled`. */
  cancel(): boolean {
    return this.session_id !== undefined && this.host !== undefined && this.host.cancelTurn(this.session_id);
  }

  /** End the session (§7.5.3 clean-up, session.deleted) and stop the agent. */
  async dispose(): Promise<void> {
    clearTimeout(this.startTimer);
    await this.host?.dispose();
    if (this.filesDir) rmSync(this.filesDir, { recursive: true, force: true });
  }

  /**
   * The attachments as context_files: workspace files by `file:` URL (the host's admission checks
   * them), others copied into the run's store — refused here, by code, when the store would refuse
   * them (too large: before a byte is read; content not of the type its name says).
   */
  private async attach(host: SessionHost, session_id: string): Promise<{ ok: true; files: ContextFile[] } | { ok: false; error_code: string; message: string }> {
    const files: ContextFile[] = [];
    const root = realpathSync(this.o.workspace);
    for (const path of this.o.attachments ?? []) {
      const real = realpathSync(path);
      const name = basename(real);
      const mime = mimeTypeOf(name);
      const rel = relative(root, real);
      if (rel && !leavesRoot(rel)) {
        files.push({ file_url: pathToFileURL(real).href, file_name: name, ...(mime ? { mime_type: mime } : {}), intent: 'context' });
        continue;
      }
      const store = host.fileStore;
      if (!store) return { ok: false, error_code: ATTACHMENT_UNAVAILABLE, message: `${name} could not be attached: the run's file store could not be opened; nothing was sent to the agent.` };
      const size = statSync(real).size;
      if (size > store.maxBytes) return { ok: false, error_code: ATTACHMENT_TOO_LARGE, message: `${name} is ${size} bytes, more than the limit of ${store.maxBytes} bytes for an attached file; nothing was sent to the agent.` };
      try {
        const stored = await store.store({ session_id, file_name: name, mime_type: mime ?? 'application/octet-stream', bytes: readFileSync(real) });
        files.push({ file_url: filePath(stored.transfer_id), file_name: stored.file_name, mime_type: stored.mime_type, intent: 'context' });
      } catch (e) {
        if (!(e instanceof FileRefusal)) throw e;
        const error_code = e.code === 'too_large' ? ATTACHMENT_TOO_LARGE : e.code === 'unsupported_type' ? ATTACHMENT_TYPE_MISMATCH : ATTACHMENT_UNAVAILABLE;
        return { ok: false, error_code, message: `${name} could not be attached: ${e.message}; nothing was sent to the agent.` };
      }
    }
    return { ok: true, files };
  }

  private send(frame: WireFrame): void {
    this.o.onFrame?.(frame, 'master');
    this.host?.fromView(this.connectionId, frame);
  }

  private fromClient(f: WireFrame): void {
    this.o.onFrame?.(f, 'client');
    const stamp = Date.parse(f.timestamp);
    if (Number.isFinite(stamp)) this.lastStamp = Math.max(this.lastStamp, stamp);
    const r = this.result;
    if (!r) return;
    const notice = noticeOf(f);
    if (notice) return this.noticed(r, notice, f.parent_id === this.promptId);
    if (!isKnownFrame(f)) return;
    const frame = f;
    if (r.turn_id !== undefined && frame.turn_id === r.turn_id) {
      this.answer.observe(frame);
      this.toolOutputs?.observe(frame);
      this.steps.admit(frame as AgentEvent);
    }
    switch (frame.type) {
      case 'tool.catalog.publish':
        this.catalog = frame.payload.tools.map((t) => t.name);
        return;
      case 'agent.commands.publish':
        // The latest list (the opening's, then any republish): our own host built the frame, so
        // its type holds and it is not parsed again (decision 731).
        r.unloaded_commands = frame.payload.unloaded;
        this.o.onUnloadedCommands?.(frame.payload.unloaded);
        return;
      case 'tool.invoke.result':
        // A call the turn's tool lists or mode refused is a denial too (claude -p lists them so).
        if (DENIAL_CODES.has(frame.payload.error_code ?? '') && frame.turn_id === r.turn_id) this.denied(r, { kind: 'tool_not_allowed', interaction_id: frame.payload.invocation_id, tool_name: frame.payload.tool_name, question: String(frame.payload.output) });
        return;
      case 'agent.state.changed':
        // The §13.1 opening ends with the state the master attached in: now it may prompt.
        if (frame.payload.reason === 'attached') this.opened?.();
        // `/mode plan`: the host made our prompt a §6.3.2 mode switch, and this is its answer.
        else if (frame.payload.reason === 'mode_switch' && this.answersHostCommand(frame.parent_id)) {
          const mode = String(frame.payload.mode ?? frame.payload.current_state);
          this.hostAnswered(r, phrasedNotice('notice.mode_now', [mode]));
        }
        return;
      case 'session.compacted':
        // `/compact`: the host made our prompt a §6.3.1 compaction, and this is its answer.
        if (this.answersHostCommand(frame.parent_id)) this.hostAnswered(r, phrasedNotice('notice.compacted', [String(frame.payload.previous_token_count), String(frame.payload.current_token_count)]));
        return;
      case 'session.turn.start':
        if (frame.parent_id === this.promptId && r.turn_id === undefined) {
          clearTimeout(this.startTimer);
          r.turn_id = frame.payload.turn_id;
        }
        return;
      case 'agent.error':
        keepError(r.errors, { source: 'agent', error_code: frame.payload.error_code, message: frame.payload.message, severity: frame.payload.severity });
        return;
      case 'session.error':
        keepError(r.errors, { source: 'session', error_code: frame.payload.error_code, message: frame.payload.message, severity: frame.payload.fatal ? 'fatal' : 'error' });
        // The prompt itself was refused (a bad schema, a failed slash command), or the control the
        // host made of it (/mode: MODE_NOT_SUPPORTED, /compact: COMPACTION_NOT_SUPPORTED): no turn comes.
        if (frame.parent_id === this.promptId || this.answersHostCommand(frame.parent_id)) this.end();
        // A frame of ours refused before it could be read (over the host's size, depth or width
        // bounds) names no parent; before a turn, it can only be the prompt: no turn comes, so the
        // run ends now instead of after the 60 s wait.
        else if (r.turn_id === undefined && frame.parent_id === undefined && UNREAD_FRAME_CODES.has(frame.payload.error_code)) this.end();
        return;
      case 'agent.interaction.request':
        queueMicrotask(() => this.unanswered(frame.payload));
        return;
      case 'session.turn.end':
        if (frame.payload.turn_id !== r.turn_id) return;
        r.stop_reason = frame.payload.stop_reason;
        r.text = this.answer.text();
        if (this.toolOutputs) r.tool_outputs = this.toolOutputs.list();
        if (frame.payload.structured_output) r.structured_output = frame.payload.structured_output;
        return;
      case 'session.usage':
        // §7.5.2: the usage right after the turn's end closes the run.
        if (r.stop_reason !== undefined && frame.turn_id === r.turn_id) {
          r.usage = frame.payload;
          this.end();
        }
        return;
    }
  }

  /**
   * A notice about our prompt before any turn: the host handled it (a host command such as /help)
   * or refused it (a failed slash command, an attachment the agent cannot take). Either way no turn
   * comes; a refusal is an error of the run.
   */
  private noticed(r: HeadlessResult, notice: NoticePayload, aboutPrompt: boolean): void {
    r.notices.push(notice);
    if (!aboutPrompt || r.turn_id !== undefined) return;
    // The host's own code (ATTACHMENT_NOT_SUPPORTED, COMMAND_FAILED, …); PROMPT_REFUSED only from a host that sent none.
    if (notice.level === 'error') keepError(r.errors, { source: 'session', error_code: notice.error_code ?? 'PROMPT_REFUSED', message: notice.message });
    this.end();
  }

  /**
   * A frame answering a control after our prompt went out and before any turn: the control the
   * host made of the prompt (§6.3.1 compact, §6.3.2 mode switch; its id is not ours to see — a
   * relayed control skips its sender, §2.4). The run is the session's only master, so no one else's.
   */
  private answersHostCommand(parent_id: string | undefined): boolean {
    return this.promptId !== undefined && parent_id !== undefined && this.result?.turn_id === undefined;
  }

  /** The host handled the prompt as a command and said so: the run's answer (exit 0). */
  private hostAnswered(r: HeadlessResult, phrase: { message: string; words: NoticeWords }): void {
    r.notices.push({ level: 'info', ...phrase });
    this.end();
  }

  /** Answer a question for the absent user: reject a permission, let anything else time out. */
  private unanswered(req: PayloadOf<'agent.interaction.request'>): void {
    const session_id = this.session_id;
    if (!session_id || !this.result) return;
    const base = { interaction_id: req.interaction_id, question: req.question_text, ...(req.context?.tool_name ? { tool_name: req.context.tool_name } : {}), ...(req.context?.tool_input ? { tool_input: req.context.tool_input } : {}) };
    const reject = req.interaction_type === 'PERMISSION' ? rejectValue(req) : undefined;
    let u: Unanswered;
    if (reject !== undefined) {
      u = { kind: 'permission_denied', ...base };
      this.result.permission_denials.push(u);
      this.send(buildFrame('control.interaction.response', { interaction_id: req.interaction_id, selected_value: reject, text_input: DENY_REASON }, { session_id }, this.clock));
    } else {
      u = { kind: 'question_timed_out', ...base };
      if (req.interaction_type === 'PERMISSION') this.result.permission_denials.push(u);
      this.send(buildFrame('control.interaction.timeout', { interaction_id: req.interaction_id }, { session_id }, this.clock));
    }
    this.o.onUnanswered?.(u);
  }

  private made(adapter: AgentAdapter): AgentAdapter {
    if (adapter.info.grammarOnly === true) this.toolOutputs = new ToolOutputs();
    return adapter;
  }

  private denied(r: HeadlessResult, u: Unanswered): void {
    r.permission_denials.push(u);
    this.o.onUnanswered?.(u);
  }

  private end(why?: string): void {
    clearTimeout(this.startTimer);
    const r = this.result;
    if (!r) return;
    if (why) keepError(r.errors, { source: 'session', error_code: 'NO_TURN', message: why });
    r.num_turns = this.steps.count;
    const agentSession = this.session_id !== undefined ? this.host?.agentSessionId(this.session_id) : undefined;
    if (agentSession) r.agent_session_id = agentSession;
    r.duration_ms = Math.round(performance.now() - this.startedAt);
    this.opened?.();
    this.finish?.(r);
  }
}
