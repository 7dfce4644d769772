// §17.2.1: the environment every process-based agent gets, on top of the caller's environment.
// The caller's environment goes through whole (agents need their own keys: ANTHROPIC_API_KEY,
// OPENAI_API_KEY, CODEX_API_KEY, GEMINI_API_KEY, cloud credentials, …), except the secrets that
// are ours: `rawp serve`'s bearer token and our own API keys are no business of the agent's, and
// every shell command the agent runs would inherit them (decision 542).
import { PROTOCOL_VERSION } from '../../protocol/envelope';
import { withoutOurSecrets } from '../../workspace/secretEnv';

// The strip itself lives below every layer that starts a process (decision 555); re-exported for
// the agent-side callers (the `--version` probe, decision 550).
export { isOurSecret, withoutOurSecrets } from '../../workspace/secretEnv';

export interface RawpEnvInput {
  session_id: string;
  /** Absolute path of the workspace the agent works in. */
  workspacePath: string;
}

/** RAWP_SESSION_ID, RAWP_WORKSPACE_PATH, RAWP_DPS_VERSION (= rawp-dps-1.0). */
export function rawpEnv(input: RawpEnvInput): Record<string, string> {
  return {
    RAWP_SESSION_ID: input.session_id,
    RAWP_WORKSPACE_PATH: input.workspacePath,
    RAWP_DPS_VERSION: PROTOCOL_VERSION,
  };
}

/**
 * The full child environment: the base (default `process.env`) without our secrets, then the
 * agent's own variables (its config may set any, since it names the value itself), then the RAWP
 * variables last so an agent config can never spoof them.
 */
export function childEnv(input: RawpEnvInput, extra: Record<string, string | undefined> = {}, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env = withoutOurSecrets(base);
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return { ...env, ...rawpEnv(input) };
}
