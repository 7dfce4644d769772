// Which environment variables are secrets, and an environment without ours: the one rule every
// child process we start is filtered by. It lives here, in the lowest layer that starts a process
// (the @ index's `git`), so that layer and every one above it (tools, agents, host) share it
// instead of copying it (decision 555). Bash tool commands drop every secret (decision 181); agent
// CLIs, agent discovery's login shell and `git` drop ours (decisions 542, 550, 555).

/**
 * Names that are credentials by convention: *_API_KEY, *_TOKEN (NPM_TOKEN, PYPI_APITOKEN,
 * NPM_CONFIG__AUTHTOKEN), *_SECRET, *_PASSWORD, *_PWD (MYSQL_PWD, never PWD itself), *_PAT
 * (GITHUB_PAT), *_DSN (SENTRY_DSN), *_SK (STRIPE_SK), *_PEM, …
 */
const SECRET_SUFFIX = /(?:(?:^|_)(?:API_?KEY|APIKEY|SECRET|SECRET_KEY|PASSWORD|PASSWD|PASS|CREDENTIALS?|PRIVATE_KEY|ACCESS_KEY|ACCESS_KEY_ID|SESSION_KEY|AUTH_KEY|AUTH|BEARER|COOKIE|KEY)|_(?:PWD|PAT|DSN|SK|PEM)|TOKEN)$/i;
/** Names that hold a secret without the suffix (URLs with passwords in them, agent CLIs' OAuth, webhooks). */
const SECRET_ANYWHERE = /(?:SECRET|PASSWORD|PASSWD|API_?KEY|CREDENTIAL|PRIVATE_KEY|_TOKEN_|ACCESS_TOKEN|AUTH_?TOKEN|WEBHOOK|AUTH_CONFIG)/i;
/**
 * A value that carries a credential whatever its name: a URL with a password or a long user part
 * (`postgres://u:pw@h/db`, `redis://:pw@h`, `https://<token>@host`) — DATABASE_URL, REDIS_URL,
 * MONGODB_URI and the like, whose names alone are no secret (API_URL is not).
 */
const SECRET_URL = /^[a-z][a-z0-9+.-]*:\/\/(?:[^/?#@\s]*:[^/?#@\s]*|[^/?#@:\s]{16,})@/i;

/** Variables kept although they match: they name sockets or files, not secrets. */
const KEEP = new Set(['SSH_AUTH_SOCK', 'GPG_AGENT_INFO', 'KEYTIMEOUT']);

/** True when the variable `name` looks like a credential (and so should not reach a tool command). */
export function isSecretName(name: string): boolean {
  if (KEEP.has(name.toUpperCase())) return false;
  return SECRET_SUFFIX.test(name) || SECRET_ANYWHERE.test(name);
}

/** True when the variable is a credential by its name, or by its value (a URL with credentials in it). */
export function isSecretVariable(name: string, value: string | undefined): boolean {
  return isSecretName(name) || (value !== undefined && SECRET_URL.test(value));
}

/**
 * A secret of ours: a `RAWP_` variable whose name the rule above calls a secret (RAWP_TOKEN,
 * RAWP_OPENAI_API_KEY, and any such variable added later). The rule, not a list, so a new one
 * cannot be forgotten here; RAWP_CLAUDE_PATH and the like are no secrets and stay.
 */
export function isOurSecret(name: string): boolean {
  return /^RAWP_/i.test(name) && isSecretName(name);
}

/**
 * `base` without our secrets: what every child process we start gets unless it builds its
 * environment from scratch. Agent CLIs (sessions through childEnv, the `--version` probe), agent
 * discovery's login shell, the @ index's `git`. Everything else passes: those children need the
 * user's own keys, HOME and PATH.
 */
export function withoutOurSecrets(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(base)) if (!isOurSecret(k)) env[k] = v;
  return env;
}
