// The terminal master behind `rawp attach`: frames in → the one transcript reducer → the
// terminal; lines typed → prompts or answers; Ctrl-C cancels the running turn (a second one
// quits). On a drop it finalizes the transcript (§7.8.1) and the client reattaches; the
// session.history that follows undoes the finalization and fills the gap (§7.8.3).
import { earlierChatsIn, type EarlierChat } from '../../protocol/continuation';
import { hostNoticeIn, phrasedNotice, type HostLanguage } from '../../protocol/hostPhrases';
import { noticeOf, OUR_MASTER_EXTENSIONS } from '../../protocol/rawpExtension';
import { homedir } from 'node:os';
import { createInterface } from 'node:readline';
import { catalogNotices, refusalFor } from '../../protocol/catalogNotices';
import { escapeUserText } from '../../protocol/fileReference';
import type { Frame, PayloadOf, VendorFrame } from '../../protocol/frameTypes';
import { createTranscript, currentTurn, type Transcript } from '../../protocol/transcript';
import { finalize } from '../../protocol/transcript/finalize';
import { pendingInteractions } from '../../protocol/transcript/read';
import { applyFrame } from '../../protocol/transcript/reduce';
import { answerFor, looksLikeLateAnswer } from './answers';
import { attachPhrase, type AttachPhraseId } from './attachPhrases';
import { MasterClient, type CloseCause, type EndCause } from './masterClient';
import { PipedInputEnd } from './pipedInputEnd';
import { saveTransfer, sizeText } from './fileTransfers';
import { httpBaseOf } from './target';
import { TerminalPrinter, transfersOf } from './render';
import { parseSaveArgs } from './saveArgs';
import { UnloadedNews, unloadedText } from './unloadedNotice';

/** Catalog notices shown per catalog, and catalog facts remembered (§5.4.1). */
const MAX_CATALOG_NOTICES = 20;
const MAX_CATALOG_FACTS = 1000;

/**
 * The largest message `rawp attach` reads (announced as its `max_frame_size`, §13.1, and held by its
 * socket): twice the history the host keeps by default (8 MiB), so an honest host's opening fits,
 * while a hostile one cannot grow a message in the terminal's memory without bound (decision 703).
 */
export const ATTACH_MAX_FRAME_BYTES = 16 * 1024 * 1024;

export interface TerminalMasterOptions {
  url: string;
  token: string;
  session_id: string;
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  ca?: Buffer;
  /**
   * The terminal's language (its locale): of the host's notices and of attach's own words
   * (decision 601); English by default.
   */
  language?: HostLanguage;
}

export class TerminalMaster {
  readonly transcript: Transcript;
  private readonly printer: TerminalPrinter;
  private readonly client: MasterClient;
  /** http(s)://host:port of the session's host: where its §4.5.1 files are fetched. */
  private readonly httpBase: string;
  private scheduled = false;
  private announced = new Set<string>();
  /** Catalog facts already shown (§5.4.1): a republished catalog repeats only what changed. */
  private catalogShown = new Set<string>();
  /** The command files that did not load, said once per distinct list (decision 727). */
  private readonly unloaded = new UnloadedNews();
  private cancelSentFor?: string;
  /** A line held once because it looked like a late answer (looksLikeLateAnswer). */
  private heldLine?: string;
  /** Lines typed (or piped) before the first attach completed; sent once it has. */
  private early: string[] | undefined = [];
  /** Ids of the prompts this attach sent (its own /help's answer gets attach's commands too). */
  private readonly ownPrompts = new Set<string>();
  /** Past the opening's history: frames now are news. */
  private live = false;
  /** Piped input that ended: leave once what it asked is done. */
  // Until the first attach, the end of piped input does not leave: the attach's own outcome (a
  // session that is not there: 404) is the answer a script needs, not exit 0 (the CLI trial).
  private readonly inputEnd = new PipedInputEnd(() => this.stop(), () => this.early !== undefined);
  private finished!: (code: number) => void;
  readonly done: Promise<number>;
  /** The digest of the chat this session continues, once it came (continuedFrom.ts). */
  private earlier: EarlierChat | undefined;

