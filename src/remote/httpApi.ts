// The plain-HTTP endpoints of our control-plane profile (health, session list/create/delete and
// continue, the host's permission rules) and
// the browser master's page and bundle. Requests arrive here already past the gate.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import type { SessionRegistry } from '../session/registry';
import type { PermissionRule } from '../session/permissions';
import { firstExistingFile, readServedFile } from '../workspace/localFiles';
import { browserPage, newNonce, pageHeaders } from './browserPage';
import { healthBody, type Route } from './controlPlane';
import { handleFile, type FileEndpoint } from './fileApi';
import { RefusedRequest } from './serverLimits';
import { cleanSessionName, SESSION_NAME_MAX } from '../protocol/sessionName';
import { agentSummaryOf, type AgentSummary, type EndedSessionSummary } from '../protocol/webviewMessages';

const MAX_BODY_BYTES = 64 * 1024;
const CONTENT_TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.ttf': 'font/ttf' };

export const CreateSessionBody = z.strictObject({
  agent: z.string().min(1).max(500).optional(),
  name: z.string().min(1).max(SESSION_NAME_MAX).refine((n) => cleanSessionName(n) !== '', 'the name has no visible characters').optional(),
});
export type CreateSessionRequest = z.infer<typeof CreateSessionBody>;

export const SwitchAgentBody = z.strictObject({ agent: z.string().min(1).max(500) });

/**
 * POST /v1/sessions/{id}/continue (decision 630): no body (or `{}`); the ended session is the path's.
 * The answer: the new session, the ended one it goes on from, and whether the agent was asked to
 * resume its conversation (§18.3; false: the session ended before the agent named it).
 */
export const ContinueSessionBody = z.strictObject({});
export const ContinueSessionAnswer = z.strictObject({ session_id: z.string().min(1), continued_from: z.string().min(1), resumed: z.boolean() });
export type ContinueSessionAnswer = z.infer<typeof ContinueSessionAnswer>;
/**
 * POST /v1/sessions/{id}/continue as the server's owner gives it (decision 641): `within` (the
 * session cap) wraps only the start of a NEW session, so a continuation asked for again is given
 * again (200) on a host at its cap, and a twin waiting for it is not counted as a session.
 */
export type ContinueWithinCap = (session_id: string, within: <T>(make: () => Promise<T>) => Promise<T>) => Promise<(ContinueSessionAnswer & { created: boolean }) | undefined>;
/** What the host did with a master's agent pick (SessionHost.switchAgent, decision 361). */
export type AgentSwitchResult = { kind: 'unchanged' | 'replaced' | 'has_history'; session_id: string };

export interface HttpApiContext {
  registry: SessionRegistry;
  /** POST /v1/sessions; without it creating sessions remotely is not offered (501). */
  createSession?: (request: CreateSessionRequest) => Promise<{ session_id: string }>;
  deleteSession?: (session_id: string) => Promise<boolean>;
  /** GET /v1/permission-rules: every rule of the host's one store. Absent: 501. */
  permissionRules?: () => readonly PermissionRule[];
  /** GET /v1/agents: the host's agents. Absent: 501. */
  agents?: () => readonly AgentSummary[];
  /**
   * POST /v1/sessions/{id}/continue: the host's continuation of an ended shared session; `created`
   * false when an earlier request's continuation is given again; undefined when there is no such
   * ended session. Absent: 501.
   */
  continueSession?: (session_id: string) => Promise<(ContinueSessionAnswer & { created: boolean }) | undefined>;
  /** GET /v1/sessions' `ended`: the shared sessions an error ended that can still be continued (decision 646). */
  endedSessions?: () => readonly EndedSessionSummary[];
  /** POST /v1/sessions/{id}/agent: the host's agent switch. Absent: 501. */
  switchAgent?: (session_id: string, agent: string) => Promise<AgentSwitchResult>;
  /** GET/PUT /v1/files/{id} (§4.5.1): the host's file store. Absent: 501. */
  files?: FileEndpoint;
  /** Folders searched for webview.js / webview.css, first hit wins. */
  assetDirs: string[];
  /** ws:// or wss:// origin of this request's host, for the page's CSP. */
  wsOrigin: (req: IncomingMessage) => string;
}

