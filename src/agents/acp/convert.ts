// `rawp convert --from acp`: a captured ACP conversation — the JSON-RPC messages of both
// directions, one per line, either bare or wrapped as {"direction": "client->agent" |
// "agent->client", "message": {…}} (what the adapter's `trace` hook writes) — -> DPS frames through
// the live adapter's translator. Bare responses are matched to the side whose request has that id
// (both sides number from 0, so the open requests of both are tracked).
import { FrameWriter } from '../convert/frameWriter';
import { jsonLines, registerConverter, type ConvertOptions, type ConvertResult } from '../convert/registry';
import type { AgentCapabilities, AgentEvent } from '../../session/agentAdapter';
import { capturedPermissionRequest, type AcpPermissionOption } from './permission';
import { newId } from '../../protocol/build';
import { describeIssues } from '../../protocol/parse';
import { AcpUpdateTranslator } from './updates';
import { usageFromPromptResponse } from './usage';
import { z } from 'zod';


/** One JSON-RPC 2.0 message (request, notification or response), read loosely. */
const RpcMessage = z.looseObject({
  id: z.union([z.string(), z.number()]).nullish(),
  method: z.string().optional(),
  params: z.record(z.string(), z.unknown()).nullish(),
  result: z.unknown().optional(),
  error: z.looseObject({ message: z.unknown().optional(), data: z.unknown().optional() }).nullish(),
});
/** A captured line: a bare message, or `{ direction, message }` as the adapter's trace writes it. */
const TracedMessage = z.looseObject({ direction: z.enum(['client->agent', 'agent->client']), message: RpcMessage });
const InitializeResult = z.looseObject({ agentInfo: z.looseObject({ name: z.string().optional(), version: z.string().optional() }).nullish() });
const SessionResult = z.looseObject({ sessionId: z.string().optional(), modes: z.looseObject({ availableModes: z.array(z.looseObject({ id: z.string() })).optional(), currentModeId: z.string().optional() }).nullish() });
const PromptResult = z.looseObject({ stopReason: z.string().optional() });
const PermissionParams = z.looseObject({ options: z.array(z.looseObject({ optionId: z.string(), name: z.string(), kind: z.string() })).catch([]), toolCall: z.unknown().optional() });
type Side = 'client' | 'agent';

const CLIENT_METHODS = new Set(['initialize', 'authenticate', 'session/new', 'session/load', 'session/prompt', 'session/cancel', 'session/set_mode', 'session/set_model', 'session/set_config_option', 'session/list', 'session/resume', 'session/close']);

const STOP: Record<string, 'end_turn' | 'max_tokens' | 'cancelled'> = { end_turn: 'end_turn', max_tokens: 'max_tokens', max_turn_requests: 'max_tokens', refusal: 'end_turn', cancelled: 'cancelled' };

function capabilities(sessionId: string | undefined, agent: { name?: string; version?: string } | undefined, modes: string[]): AgentCapabilities {
  return {
    features: { adapter_type: 'process', thinking_stream: true, tool_streaming: true, plan_mode: modes.includes('plan'), subagent: false, structured_output: false },
    extensions: { ...(sessionId ? { agent_session_id: sessionId } : {}), acp: { agent: agent?.name, version: agent?.version, modes } },
  };
}