  constructor(private readonly o: TerminalMasterOptions) {
    this.transcript = createTranscript({ sessionId: o.session_id });
    this.httpBase = httpBaseOf(o.url);
    this.printer = new TerminalPrinter((text) => o.stdout.write(text), { httpBase: this.httpBase, ...(o.language ? { language: o.language } : {}), earlierChat: () => this.earlier });
    this.done = new Promise((resolve) => (this.finished = resolve));
    this.client = new MasterClient({
      url: o.url,
      token: o.token,
      session_id: o.session_id,
      ...(o.ca ? { ca: o.ca } : {}),
      // A master of ours: follow-ups typed during a turn are queued, replies come as notices (decision 101).
      extensions: OUR_MASTER_EXTENSIONS,
      maxFrameSize: ATTACH_MAX_FRAME_BYTES,
      handlers: {
        frame: (f) => this.onFrame(f),
        connected: ({ reattach }) => {
          // The opening's history first (§7.1.1: with its note when the host no longer had all of
          // it), then the word that we are attached: what is above it is the session so far.
          this.render();
          this.live = true;
          if (reattach) this.say('notice.reconnected');
          else this.say('notice.attached', o.session_id);
        },
        disconnected: ({ code, cause, retryInMs }) => {
          this.live = false;
          finalize(this.transcript, { reason: 'connection_closed' });
          this.render();
          const why = this.causeText(cause, code, false);
          if (retryInMs !== undefined) this.say('notice.connection_lost', `${code}${why ? `: ${why}` : ''}`, retryInMs);
        },
        ended: ({ code, cause }) => {
          this.render();
          this.say('notice.disconnected', this.causeText(cause, code, true));
          // An error's end can go on in a new session (decision 630): how, in one line to copy.
          const end = this.transcript.deleted;
          if (end?.reason === 'error' && end.deletedBy === 'client') this.say('notice.continue_hint', this.httpBase, o.session_id);
          this.finished(this.transcript.deleted || cause.kind === 'stopped' ? 0 : 1);
        },
      },
    });
  }

  start(): void {
    this.client.start();
    const lines = createInterface({ input: this.o.stdin, terminal: false });
    lines.on('line', (line) => this.onLine(line));
    lines.on('close', () => {
      // End of input on a terminal (Ctrl-D) means leave; a pipe's end, once what it asked is done.
      if ((this.o.stdin as NodeJS.ReadStream).isTTY) this.stop();
      else this.inputEnd.inputEnded();
    });
  }

  /** Ctrl-C: cancel the running turn; with none running, or pressed again, quit. */
  interrupt(): void {
    const turn = currentTurn(this.transcript);
    if (turn && this.cancelSentFor !== turn.turnId && this.client.connected) {
      this.cancelSentFor = turn.turnId;
      this.sendOwn(this.client.send('control.prompt.cancel', { target_turn_id: turn.turnId, reason: 'user_cancelled' }));
      this.say('notice.cancelling');
      return;
    }
    this.stop();
  }

  stop(): void {
    this.client.stop();
  }

  /** For tests: cut the connection as a network drop would. */
  drop(): void {
    this.client.drop();
  }

