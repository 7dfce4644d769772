// §17.2.1: the environment every process-based agent gets, on top of the caller's environment.
// The caller's environment goes through whole (agents need their own keys: ANTHROPIC_API_KEY,
// OPENAI_API_KEY, CODEX_API_KEY, GEMINI_API_KEY, cloud credentials, …), except the secrets that
// are ours: `rawp serve`'s bearer token and our own API keys are no business of the agent's, and
// every shell command the agent runs would inherit them (decision 542).
import { PROTOCOL_VERSION } from '../../protocol/envelope';
import { isSecretName } from '../../tools/shell/toolEnvironment';

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
 * A secret of ours: a `RAWP_` variable whose name the tool environment's rule calls a secret
 * (RAWP_TOKEN, RAWP_OPENAI_API_KEY, and any such variable added later). The rule, not a list, so
 * a new one cannot be forgotten here; RAWP_CLAUDE_PATH and the like are no secrets and stay.
 */
export function isOurSecret(name: string): boolean {
  return /^RAWP_/i.test(name) && isSecretName(name);
}

/**
 * `base` without our secrets: what every agent CLI we start gets, for a session (childEnv) or for
 * its `--version` probe at detection (decision 550), which has no session to describe.
 */
export function withoutOurSecrets(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(base)) if (!isOurSecret(k)) env[k] = v;
  return env;
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
