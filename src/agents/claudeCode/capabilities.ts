// What Claude Code can do, as announced in `session.capabilities` (§12.2.1, §17.4).
import type { AgentCapabilities, AgentInfo } from '../../session/agentAdapter';

/** The tool Claude Code adds with --json-schema; the model calls it with the answer (§11). */
export const STRUCTURED_OUTPUT_TOOL = 'StructuredOutput';
import { CLAUDE_ATTACHMENTS, CLAUDE_ONESHOT_ATTACHMENTS } from './attachments';

export const CLAUDE_CODE_INFO: AgentInfo = {
  id: 'claude-code',
  displayName: 'Claude Code',
  // One long-lived process driven like an SDK: permission callbacks (§17.3.1), subagents with
  // context (§10), interrupts. The §17.2 process contract (env, exit codes, stop) applies as well.
  adapter_type: 'sdk',
};

/** The §18 fallback: one `claude -p` process per prompt, resumed with `--resume {session_id}`. */
export const CLAUDE_CODE_ONESHOT_INFO: AgentInfo = {
  id: 'claude-code-oneshot',
  displayName: 'Claude Code (one process per prompt)',
  adapter_type: 'process',
  single_turn_process: true,
  resume_flag: '--resume {session_id}',
};

export function claudeCapabilities(agentSessionId: string | undefined, oneShot = false): AgentCapabilities {
  const caps: AgentCapabilities = {
    features: {
      thinking_stream: true,
      // Bash output and subagent progress are relayed as tool.invoke.stream.
      tool_streaming: true,
      subagent: true,
      subagent_context: true,
      context_compaction: !oneShot,
      plan_mode: true,
      // §16.3: tokens become Claude's own `@path` mentions (promptText, CLAUDE_MENTIONS).
      file_reference: true,
    },
    attachments: oneShot ? CLAUDE_ONESHOT_ATTACHMENTS : CLAUDE_ATTACHMENTS,
  };
  // --json-schema and --max-turns: the CLI validates and caps itself (the engine validates again).
  caps.native_overrides = { json_schema: true, max_turns: true, structured_output_tool: STRUCTURED_OUTPUT_TOOL };
  if (agentSessionId) caps.extensions = { agent_session_id: agentSessionId };
  return caps;
}