  private onLine(line: string): void {
    const text = line.trim();
    if (!text) return;
    if (text === '/quit') return this.stop();
    // Before the first attach nothing is known of the session: a piped `/cancel` found no turn
    // and quit (the CLI trial of 2026-12-06), a `/save` no file. They wait with the prompts.
    if (this.early && !this.client.connected) {
      this.early.push(text);
      return;
    }
    if (text === '/cancel') return this.interrupt();
    if (text === '/save' || text.startsWith('/save ')) return void this.save(text.slice(5).trim());
    if (!this.client.connected) return this.say('notice.not_connected');
    const [pending] = pendingInteractions(this.transcript);
    if (pending) {
      const answer = answerFor(pending.request, text, this.o.language);
      if (!answer.ok) return this.notice(`[${answer.message}]`);
      this.sendOwn(this.client.send('control.interaction.response', answer.payload));
      return;
    }
    if (looksLikeLateAnswer(text, this.transcript.idx.interactions.size) && this.heldLine !== text) {
      this.heldLine = text;
      return this.say('notice.late_answer', text);
    }
    this.heldLine = undefined;
    // §16.2.2-1: this master composes prompt_text, and what is typed is user text: escaped, so a
    // typed `<@file:…>` stays text and a backslash survives (the terminal has no file picker).
    const prompt_text = escapeUserText(text);
    // A frame over the host's max_frame_size closes the socket (1009) and attach was gone, the
    // 5 MB line echoed first (the CLI trial of 2026-12-06): it is refused here, and attach stays.
    const limit = hostFrameLimit(this.transcript);
    const bytes = Buffer.byteLength(JSON.stringify(prompt_text)) + FRAME_ENVELOPE_BYTES;
    if (limit !== undefined && bytes > limit) return this.say('notice.prompt_too_large', sizeText(bytes), sizeText(limit));
    const prompt = this.client.send('control.prompt.request', { prompt_text, input_type: text.startsWith('/') ? 'slash_command' : 'text' });
    if (prompt) {
      this.inputEnd.promptSent(prompt.message_id);
      this.ownPrompts.add(prompt.message_id);
      if (this.ownPrompts.size > 256) this.ownPrompts.delete(this.ownPrompts.values().next().value as string);
    }
    this.sendOwn(prompt);
  }

  /**
   * `/save [N] [DIR]`: file N of the session (default the newest) fetched from the host (§4.5.1,
   * GET /v1/files/{id} with the token), its SHA-256 checked, written into DIR (default here).
   */
  private async save(args: string): Promise<void> {
    this.inputEnd.saveStarted();
    try {
      await this.saveNow(args);
    } finally {
      this.inputEnd.saveEnded();
    }
  }

  private async saveNow(args: string): Promise<void> {
    const files = transfersOf(this.transcript);
    if (files.length === 0) return this.say('save.none_shared');
    const asked = parseSaveArgs(args, files.length, homedir(), this.o.language);
    if ('error' in asked) return this.notice(`[/save: ${asked.error}]`);
    const n = asked.n;
    const file = files[n - 1];
    try {
      const saved = await saveTransfer(file, { httpBase: this.httpBase, token: this.o.token, ...(this.o.ca ? { ca: this.o.ca } : {}), ...(asked.dir ? { dir: asked.dir } : {}), ...(this.o.language ? { language: this.o.language } : {}) });
      this.say('save.saved', n, file.file_name, sizeText(saved.size), saved.path);
    } catch (e) {
      this.notice(`[/save ${n}: ${e instanceof Error ? e.message : String(e)}]`);
    }
  }

  /** Our own controls are not echoed back (§2.4): put them in our transcript ourselves. */
  private sendOwn(frame: Frame | undefined): void {
    if (!frame) return this.say('notice.not_connected');
    applyFrame(this.transcript, frame);
    this.render();
  }

  private onFrame(frame: Frame | VendorFrame): void {
    this.inputEnd.seen(frame);
    // The earlier chat's digest of a continued session (its own frame, or in its history).
    this.earlier = earlierChatsIn([frame], this.o.session_id).at(-1) ?? this.earlier;
    const notice = noticeOf(frame);
    if (notice) {
      this.notice(`[${hostNoticeIn(notice, this.o.language ?? 'en')}]`);
      // /help lists the session's commands; attach's own are answered here and never reach the
      // host, so they are listed after them (the CLI trial of 2026-12-06 found them nowhere).
      // The files that did not load too, asked or not before: /help is where one looks (decision 727).
      if (notice.words?.id === 'help' && frame.parent_id !== undefined && this.ownPrompts.has(frame.parent_id)) {
        this.say('notice.own_commands');
        const unloaded = unloadedText(this.transcript.unloadedCommands, this.o.language);
        if (unloaded) this.notice(`[⚠ ${unloaded}]`);
      }
      return;
    }
    // A mode switch while attached is said, whoever made it: our own /mode printed nothing (the CLI
    // trial of 2026-12-06), and another master's changes what our next prompt may do. The
    // opening's history is the session so far: its switches are not news.
    if (this.live && frame.type === 'agent.state.changed' && frame.payload.reason === 'mode_switch') {
      const mode = (frame.payload as { mode?: unknown }).mode;
      if (typeof mode === 'string') this.notice(`[${hostNoticeIn(phrasedNotice('notice.mode_now', [mode]), this.o.language ?? 'en')}]`);
    }
    if (frame.type === 'tool.catalog.publish') this.showCatalog(frame.payload);
    if (frame.type === 'tool.invoke.request') {
      const refusal = refusalFor(this.transcript.toolCatalog, frame.payload.tool_name);
      // The client library answers it with session.error; the user sees why (§5.4.1-3).
      if (refusal) this.say('notice.refused', refusal.message);
    }
    if (applyFrame(this.transcript, frame)) this.schedule();
    if (this.early && this.client.connected) {
      const lines = this.early;
      this.early = undefined;
      for (const line of lines) this.onLine(line);
      this.inputEnd.attached();
    }
  }