export async function handleHttp(req: IncomingMessage, res: ServerResponse, r: Route, ctx: HttpApiContext): Promise<void> {
  switch (r.kind) {
    case 'health':
      return json(res, 200, healthBody());
    case 'sessions':
      if (req.method === 'POST') return createSession(req, res, ctx);
      return json(res, 200, {
        sessions: ctx.registry
          .list({ sharedOnly: true })
          .map(({ session_id, name, agent, state, created_at }) => ({ session_id, name, agent, state, created_at })),
        // What a master can POST …/continue, also after a restart of the host (decision 646).
        ...(ctx.endedSessions ? { ended: ctx.endedSessions() } : {}),
      });
    case 'session': {
      const shared = ctx.registry.list({ sharedOnly: true }).some((s) => s.session_id === r.session_id);
      if (!shared) return json(res, 404, { error: `no shared session ${r.session_id}` });
      // §7.5.3 clean-up, then session.deleted, then the connections close (the registry and hub).
      if (ctx.deleteSession) await ctx.deleteSession(r.session_id);
      else await ctx.registry.delete(r.session_id, 'master_request', 'master');
      res.writeHead(204).end();
      return;
    }
    case 'agents':
      if (!ctx.agents) return json(res, 501, { error: 'this host lists no agents' });
      return json(res, 200, { agents: ctx.agents().map((a) => agentSummaryOf(a)) });
    case 'session_agent':
      return switchAgent(req, res, r.session_id, ctx);
    case 'session_continue':
      return continueSession(req, res, r.session_id, ctx);
    case 'permission_rules':
      if (!ctx.permissionRules) return json(res, 501, { error: 'this host lists no permission rules' });
      return json(res, 200, { rules: ctx.permissionRules() });
    case 'file':
      return handleFile(req, res, r, ctx);
    case 'stream':
      return json(res, 426, { error: 'this endpoint is a WebSocket: send an Upgrade request' }, { upgrade: 'websocket' });
    case 'browser': {
      const nonce = newNonce();
      res.writeHead(200, pageHeaders(nonce, ctx.wsOrigin(req)));
      res.end(browserPage(nonce, { hasCss: firstExistingFile(ctx.assetDirs, 'webview.css') !== undefined }));
      return;
    }
    case 'browser_asset': {
      const file = firstExistingFile(ctx.assetDirs, r.name);
      if (!file) return json(res, 404, { error: `${r.name} is not built (run npm run build)` });
      res.writeHead(200, {
        'content-type': CONTENT_TYPES[r.name.slice(r.name.lastIndexOf('.'))] ?? 'application/octet-stream',
        'x-content-type-options': 'nosniff',
        // Only this origin's page may load it: a page elsewhere could include the script to learn
        // that rawp listens on this port (the trial of 2026-12-05).
        'cross-origin-resource-policy': 'same-origin',
        'cache-control': 'no-cache',
      });
      res.end(readServedFile(file));
      return;
    }
    case 'not_found':
      return json(res, 404, { error: 'not found' });
  }
}

async function createSession(req: IncomingMessage, res: ServerResponse, ctx: HttpApiContext): Promise<void> {
  if (!ctx.createSession) return json(res, 501, { error: 'this host does not create sessions on request' });
  let body: unknown;
  try {
    const text = await readBody(req);
    body = text.trim() === '' ? {} : JSON.parse(text);
  } catch (e) {
    return answerUnread(req, res, 400, { error: `request body: ${(e as Error).message}` });
  }
  const parsed = CreateSessionBody.safeParse(body);
  if (!parsed.success) return json(res, 400, { error: `request body: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}` });
  try {
    const { session_id } = await ctx.createSession(parsed.data);
    return json(res, 201, { session_id });
  } catch (e) {
    // The host at its session cap (serverLimits.ts): its own status and words.
    if (e instanceof RefusedRequest) return json(res, e.status, { error: `could not create the session: ${e.message}` }, e.headers);
    return json(res, 400, { error: `could not create the session: ${(e as Error).message}` });
  }
}

