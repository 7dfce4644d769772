// ACP's `env_var` auth methods (initialize's `authMethods`, e.g. codex-acp's "Use CODEX_API_KEY":
// `{type:"env_var", id:"codex-api-key", vars:[{name:"CODEX_API_KEY"}]}`): the agent asks the client
// to pick one with `authenticate` even when the variable is already in its environment. When we
// started the agent with every variable such a method names (an API key the user saved for it,
// decision 440), that method is the user's choice, so the adapter authenticates with it.

export interface AcpEnvAuthMethod {
  id: string;
  vars: string[];
}

/** The first env_var method whose variables are all set (non-empty) in `env`, or undefined. */
export function envVarAuthMethod(authMethods: unknown, env: Record<string, string | undefined>): AcpEnvAuthMethod | undefined {
  if (!Array.isArray(authMethods)) return undefined;
  for (const m of authMethods) {
    if (typeof m !== 'object' || m === null) continue;
    const { type, id, vars } = m as { type?: unknown; id?: unknown; vars?: unknown };
    if (type !== 'env_var' || typeof id !== 'string' || !Array.isArray(vars) || vars.length === 0) continue;
    const names = vars.map((v) => (typeof v === 'object' && v !== null ? (v as { name?: unknown }).name : undefined));
    if (names.every((n): n is string => typeof n === 'string' && !!env[n])) return { id, vars: names as string[] };
  }
  return undefined;
}
