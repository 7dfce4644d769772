// The environment a tool command (Bash) runs with: the host's, minus every variable that looks
// like a credential (issue 12 finding 11, docs/decisions/181-tool-environment.md). The host holds
// API keys for the agents it starts (ANTHROPIC_API_KEY, OPENAI_API_KEY, RAWP_TOKEN, …); a command
// an agent runs must not be able to print them, or send them anywhere. The rule of what is a secret
// is src/workspace/secretEnv.ts's, shared with every other child we start (decision 555).
import { isSecretVariable } from '../../workspace/secretEnv';

/** A copy of `env` without variables that look like credentials, by name or by value. */
export function toolEnvironment(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && !isSecretVariable(k, v)) out[k] = v;
  return out;
}
