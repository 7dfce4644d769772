// `rawp convert --from gemini`: captured `gemini -p … --output-format stream-json` stdout -> DPS
// frames. Lines (gemini-cli 0.61): `init` (session_id, model), `message` (role user = a prompt;
// assistant with `delta: true` = text chunks), `tool_use` / `tool_result` (tool_id pairs them),
// `error` (non-fatal), `result` (status, stats with token counts). Several runs may be appended.
// Tools keep gemini-cli's own names; the catalog classifies the known ones (§5.3.3).
import { newId } from '../../protocol/build';
import type { AgentCapabilities, CatalogTool, TurnOutcome } from '../../session/agentAdapter';
import { FrameWriter } from './frameWriter';
import { numberedLines, registerConverter, unreadableLine, type ConvertOptions, type ConvertResult } from './registry';

const GEMINI_INFO = { adapter_type: 'process' as const };

/** gemini-cli's built-in tools (names from its source), classified for §5.3.3. */
export const GEMINI_TOOLS: CatalogTool[] = [
  { name: 'read_file', description: 'Reads a file', category: 'filesystem', output_type: 'file_content' },
  { name: 'read_many_files', description: 'Reads several files', category: 'filesystem', output_type: 'file_content' },
  { name: 'write_file', description: 'Writes a file', category: 'filesystem', output_type: 'diff' },
  { name: 'replace', description: 'Replaces text in a file', category: 'filesystem', output_type: 'diff' },
  { name: 'list_directory', description: 'Lists a directory', category: 'filesystem', output_type: 'file_list' },
  { name: 'glob', description: 'Finds files by pattern', category: 'filesystem', output_type: 'file_list' },
  { name: 'grep_search', description: 'Searches file contents', category: 'search', output_type: 'text' },
  { name: 'run_shell_command', description: 'Runs a shell command', category: 'shell', output_type: 'text' },
  { name: 'web_fetch', description: 'Fetches web content', category: 'web', output_type: 'web_content' },
  { name: 'google_web_search', description: 'Searches the web', category: 'web', output_type: 'web_content' },
  { name: 'write_todos', description: 'Updates the todo list', category: 'task_management', output_type: 'structured' },
  { name: 'invoke_agent', description: 'Runs a subagent', category: 'agent', output_type: 'agent_result' },
  { name: 'enter_plan_mode', description: 'Enters plan mode', category: 'planning', output_type: 'text' },
  { name: 'exit_plan_mode', description: 'Leaves plan mode', category: 'planning', output_type: 'text' },
];

function capabilities(sessionId?: string, model?: string): AgentCapabilities {
  return {
    features: { adapter_type: 'process', thinking_stream: false, tool_streaming: false, plan_mode: false, subagent: false, structured_output: false },
    extensions: { agent: 'gemini-cli', ...(sessionId ? { agent_session_id: sessionId } : {}), ...(model ? { model } : {}) },
  };
}

type Json = Record<string, unknown>;

