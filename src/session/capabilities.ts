// The client's own `session.capabilities` (§12.2.1): the agent's features plus what the engine
// adds — `adapter_type` (§17.4), `subagent_context` (§10.6: the engine fills it in for agents with
// subagents), and `max_frame_size`.
import type { AgentCapabilities, AgentInfo } from './agentAdapter';
import { PROTOCOL_VERSION } from '../protocol/envelope';
import type { PayloadOf } from '../protocol/frameTypes';

export function clientCapabilities(
  info: AgentInfo,
  agent: AgentCapabilities,
  options: { max_frame_size: number; file_search_fuzzy: boolean; structured_output?: boolean },
): PayloadOf<'session.capabilities'> {
  const features = { ...agent.features, adapter_type: info.adapter_type };
  if (features.subagent_context === undefined && features.subagent === true) features.subagent_context = true;
  // Fuzzy search is answered by the engine's search hook, not by the agent.
  if (options.file_search_fuzzy) features.file_search_fuzzy = true;
  else delete features.file_search_fuzzy;
  // §11: the engine validates structured answers for every agent when the host gave it a validator.
  if (options.structured_output) features.structured_output = true;
  const payload: PayloadOf<'session.capabilities'> = {
    protocol_version: PROTOCOL_VERSION,
    supported_namespaces: ['agent', 'tool', 'session', 'control'],
    features,
    max_frame_size: options.max_frame_size,
  };
  if (agent.extensions && Object.keys(agent.extensions).length > 0) payload.extensions = agent.extensions;
  return payload;
}
