// The one typed message map between the extension host and the chat webview (and, through the
// WebSocket transport, the browser master). Pure: no I/O, no DOM, no vscode; both sides import it.
//
// A message is `{ kind, payload }`. DPS frames travel inside it as plain objects (the postMessage
// boundary clones them, so they are data again): host→webview `frames` are validated one by one
// with parseValue when the message is parsed and come out typed (`WireFrame`); webview→host `frame`
// stays unchecked here because the hub must answer a bad one with `session.error` (§2.2). Every
// other message is host-only UI plumbing (session list, agent pick, open file/diff, attach URL,
// settings). One map per direction: "kind" → payload schema.
//
//   host:    webview.postMessage(hostMessage('frames', { session_id, frames: [frame] }))
//   host:    const m = parseWebviewMessage(raw); if (m.ok) switch (m.message.kind) { … }
//   webview: transport.send(webviewMessage('frame', { frame: buildFrame('control.prompt.cancel', …) }))
import { z } from 'zod';
import { Id } from './common';
import type { WireFrame } from './frameTypes';
import { parseValue } from './parse';
import { NoticePayload, NoticeWords } from './rawpExtension';

/**
 * Frames for the view: each validated with the frame schemas on arrival and typed after; one that
 * fails is left out alone, as a bad frame in a history is (§7.1.1), never the whole message.
 */
const WireFrames = z.array(z.unknown()).transform((values): WireFrame[] =>
  values.flatMap((v) => {
    const outcome = parseValue(v);
    return outcome.kind === 'accepted' ? [outcome.frame] : [];
  }),
);

/** A frame the view built, checked by the hub (which answers a bad one with session.error, §2.2). */
const UncheckedFrame = z.record(z.string(), z.unknown());

export const SessionSummary = z.looseObject({
  session_id: Id,
  name: z.string(),
  agent: z.string().optional(),
  /** The agent's current state (§4.6.1 names), for the list's badge. */
  state: z.string().optional(),
  created_at: z.string().optional(),
  /** Shared with remote masters (DESIGN.md control plane). */
  shared: z.boolean().optional(),
  /** Number of remote masters attached right now. */
  masters: z.number().int().nonnegative().optional(),
});

/** A session an error ended that can still be continued (decision 646): the list offers Continue. */
export const EndedSessionSummary = z.looseObject({
  session_id: Id,
  name: z.string(),
  agent: z.string(),
  ended_at: z.string(),
  /** Shared with remote masters when it ended (a master may have started it): its continuation is shared too. */
  shared: z.boolean().optional(),
});

export const AgentSummary = z.looseObject({
  id: z.string().min(1),
  name: z.string(),
  description: z.string().optional(),
  available: z.boolean(),
  /** Why an agent cannot run (not installed, Restricted Mode, …). */
  unavailable_reason: z.string().optional(),
  /** `unavailable_reason` as the host's phrases, for a view in another language (decision 609). */
  unavailable_words: z.array(NoticeWords).max(8).optional(),
});

/** A permission rule of the host's one store (src/session/permissions/rules.ts), whichever agent made it. */
export const PermissionRuleView = z.looseObject({
  id: z.string().min(1),
  tool_name: z.string().min(1),
  path_glob: z.string().optional(),
  command_prefix: z.string().optional(),
  decision: z.enum(['allow', 'reject']).optional(),
  /** `session`: until its session ends; `always`: saved. */
  lifetime: z.enum(['session', 'always']).optional(),
  session_id: z.string().optional(),
  /** The workspace a saved rule holds in (decision 708); none: every workspace. */
  workspace: z.string().optional(),
  /** The agent whose ask created it: builtin, claude-code, acp:gemini, … */
  created_by: z.string().optional(),
  created_at: z.string(),
});