export function convertAcp(lines: Iterable<string>, options: ConvertOptions = {}): ConvertResult {
  let sessionId: string | undefined;
  let agentInfo: { name?: string; version?: string } | undefined;
  let modes: string[] = [];
  // The writer's fallback opening reads the translator, which emits into the writer.
  const writer: FrameWriter = new FrameWriter({
    info: { adapter_type: 'process' },
    session_id: options.session_id,
    fallbackOpening: () => ({ capabilities: capabilities(sessionId, agentInfo, modes), tools: t.catalog, commands: t.commands }),
  });
  const t: AcpUpdateTranslator = new AcpUpdateTranslator({ emit: (e: AgentEvent) => writer.event(e), roots: options.workspacePath ? [options.workspacePath] : [], session_id: writer.session_id, toolStreaming: true });

  const warnings: ConvertResult['warnings'] = [];
  /** Requests still waiting for an answer, per side that sent them: id -> method (+ extra). */
  const pending: Record<Side, Map<string, { method: string }>> = { client: new Map(), agent: new Map() };
  let cancelled = false;
  let opened = false;

  const open = () => {
    if (opened) return;
    opened = true;
    writer.open({ capabilities: capabilities(sessionId, agentInfo, modes), tools: t.catalog.map((t) => ({ ...t })), commands: t.commands });
    t.goLive(t.commands);
  };

  for (const { line, value } of jsonLines(lines, warnings)) {
    const wrapped = TracedMessage.safeParse(value).data;
    const bare = wrapped ? undefined : RpcMessage.safeParse(value);
    if (bare && !bare.success) {
      warnings.push({ line, message: `not a JSON-RPC message: ${describeIssues(bare.error)}` });
      continue;
    }
    const msg = wrapped ? wrapped.message : bare!.data!;
    const stated: Side | undefined = wrapped ? (wrapped.direction === 'client->agent' ? 'client' : 'agent') : undefined;
    const id = msg.id === undefined || msg.id === null ? undefined : String(msg.id);
    const method = msg.method;

    if (method) {
      const from: Side = stated ?? (CLIENT_METHODS.has(method) ? 'client' : 'agent');
      const params = msg.params ?? {};
      if (from === 'client') {
        if (id !== undefined) pending.client.set(id, { method });
        if (method === 'session/prompt') {
          open();
          cancelled = false;
          writer.startTurn();
          t.beginTurn();
        } else if (method === 'session/cancel') cancelled = true;
        continue;
      }
      if (method === 'session/update') {
        if (!opened && sessionId) open();
        t.update(params.update);
        continue;
      }
      if (method === 'session/request_permission') {
        const options: AcpPermissionOption[] = PermissionParams.parse(params).options;
        const call = t.callForPermission(params.toolCall);
        const ask = capturedPermissionRequest({ tool_name: call.tool_name, title: call.title, input: call.input, paths: call.paths }, options, newId());
        writer.event({ type: 'agent.interaction.request', payload: ask });
        if (id !== undefined) pending.agent.set(id, { method });
        continue;
      }
      if (id !== undefined) pending.agent.set(id, { method });
      continue;
    }

    if (id === undefined) {
      warnings.push({ line, message: 'neither a request, a notification nor a response' });
      continue;
    }
    // A response: it answers the other side's request with this id.
    const answers: Side | undefined = stated ? (stated === 'client' ? 'agent' : 'client') : pickSide(pending, id, msg);
    const req = answers ? pending[answers].get(id) : undefined;
    if (!answers || !req) {
      warnings.push({ line, message: `response to an unknown request id ${id}` });
      continue;
    }
    pending[answers].delete(id);
    const result = msg.result ?? undefined;
    const error = msg.error ?? undefined;
    switch (req.method) {
      case 'initialize':
        agentInfo = InitializeResult.safeParse(result).data?.agentInfo ?? agentInfo;
        break;
      case 'session/new':
      case 'session/load': {
        const r = SessionResult.safeParse(result).data;
        if (req.method === 'session/new' && r?.sessionId) sessionId = r.sessionId;
        if (r?.modes?.availableModes) modes = r.modes.availableModes.map((x) => x.id);
        if (r?.modes?.currentModeId) t.modeId = r.modes.currentModeId;
        break;
      }
      case 'session/request_permission':
        // The user's answer was a master's control frame, not part of the agent's stream: the
        // tool call's result shows what was decided.
        break;
      case 'session/prompt': {
        if (!writer.inTurn) break;
        if (error) {
          t.endTurn(cancelled ? 'cancelled' : 'error');
          if (!cancelled) writer.event({ type: 'agent.error', payload: { error_code: 'ACP_PROMPT_FAILED', message: `${String(error.message ?? 'error')}${detail(error.data)}`, severity: 'error', recoverable: true, details: { module: 'acp' } } });
          writer.endTurn({ stop_reason: cancelled ? 'cancelled' : 'error' });
          break;
        }
        const stop = cancelled ? 'cancelled' : (STOP[PromptResult.safeParse(result).data?.stopReason ?? ''] ?? 'end_turn');
        t.endTurn(stop === 'cancelled' ? 'cancelled' : 'ended');
        writer.endTurn({ stop_reason: stop, usage: { ...(usageFromPromptResponse(result) ?? { input_tokens: 0, output_tokens: 0 }), ...t.turnUsage() }, ...(sessionId ? { agent_session_id: sessionId } : {}) });
        break;
      }
      default:
        break;
    }
  }
  if (writer.inTurn) t.endTurn('error');
  return { frames: writer.finish(), warnings };
}

/** Which side's open request a bare response answers: the only candidate, or by the result's shape. */
function pickSide(pending: Record<Side, Map<string, { method: string }>>, id: string, msg: z.infer<typeof RpcMessage>): Side | undefined {
  const c = pending.client.get(id);
  const a = pending.agent.get(id);
  if (c && !a) return 'client';
  if (a && !c) return 'agent';
  if (!a || !c) return undefined;
  // Both sides wait on this id: the client's request has a known answer shape.
  if (!('result' in msg)) return 'client';
  const r = z.record(z.string(), z.unknown()).catch({}).parse(msg.result);
  const shape: Record<string, string> = { 'session/prompt': 'stopReason', 'session/new': 'sessionId', initialize: 'protocolVersion' };
  const key = shape[c.method];
  return key === undefined || key in r ? 'client' : 'agent';
}

function detail(data: unknown): string {
  const d = (data as { details?: unknown } | null)?.details;
  return typeof d === 'string' ? `: ${d}` : '';
}

registerConverter({ id: 'acp', input: 'ACP JSON-RPC messages of both directions, one per line (bare, or {direction, message} as the adapter traces them)', convert: convertAcp });
