// Where the host looks for agent CLIs, the same for the editor window and `rawp serve`
// (decision 380): the per-agent setting (`rawp.agents.<name>.path`, then the older
// RAWP_CLAUDE_PATH / RAWP_CODEX_PATH variables), this process's PATH, the login shell's PATH,
// then the common install folders. The PATH the agents then run with carries the same folders,
// so a `#!/usr/bin/env node` launcher found in an nvm folder finds its `node`.
import { delimiter } from 'node:path';
import { commonLocations } from './commonLocations';
import { loginShellPath, type LoginShellOptions, type LoginShellResult } from './loginShellEnv';

export { commonLocationCandidates, commonLocations } from './commonLocations';
export { loginShellPath, type LoginShellResult } from './loginShellEnv';

export interface DiscoveryOptions {
  env?: NodeJS.ProcessEnv;
  /** Ask the login shell (default true; `rawp serve` in a terminal already has its PATH, but a service may not). */
  loginShell?: boolean | LoginShellOptions;
}

export interface Discovery {
  /** Searched after PATH, in order (no duplicates of PATH's own folders). */
  fallbackDirs: string[];
  /** PATH for agent processes: this process's, then the fallback folders. */
  agentPath: string;
  /** What the login shell said (for the log). */
  loginShell?: LoginShellResult;
}

export async function discoverAgentDirs(o: DiscoveryOptions = {}): Promise<Discovery> {
  const env = o.env ?? process.env;
  const own = splitPath(env.PATH);
  const shell = o.loginShell === false ? undefined : await loginShellPath({ env, ...(typeof o.loginShell === 'object' ? o.loginShell : {}) });
  const fromShell = shell?.ok ? splitPath(shell.path) : [];
  const seen = new Set(own);
  const fallbackDirs: string[] = [];
  for (const d of [...fromShell, ...commonLocations({ env })]) {
    if (seen.has(d)) continue;
    seen.add(d);
    fallbackDirs.push(d);
  }
  return { fallbackDirs, agentPath: [...own, ...fallbackDirs].join(delimiter), ...(shell ? { loginShell: shell } : {}) };
}

function splitPath(p: string | undefined): string[] {
  return (p ?? '').split(delimiter).filter(Boolean);
}