/** Host → webview. */
export const HOST_TO_WEBVIEW = {
  /** The webview now shows this session: start a fresh transcript (frames follow). */
  'session.attached': z.looseObject({
    session_id: Id,
    name: z.string().optional(),
    agent: z.string().optional(),
    /** False when the host restored a persisted session and will replay its frames. */
    live: z.boolean().optional(),
  }),
  /** DPS frames of the attached session, in order (session.history on reattach included). */
  frames: z.looseObject({ session_id: Id, frames: WireFrames }),
  /** The transport to the session went away (§7.8.2): the webview finalizes (§7.8.1). */
  'session.disconnected': z.looseObject({ session_id: Id, reason: z.enum(['connection_closed', 'connection_error', 'app_restart']) }),
  'session.list': z.looseObject({ sessions: z.array(SessionSummary), active_session_id: z.string().optional(), ended: z.array(EndedSessionSummary).max(256).optional() }),
  'agent.list': z.looseObject({ agents: z.array(AgentSummary), selected: z.string().optional() }),
  /** The agent picked for a session that has history: it keeps its agent, and the view offers a
   *  new session with the picked one (issue 15 Why 5, decision 361). */
  'agent.offer': z.looseObject({ session_id: Id, agent_id: z.string().min(1), agent_name: z.string() }),
  settings: z.looseObject({
    permission_rules: z.array(PermissionRuleView),
    /** Send on Enter (true) or on Ctrl/Cmd+Enter (false). */
    enter_sends: z.boolean().optional(),
    /** The workspace folders (absolute POSIX paths): the view names files inside them relatively. */
    workspace_roots: z.array(z.string().max(4096)).max(64).optional(),
  }),
  /**
   * Answer to `file.resolve` (§4.5.1): a URL the view may load the file from (VS Code: a webview
   * resource URI of the host's file store; nothing leaves the machine), or why there is none.
   */
  'file.resolved': z.looseObject({ transfer_id: Id, uri: z.string().optional(), error: z.string().optional() }),
  /** A one-line notice for the user (Restricted Mode, attach URL copied, …). */
  // The same payload as an x-rawp.notice: its `error_code` the view says in plain words, its
  // `words` in the view's language.
  notice: NoticePayload,
  /** §6.1.1: an attachment of the composer is stored; its `file_url` goes into `context_files`. */
  'attachment.stored': z.looseObject({ request_id: z.string().min(1).max(100), file_url: z.string().min(1), file_name: z.string(), mime_type: z.string(), size_bytes: z.number().int().nonnegative() }),
  /** The attachment was not stored (too large, wrong type, no store): the sentence says why. */
  'attachment.failed': z.looseObject({ request_id: z.string().min(1).max(100), message: z.string() }),
} as const;

/** The largest attachment the composer sends (base64 in a message; the host's store has its own limit). */
export const MAX_ATTACHMENT_BYTES = 20 * 1024 * 1024;

/** Webview → host. */
export const WEBVIEW_TO_HOST = {
  /** The webview booted (or reloaded) and wants the current session and lists. */
  ready: z.looseObject({ version: z.literal(1) }),
  /** A DPS frame the webview built (control.*, session.capabilities, session.renamed). */
  frame: z.looseObject({ frame: UncheckedFrame }),
  'session.new': z.looseObject({ agent: z.string().optional(), name: z.string().optional() }),
  'session.switch': z.looseObject({ session_id: Id }),
  'session.delete': z.looseObject({ session_id: Id }),
  /**
   * "Continue this conversation" (decision 630): a NEW session with the agent of this ended one,
   * going on with the agent's own conversation; the ended session stays ended (§18.2).
   */
  'session.continue': z.looseObject({ session_id: Id }),
  /** The person dismissed an ended session from the list: it is no longer offered (decision 646). */
  'session.dismissEnded': z.looseObject({ session_id: Id }),
  'agent.pick': z.looseObject({ agent_id: z.string().min(1) }),
  /** Open a workspace file in the editor, at a 1-based line when given. */
  'file.open': z.looseObject({ path: z.string().min(1), line: z.number().int().positive().optional() }),
  /** Open the diff of an edit result (vscode.diff) for one invocation. */
  'diff.open': z.looseObject({ invocation_id: Id, file_path: z.string().optional() }),
  'attach.copyUrl': z.looseObject({ session_id: Id }),
  /** Where can the view load the file of an `agent.file.transfer` (§4.5.1)? Answered by `file.resolved`. */
  'file.resolve': z.looseObject({ session_id: Id, transfer_id: Id }),
  'permissionRule.revoke': z.looseObject({ rule_id: z.string().min(1) }),
  /** Copy text to the clipboard (the webview's own clipboard API is not always allowed). */
  'clipboard.write': z.looseObject({ text: z.string() }),
  /** Log an agent in (decision 381): a terminal running its login, or an API key kept in SecretStorage. */
  'agent.login': z.looseObject({ agent_id: z.string().min(1), via: z.enum(['terminal', 'api_key']) }),
  /**
   * §6.1.1: store a file pasted or dropped into the composer in the session's file store (§4.5.1);
   * answered with `attachment.stored` or `attachment.failed` under the same `request_id`.
   */
  'attachment.add': z.looseObject({
    request_id: z.string().min(1).max(100),
    session_id: Id,
    file_name: z.string().min(1).max(255),
    /** The browser's type for the file; empty when it has none (the host guesses from the name). */
    mime_type: z.string().max(255),
    /** The bytes, base64: at most MAX_ATTACHMENT_BYTES once decoded. */
    data: z.string().max(Math.ceil(MAX_ATTACHMENT_BYTES / 3) * 4 + 4),
  }),
  /**
   * Issue 17 review: show what a turn changed — VS Code opens its multi-file diff (vscode.changes)
   * of the checkpoint against the files now, or one file's diff when `path` is given. The browser
   * master asks its host for the unified diffs instead (x-rawp.checkpoint.diff, decision 401).
   */
  'checkpoint.review': z.looseObject({ session_id: Id, checkpoint_id: z.string().min(1).max(200), path: z.string().min(1).max(4096).optional() }),
  /** A problem inside the webview, for the host's output channel. */
  log: z.looseObject({ level: z.enum(['debug', 'info', 'warn', 'error']), message: z.string() }),
} as const;

