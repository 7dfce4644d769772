// The host's implementation of the engine's prompt-admission port (src/session/admission.ts) for
// one session: every control.prompt.request, from any connection, goes through the slash-command
// pipeline (slash-commands §5–§7: host commands, custom commands, file commands, templates; one
// rule for `input_type`) and, for masters that asked for it, the follow-up queue (§8; decision
// 101). Host commands without a frame of their own (/rename, /stop, /help, …) are done here, so
// they work the same from the editor's view, a browser master or `rawp attach`.
import { buildFrame } from '../protocol/build';
import { phrasedNotice } from '../protocol/hostPhrases';
import type { Frame, FrameOf, PayloadOf } from '../protocol/frameTypes';
import type { LocalAction } from '../commands';
import { QUEUE_FULL } from '../commands/followUpQueue';
import type { AdmissionSender, AdmissionVerdict, PromptAdmission } from '../session/admission';
import type { SessionCommands } from './sessionCommands';
import { admitContextFiles, type AttachmentGate } from './attachmentAdmission';
import { costNotice } from './costNotice';
import { UsageTotals } from './usageTotals';

type PromptFrame = FrameOf<'control.prompt.request'>;
type PromptPayload = PayloadOf<'control.prompt.request'>;

export interface AdmissionHost {
  /** Send a prompt the queue released after a turn ended (already admitted). */
  release(frame: PromptFrame): void;
  /** The name the session now has (cleaned, decision 566); undefined when the name has nothing visible. */
  rename(name: string): string | undefined;
  /** Cancel the running turn (§6.1.2); false when none runs. */
  cancelTurn(): boolean;
  /** `/clear` from this connection: true when a view of ours starts the new conversation. */
  clear(connection_id: string): boolean;
  /** A prompt as typed that admission lets through (now or queued): the one of the first turn names the session (decision 651). */
  firstPrompt?(prompt: PromptPayload): void;
}

export class SessionAdmission implements PromptAdmission {
  /**
   * Prompts the queue holds, by payload, with the envelope of the frame their sender sent (its id
   * is kept). Weak, and keyed by what the queue holds, so it is bounded by the queue's own limits
   * (decision 544); the envelope only, so a held prompt's text is not kept twice.
   */
  private readonly held = new WeakMap<object, Omit<PromptFrame, 'payload'>>();
  /** Set while `admit` submits to the queue: the queue sending at once lands here. */
  private sentNow?: PromptPayload;
  /** The message id of the prompt the queue handed on last, until its turn starts (`observe`). */
  private inFlightId?: string;
  private routing = false;
  /** For `/cost`: the session's usage so far. */
  private readonly usage = new UsageTotals();

  constructor(
    private readonly session_id: string,
    private readonly commands: SessionCommands,
    private readonly host: AdmissionHost,
    /** §6.1.1 context files: resolvable and of a type the agent takes, or the prompt is refused. */
    private readonly attachments?: AttachmentGate,
  ) {}

  /** The queue's `send`: at once (inside `admit`) or later, after the running turn. */
  send(payload: PromptPayload): void {
    if (this.routing) {
      this.sentNow = payload;
      return;
    }
    const original = this.held.get(payload);
    this.held.delete(payload);
    const frame = original ? { ...original, payload } : buildFrame('control.prompt.request', payload, { session_id: this.session_id });
    this.inFlightId = frame.message_id;
    this.host.release(frame);
  }

  /**
   * Every frame of the session, for the follow-up queue first (turns, PROMPT_IN_PROGRESS); then a
   * refusal of the prompt the queue handed on (a non-fatal session.error answering it, before a
   * turn started) frees the queue (decision 652).
   */
  observe(frame: Frame): void {
    this.commands.observe(frame);
    this.usage.observe(frame);
    if (frame.type === 'session.turn.start') this.inFlightId = undefined;
    else if (frame.type === 'session.error' && !frame.payload.fatal && frame.parent_id !== undefined && frame.parent_id === this.inFlightId) {
      this.inFlightId = undefined;
      this.commands.queue.refused();
    }
  }

  async admit(frame: PromptFrame, from: AdmissionSender): Promise<AdmissionVerdict> {
    // The sender's input_type is not trusted: the pipeline derives it by one rule (decision 102).
    const { prompt_text, input_type: _sent, ...extras } = frame.payload;
    const action = await this.commands.route(prompt_text, extras);
    switch (action.kind) {
      case 'prompt': {
        const files = await admitContextFiles(action.payload.context_files, this.attachments ?? { source: () => undefined, support: () => undefined, agentName: () => 'the agent' });
        if (!files.ok) return { kind: 'refused', error_code: files.error_code, message: files.message };
        this.host.firstPrompt?.(frame.payload);
        return from.followUps ? this.queue(frame, action.payload) : { kind: 'run', payload: action.payload };
      }
      case 'control': {
        const ctx = { session_id: this.session_id, parent_id: frame.message_id };
        return { kind: 'control', frame: action.type === 'control.session.compact' ? buildFrame(action.type, action.payload, ctx) : buildFrame(action.type, action.payload, ctx) };
      }
      case 'handled':
        return { kind: 'held' };
      case 'error':
        return { kind: 'refused', error_code: 'COMMAND_FAILED', message: `/${action.command}: ${action.message}` };
      case 'local':
        return this.local(action, from);
    }
  }

  private queue(frame: PromptFrame, payload: PromptPayload): AdmissionVerdict {
    this.routing = true;
    this.sentNow = undefined;
    try {
      const delivery = this.commands.queue.submit(payload);
      const sentNow = this.sentNow;
      // Full (decision 544): refused like any refusal, so it counts towards the sender's 1008 close.
      if (delivery.status === 'refused') return { kind: 'refused', error_code: QUEUE_FULL, message: delivery.message };
      if (delivery.status === 'sent' && sentNow === payload) {
        this.inFlightId = frame.message_id;
        return { kind: 'run', payload };
      }
      const { payload: _text, ...envelope } = frame;
      this.held.set(payload, envelope);
      // A paused queue resumed by this submit sends its oldest item first, under that item's id.
      if (sentNow) queueMicrotask(() => this.send(sentNow));
      return { kind: 'held', notice: { level: 'info', ...phrasedNotice('notice.queued') } };
    } finally {
      this.routing = false;
      this.sentNow = undefined;
    }
  }

  private local(action: LocalAction, from: AdmissionSender): AdmissionVerdict {
    switch (action.action) {
      case 'rename': {
        // Said to whoever renamed it: a terminal master or a headless run sees no header change.
        const now = this.host.rename(action.name);
        if (now !== undefined) return { kind: 'held', notice: { level: 'info', ...phrasedNotice('notice.renamed', [now]) } };
        return { kind: 'held', notice: { level: 'warning', ...phrasedNotice('notice.rename_blank') } };
      }
      case 'cancel':
        return this.host.cancelTurn() ? { kind: 'held' } : { kind: 'held', notice: { level: 'info', ...phrasedNotice('notice.no_turn') } };
      case 'help':
        return { kind: 'held', notice: { level: 'info', message: action.commands.map((c) => `/${c.name} — ${c.description}`).join('\n'), words: { id: 'help' } } };
      case 'clear':
        if (this.host.clear(from.connection_id)) return { kind: 'held' };
        return { kind: 'held', notice: { level: 'info', ...phrasedNotice('notice.clear_elsewhere') } };
      case 'cost':
        return { kind: 'held', notice: { level: 'info', ...costNotice(this.usage.summary()) } };
    }
  }
}