/** POST /v1/sessions/{id}/agent `{ agent }` (decision 361): 200 `{ kind, session_id }`. */
async function switchAgent(req: IncomingMessage, res: ServerResponse, session_id: string, ctx: HttpApiContext): Promise<void> {
  if (!ctx.switchAgent) return json(res, 501, { error: 'this host does not switch agents' });
  if (!ctx.registry.list({ sharedOnly: true }).some((s) => s.session_id === session_id)) return json(res, 404, { error: `no shared session ${session_id}` });
  let body: z.infer<typeof SwitchAgentBody>;
  try {
    const parsed = SwitchAgentBody.safeParse(JSON.parse(await readBody(req)));
    if (!parsed.success) return json(res, 400, { error: 'expected {"agent": "<agent id>"}' });
    body = parsed.data;
  } catch (e) {
    return answerUnread(req, res, 400, { error: e instanceof Error ? e.message : 'invalid body' });
  }
  try {
    return json(res, 200, await ctx.switchAgent(session_id, body.agent));
  } catch (e) {
    return json(res, 400, { error: e instanceof Error ? e.message : String(e) });
  }
}

/** POST /v1/sessions/{id}/continue (decision 630): 201 (or 200, given again) `{ session_id, continued_from, resumed }`. */
async function continueSession(req: IncomingMessage, res: ServerResponse, session_id: string, ctx: HttpApiContext): Promise<void> {
  if (!ctx.continueSession) return json(res, 501, { error: 'this host does not continue sessions' });
  try {
    const text = await readBody(req);
    if (!ContinueSessionBody.safeParse(text.trim() === '' ? {} : JSON.parse(text)).success) return json(res, 400, { error: 'expected no body, or {}' });
  } catch (e) {
    return answerUnread(req, res, 400, { error: `request body: ${(e as Error).message}` });
  }
  // §18.2: a session that runs is not ended; it is prompted, not continued.
  if (ctx.registry.list({ sharedOnly: true }).some((s) => s.session_id === session_id)) return json(res, 409, { error: `session ${session_id} has not ended` });
  try {
    const c = await ctx.continueSession(session_id);
    if (!c) return json(res, 404, { error: `no ended shared session ${session_id} to continue` });
    return json(res, c.created ? 201 : 200, ContinueSessionAnswer.parse({ session_id: c.session_id, continued_from: c.continued_from, resumed: c.resumed }));
  } catch (e) {
    if (e instanceof RefusedRequest) return json(res, e.status, { error: `could not continue the session: ${e.message}` }, e.headers);
    return json(res, 400, { error: `could not continue the session: ${(e as Error).message}` });
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        // Not destroyed: that reset the connection before the 400 was written (the client saw a
        // hang-up). The rest is never read; answerUnread closes the connection after the answer.
        req.off('data', onData);
        req.pause();
        reject(new Error(`larger than ${MAX_BODY_BYTES} bytes`));
        return;
      }
      chunks.push(c);
    };
    req.on('data', onData);
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/**
 * An answer that may come before the request's body was read (a refusal): the connection closes
 * after it, so an unread (maybe endless) body is never consumed, and the client still sees the
 * status. The socket is taken now, from the response when the request has none: a request whose
 * body stream was destroyed (a store that stopped reading mid-body) has `req.socket` null, and a
 * timer that throws ends the process (no handler's catch-all is around it).
 */
export function answerUnread(req: IncomingMessage, res: ServerResponse, status: number, body: unknown): void {
  const socket = req.socket ?? res.socket;
  json(res, status, body, req.readableEnded ? {} : { connection: 'close' });
  if (!req.readableEnded) res.once('finish', () => setTimeout(() => socket?.destroy(), 50).unref());
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers });
  res.end(text);
}
