// §17.2.1: the environment every process-based agent gets, on top of the caller's environment.
import { PROTOCOL_VERSION } from '../../protocol/envelope';

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
 * The full child environment: the base (default `process.env`), then the agent's own variables,
 * then the RAWP variables last so an agent config can never spoof them.
 */
export function childEnv(input: RawpEnvInput, extra: Record<string, string | undefined> = {}, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base };
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return { ...env, ...rawpEnv(input) };
}
