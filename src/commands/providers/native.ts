// Our own commands (slash-commands §2 `native`, priority 100): `<workspace>/.rawp/commands/*.md`
// then `~/.rawp/commands/*.md`, so a project command beats a user command of the same name.
import { join } from 'node:path';
import type { CommandProvider, LoadContext } from '../types';
import { loadDirs, watchTargets, type DirSpec } from './fileItems';

export const NATIVE_DIR = '.rawp';

function dirs(ctx: LoadContext): DirSpec[] {
  return [
    ...ctx.workspaceFolders.map((ws) => ({ dir: join(ws, NATIVE_DIR, 'commands'), boundary: ws, scope: 'project' as const, confined: true })),
    { dir: join(ctx.home, NATIVE_DIR, 'commands'), boundary: ctx.home, scope: 'user' as const, confined: false },
  ];
}

export function nativeProvider(): CommandProvider {
  return {
    id: 'native',
    displayName: 'RAWP',
    priority: 100,
    load: (ctx) => loadDirs(dirs(ctx), { provider: 'native', providerName: 'RAWP', level: () => 'native' }),
    watchPaths: (ctx) => watchTargets(dirs(ctx)),
  };
}
