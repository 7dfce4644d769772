// The folders where agent CLIs end up on a developer's machine, searched after PATH and the login
// shell's PATH (decision 380 lists them and why). Only folders that exist are returned; nothing is
// run. The version managers' folders are their *shim* or current-version bin folders, plus every
// installed nvm Node version (newest first), because nvm has no shims.
import { join } from 'node:path';
import { listDirectoryNames, pathExists } from '../../workspace/localFiles';

export interface CommonLocationOptions {
  home?: string;
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
}

/** Every place we look, existing or not, in search order (documented in decision 380). */
export function commonLocationCandidates(o: CommonLocationOptions = {}): string[] {
  const env = o.env ?? process.env;
  const home = o.home ?? env.HOME ?? '';
  const platform = o.platform ?? process.platform;
  if (platform === 'win32') return [];
  const inHome = (...p: string[]) => (home ? [join(home, ...p)] : []);
  return dedupe([
    ...inHome('.claude', 'local'), // Claude Code's own "local" installer (`claude migrate-installer`)
    ...inHome('.local', 'bin'), // Claude Code's native installer, pipx, uv, mise's default
    ...(env.NPM_CONFIG_PREFIX ? [join(env.NPM_CONFIG_PREFIX, 'bin')] : []),
    ...inHome('.npm-global', 'bin'), // the npm docs' recommended user prefix
    ...inHome('.npm', 'bin'),
    ...(env.VOLTA_HOME ? [join(env.VOLTA_HOME, 'bin')] : inHome('.volta', 'bin')),
    ...(env.ASDF_DATA_DIR ? [join(env.ASDF_DATA_DIR, 'shims')] : inHome('.asdf', 'shims')),
    ...inHome('.local', 'share', 'mise', 'shims'),
    ...(env.PNPM_HOME ? [env.PNPM_HOME] : inHome('.local', 'share', 'pnpm')),
    ...inHome('.bun', 'bin'),
    ...inHome('.yarn', 'bin'),
    ...nvmBins(env.NVM_DIR ?? (home ? join(home, '.nvm') : '')),
    '/opt/homebrew/bin',
    '/usr/local/bin',
    '/usr/bin',
  ]);
}

/** The candidates that exist here. */
export function commonLocations(o: CommonLocationOptions = {}): string[] {
  return commonLocationCandidates(o).filter((d) => pathExists(d));
}

/** nvm's versions/node/<v>/bin folders, newest version first (nvm has no shim folder). */
function nvmBins(nvmDir: string): string[] {
  if (!nvmDir) return [];
  return listDirectoryNames(join(nvmDir, 'versions', 'node'))
    .filter((v) => /^v\d+\.\d+\.\d+$/.test(v))
    .sort((a, b) => compareVersions(b, a))
    .slice(0, 20)
    .map((v) => join(nvmDir, 'versions', 'node', v, 'bin'));
}

function compareVersions(a: string, b: string): number {
  const pa = a.slice(1).split('.').map(Number);
  const pb = b.slice(1).split('.').map(Number);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pa[i] - pb[i];
  return 0;
}

function dedupe(dirs: string[]): string[] {
  return [...new Set(dirs.filter(Boolean))];
}