type HostMap = typeof HOST_TO_WEBVIEW;
type WebviewMap = typeof WEBVIEW_TO_HOST;
export type HostMessageKind = keyof HostMap;
export type WebviewMessageKind = keyof WebviewMap;
export type HostPayload<K extends HostMessageKind> = z.infer<HostMap[K]>;
export type WebviewPayload<K extends WebviewMessageKind> = z.infer<WebviewMap[K]>;

export type HostMessage = { [K in HostMessageKind]: { kind: K; payload: HostPayload<K> } }[HostMessageKind];
export type WebviewMessage = { [K in WebviewMessageKind]: { kind: K; payload: WebviewPayload<K> } }[WebviewMessageKind];

export type SessionSummary = z.infer<typeof SessionSummary>;
export type EndedSessionSummary = z.infer<typeof EndedSessionSummary>;
export type AgentSummary = z.infer<typeof AgentSummary>;

/**
 * An agent as a picker is given it: its own fields and nothing else a caller's object holds (a
 * choice's `rank` and `create`, a newer host's unknown keys); `description` only when asked for.
 */
export function agentSummaryOf(a: AgentSummary, o: { description?: boolean } = {}): AgentSummary {
  const { id, name, available, description, unavailable_reason, unavailable_words } = a;
  return { id, name, available, ...(o.description && description ? { description } : {}), ...(unavailable_reason ? { unavailable_reason } : {}), ...(unavailable_words ? { unavailable_words } : {}) };
}
export type PermissionRuleView = z.infer<typeof PermissionRuleView>;

export function hostMessage<K extends HostMessageKind>(kind: K, payload: HostPayload<K>): { kind: K; payload: HostPayload<K> } {
  return { kind, payload };
}

export function webviewMessage<K extends WebviewMessageKind>(kind: K, payload: WebviewPayload<K>): { kind: K; payload: WebviewPayload<K> } {
  return { kind, payload };
}

export type MessageParse<M> = { ok: true; message: M } | { ok: false; error: string };

function parseWith<M>(map: Record<string, z.ZodType>, raw: unknown, side: string): MessageParse<M> {
  try {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { ok: false, error: `${side} message must be an object` };
    const { kind, payload } = raw as { kind?: unknown; payload?: unknown };
    if (typeof kind !== 'string' || !Object.prototype.hasOwnProperty.call(map, kind)) return { ok: false, error: `unknown ${side} message kind ${JSON.stringify(kind)}` };
    const r = map[kind].safeParse(payload);
    if (!r.success) return { ok: false, error: `${side} message ${kind}: ${r.error.issues.map((i) => `${i.path.join('.') || '(payload)'}: ${i.message}`).join('; ')}` };
    return { ok: true, message: { kind, payload: r.data } as M };
  } catch (e) {
    // Hostile objects (throwing getters) must not throw across the boundary.
    return { ok: false, error: `${side} message could not be read: ${e instanceof Error ? e.message : String(e)}` };
  }
}

/** Validates what the webview received. Never throws. */
export function parseHostMessage(raw: unknown): MessageParse<HostMessage> {
  return parseWith<HostMessage>(HOST_TO_WEBVIEW, raw, 'host');
}

/** Validates what the host received from the webview. Never throws. */
export function parseWebviewMessage(raw: unknown): MessageParse<WebviewMessage> {
  return parseWith<WebviewMessage>(WEBVIEW_TO_HOST, raw, 'webview');
}
