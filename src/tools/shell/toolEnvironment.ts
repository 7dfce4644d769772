// The environment a tool command (Bash) runs with: the host's, minus every variable that looks
// like a credential (issue 12 finding 11, docs/decisions/181-tool-environment.md). The host holds
// API keys for the agents it starts (ANTHROPIC_API_KEY, OPENAI_API_KEY, RAWP_TOKEN, …); a command
// an agent runs must not be able to print them, or send them anywhere.

/** Names that are credentials by convention: *_API_KEY, *_TOKEN, *_SECRET, *_PASSWORD, … */
const SECRET_SUFFIX = /(?:^|_)(?:API_?KEY|APIKEY|TOKEN|SECRET|SECRET_KEY|PASSWORD|PASSWD|PASS|CREDENTIALS?|PRIVATE_KEY|ACCESS_KEY|ACCESS_KEY_ID|SESSION_KEY|AUTH_KEY|AUTH|BEARER|COOKIE|KEY)$/i;
/** Names that hold a secret without the suffix (URLs with passwords in them, agent CLIs' OAuth). */
const SECRET_ANYWHERE = /(?:SECRET|PASSWORD|PASSWD|API_?KEY|CREDENTIAL|PRIVATE_KEY|_TOKEN_|ACCESS_TOKEN|AUTH_TOKEN)/i;

/** Variables kept although they match: they name sockets or files, not secrets. */
const KEEP = new Set(['SSH_AUTH_SOCK', 'GPG_AGENT_INFO', 'KEYTIMEOUT']);

/** True when the variable `name` should not reach a tool command. */
export function isSecretName(name: string): boolean {
  if (KEEP.has(name.toUpperCase())) return false;
  return SECRET_SUFFIX.test(name) || SECRET_ANYWHERE.test(name);
}

/** A copy of `env` without secret-looking variables. */
export function toolEnvironment(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && !isSecretName(k)) out[k] = v;
  return out;
}