  /** Render at most once per turn of the event loop, however many frames arrived. */
  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.render();
    });
  }

  private render(): void {
    this.printer.update(this.transcript);
    // The list as it is now (the opening's, or a refresh), after the history it came with.
    const unloaded = this.unloaded.next(this.transcript.unloadedCommands, this.o.language);
    if (unloaded) this.notice(`[⚠ ${unloaded}]`);
    for (const p of pendingInteractions(this.transcript)) {
      if (this.announced.has(p.interactionId)) continue;
      this.announced.add(p.interactionId);
      const how = p.request.options?.length ? this.phrase('notice.type_number', p.request.options.length) : this.phrase(p.request.interaction_type === 'TEXT_INPUT' ? 'notice.type_text' : 'notice.type_yn');
      this.say('notice.question_waiting', how);
    }
  }

  /** §5.4.1-4 / -6: tell the user what a degraded tool cannot do and warn of error diagnostics. */
  private showCatalog(catalog: PayloadOf<'tool.catalog.publish'>): void {
    // Bounded: a catalog of thousands of degraded tools, or one republished with ever new
    // reasons, neither floods the terminal nor grows the memory of what was shown.
    if (this.catalogShown.size > MAX_CATALOG_FACTS) this.catalogShown.clear();
    const fresh = catalogNotices(catalog).filter((n) => !this.catalogShown.has(n.key));
    for (const n of fresh) this.catalogShown.add(n.key);
    for (const n of fresh.slice(0, MAX_CATALOG_NOTICES)) this.notice(`[${n.level === 'blocked' ? '✗' : '⚠'} ${n.text}]`);
    if (fresh.length > MAX_CATALOG_NOTICES) this.say('notice.more_tool_notices', fresh.length - MAX_CATALOG_NOTICES);
  }

  private notice(text: string): void {
    this.printer.notice(text);
  }

  /** One of attach's own phrases in the terminal's language. */
  private phrase(id: AttachPhraseId, ...args: Array<string | number>): string {
    return attachPhrase(id, args, this.o.language);
  }

  /** A notice of our own words, in [brackets] like every notice. */
  private say(id: AttachPhraseId, ...args: Array<string | number>): void {
    this.notice(`[${this.phrase(id, ...args)}]`);
  }

  /**
   * Why the connection ended, in the terminal's language: the client's causes are worded here; a
   * reason the host gave on closing is its own and shown as sent. `final`: a host that gave none
   * is said as "closed (code)" (the code stands beside it otherwise).
   */
  private causeText(cause: CloseCause | EndCause, code: number, final: boolean): string {
    switch (cause.kind) {
      case 'session_deleted':
        return this.phrase('reason.session_deleted');
      case 'stopped':
        return this.phrase('reason.closed');
      case 'answered':
        return this.phrase('reason.server_answered', cause.status);
      case 'host':
        return cause.reason || (final ? this.phrase('reason.closed_code', code) : '');
    }
  }
}

/** Room for a prompt frame's envelope beside its text as JSON (ids, time stamps, field names). */
const FRAME_ENVELOPE_BYTES = 1024;

/** The largest frame the session's client takes (its `session.capabilities`, §12.2.1), if it said. */
function hostFrameLimit(t: Transcript): number | undefined {
  for (let i = t.capabilities.length - 1; i >= 0; i--) {
    const c = t.capabilities[i];
    if (c.features?.adapter_type !== undefined && c.max_frame_size !== undefined) return c.max_frame_size;
  }
  return undefined;
}

