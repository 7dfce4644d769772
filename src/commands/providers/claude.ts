// Claude Code commands (slash-commands §2 `claude`, priority 80): `~/.claude/commands/*.md` then
// `<workspace>/.claude/commands/*.md`; user items come first, so the user's command wins a clash.
import { join } from 'node:path';
import type { CommandProvider, LoadContext } from '../types';
import { loadDirs, watchTargets, type DirSpec } from './fileItems';

function dirs(ctx: LoadContext): DirSpec[] {
  return [
    { dir: join(ctx.home, '.claude', 'commands'), boundary: ctx.home, scope: 'user', confined: false },
    ...ctx.workspaceFolders.map((ws) => ({ dir: join(ws, '.claude', 'commands'), boundary: ws, scope: 'project' as const, confined: true })),
  ];
}

export function claudeProvider(): CommandProvider {
  return {
    id: 'claude',
    displayName: 'Claude Code',
    priority: 80,
    load: (ctx) => loadDirs(dirs(ctx), { provider: 'claude', providerName: 'Claude Code', level: (s) => (s === 'user' ? 'user' : 'project') }),
    watchPaths: (ctx) => watchTargets(dirs(ctx)),
  };
}