export function convertGemini(lines: Iterable<string>, options: ConvertOptions = {}): ConvertResult {
  const catalog = GEMINI_TOOLS.map((t) => ({ ...t }));
  let sessionId: string | undefined;
  const writer = new FrameWriter({ info: GEMINI_INFO, session_id: options.session_id, fallbackOpening: () => ({ capabilities: capabilities(sessionId), tools: catalog, commands: [] }) });
  const warnings: ConvertResult['warnings'] = [];
  const tools = new Map<string, { invocation_id: string; tool_name: string }>();
  let block: { index: number; text: string } | undefined;
  let blockIndex = 0;

  const closeText = () => {
    if (block) writer.event({ type: 'agent.text.done', payload: { content_index: block.index, full_text: block.text } });
    block = undefined;
  };
  const endTurn = (outcome: TurnOutcome) => {
    closeText();
    for (const [id, t] of tools) {
      tools.delete(id);
      writer.event({ type: 'tool.invoke.result', payload: { invocation_id: t.invocation_id, tool_name: t.tool_name, status: 'cancelled', output: 'No result before the run ended', output_type: outputTypeOf(t.tool_name) } });
    }
    writer.endTurn(outcome);
    blockIndex = 0;
  };
  const outputTypeOf = (name: string) => catalog.find((t) => t.name === name)?.output_type ?? 'text';

  for (const { line, text, length } of numberedLines(lines, warnings)) {
    const unreadable = unreadableLine(text, length);
    if (unreadable) {
      warnings.push({ line, message: unreadable });
      continue;
    }
    let v: Json;
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
      v = parsed as Json;
    } catch (e) {
      warnings.push({ line, message: `not a JSON object: ${(e as Error).message}` });
      continue;
    }
    switch (v.type) {
      case 'init':
        if (writer.inTurn) endTurn({ stop_reason: 'error' });
        sessionId ??= typeof v.session_id === 'string' ? v.session_id : undefined;
        writer.open({ capabilities: capabilities(sessionId, typeof v.model === 'string' ? v.model : undefined), tools: catalog, commands: [] });
        break;
      case 'message': {
        const content = typeof v.content === 'string' ? v.content : '';
        if (v.role === 'user') {
          if (writer.inTurn) endTurn({ stop_reason: 'end_turn' });
          writer.startTurn();
        } else if (v.role === 'assistant' && content) {
          if (!block) block = { index: blockIndex++, text: '' };
          block.text += content;
          writer.event({ type: 'agent.text.delta', payload: { content_index: block.index, text: content } });
          // A message without `delta` is a whole block.
          if (v.delta !== true) closeText();
        }
        break;
      }
      case 'tool_use': {
        closeText();
        const tool_name = typeof v.tool_name === 'string' && v.tool_name ? v.tool_name : 'unknown_tool';
        if (!catalog.some((t) => t.name === tool_name)) {
          catalog.push({ name: tool_name, description: `${tool_name} (gemini-cli)`, category: tool_name.startsWith('mcp_') ? 'mcp' : 'custom', output_type: 'text' });
          writer.publishCatalog(catalog.map((t) => ({ ...t })));
        }
        const invocation_id = newId();
        tools.set(String(v.tool_id ?? invocation_id), { invocation_id, tool_name });
        const input = typeof v.parameters === 'object' && v.parameters !== null && !Array.isArray(v.parameters) ? (v.parameters as Json) : {};
        writer.event({ type: 'tool.invoke.request', payload: { invocation_id, tool_name, input } });
        break;
      }
      case 'tool_result': {
        const t = tools.get(String(v.tool_id ?? ''));
        if (!t) {
          warnings.push({ line, message: `tool_result for unknown tool_id ${String(v.tool_id)}` });
          break;
        }
        tools.delete(String(v.tool_id));
        const err = v.error as { message?: unknown } | undefined;
        const output = typeof v.output === 'string' ? v.output : typeof err?.message === 'string' ? err.message : v.output !== undefined ? JSON.stringify(v.output) : '';
        writer.event({ type: 'tool.invoke.result', payload: { invocation_id: t.invocation_id, tool_name: t.tool_name, status: v.status === 'success' ? 'success' : 'error', output, output_type: outputTypeOf(t.tool_name) } });
        break;
      }
      case 'error': {
        const message = typeof v.message === 'string' ? v.message : JSON.stringify(v);
        writer.event({ type: 'agent.error', payload: { error_code: 'GEMINI_ERROR', message, severity: v.severity === 'error' ? 'error' : 'warning', recoverable: true, details: { module: 'gemini' } } });
        break;
      }
      case 'result': {
        if (!writer.inTurn) writer.startTurn();
        const ok = v.status === 'success';
        if (!ok) {
          const e = v.error as { message?: unknown; type?: unknown } | undefined;
          writer.event({ type: 'agent.error', payload: { error_code: 'GEMINI_RUN_FAILED', message: typeof e?.message === 'string' ? e.message : 'gemini reported an error', severity: 'error', recoverable: true, details: { module: 'gemini', ...(typeof e?.type === 'string' ? { type: e.type } : {}) } } });
        }
        const stats = (v.stats ?? {}) as Json;
        const n = (x: unknown) => (typeof x === 'number' && x >= 0 ? Math.floor(x) : 0);
        endTurn({ stop_reason: ok ? 'end_turn' : 'error', usage: { input_tokens: n(stats.input_tokens), output_tokens: n(stats.output_tokens), ...(typeof stats.cached === 'number' ? { cache_read_tokens: n(stats.cached) } : {}) }, ...(sessionId ? { agent_session_id: sessionId } : {}) });
        break;
      }
      default:
        warnings.push({ line, message: `unknown line type ${JSON.stringify(v.type)}` });
    }
  }
  if (writer.inTurn) closeText();
  return { frames: writer.finish(), warnings };
}

registerConverter({ id: 'gemini', input: 'gemini -p … --output-format stream-json stdout (JSON lines)', convert: convertGemini });
