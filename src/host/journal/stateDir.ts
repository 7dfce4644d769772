// Where a host keeps its sessions (docs/decisions/123): `rawp serve --state-dir DIR`, by default the
// user's state directory ($XDG_STATE_HOME/rawp, else ~/.local/state/rawp; %LOCALAPPDATA%\rawp\state
// on Windows). One folder per workspace below it, so two `rawp serve` on two projects never restore
// each other's sessions, and each can hold its own lock.
import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { basename, join, resolve } from 'node:path';

export function defaultStateDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home: string = homedir()): string {
  // XDG Base Directory spec: a relative XDG_STATE_HOME is invalid and must be ignored.
  const xdg = env.XDG_STATE_HOME;
  if (xdg && xdg.startsWith('/')) return join(xdg, 'rawp');
  if (platform === 'win32') return join(env.LOCALAPPDATA || join(home, 'AppData', 'Local'), 'rawp', 'state');
  return join(home, '.local', 'state', 'rawp');
}

/** The folder of one workspace's sessions inside a state directory. */
export function workspaceStateDir(stateDir: string, workspace: string): string {
  const abs = resolve(workspace);
  const readable = basename(abs).replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 40) || 'root';
  const hash = createHash('sha256').update(abs).digest('hex').slice(0, 12);
  return join(stateDir, 'workspaces', `${readable}-${hash}`);
}
