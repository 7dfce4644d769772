// What the Codex adapter announces (§12.2.1, §17.4, §18.1), shared by the live adapter and
// `rawp convert --from codex`. Codex prints whole items (no token deltas, no command output while
// it runs), so tool_streaming is false; plan/review run in the read-only sandbox, so plan_mode.
import type { AgentCapabilities, AgentInfo } from '../../session/agentAdapter';
import { CODEX_RESUME_FLAG } from './args';
import { CODEX_ATTACHMENTS } from './attachments';

export const CODEX_INFO: AgentInfo = {
  id: 'codex',
  displayName: 'Codex',
  adapter_type: 'process',
  single_turn_process: true,
  resume_flag: CODEX_RESUME_FLAG,
};

export function codexCapabilities(threadId?: string): AgentCapabilities {
  return {
    features: { adapter_type: 'process', thinking_stream: true, tool_streaming: false, plan_mode: true, context_compaction: false, subagent: false, structured_output: false, file_reference: true },
    extensions: { single_turn_process: true, resume_flag: CODEX_RESUME_FLAG, ...(threadId ? { agent_session_id: threadId } : {}) },
    // §11: `--output-schema FILE` asks the model for the shape; Codex has no step cap (the engine's).
    native_overrides: { json_schema: true },
    attachments: CODEX_ATTACHMENTS,
  };
}
