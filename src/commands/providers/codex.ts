// Codex commands (slash-commands §2 `codex`, priority 70): `~/.codex/commands/*.md`, then
// `~/.codex/prompts/*.md` (where today's Codex keeps its custom prompts), then
// `<workspace>/.codex/commands/*.md`; flattened user-first, so a user command wins a clash.
// Frontmatter `name` overrides the file name.
import { join } from 'node:path';
import type { CommandProvider, LoadContext } from '../types';
import { loadDirs, watchTargets, type DirSpec } from './fileItems';

function dirs(ctx: LoadContext): DirSpec[] {
  return [
    { dir: join(ctx.home, '.codex', 'commands'), boundary: ctx.home, scope: 'user', confined: false },
    { dir: join(ctx.home, '.codex', 'prompts'), boundary: ctx.home, scope: 'user', confined: false },
    ...ctx.workspaceFolders.map((ws) => ({ dir: join(ws, '.codex', 'commands'), boundary: ws, scope: 'project' as const, confined: true })),
  ];
}

export function codexProvider(): CommandProvider {
  return {
    id: 'codex',
    displayName: 'Codex',
    priority: 70,
    load: (ctx) =>
      loadDirs(dirs(ctx), { provider: 'codex', providerName: 'Codex', level: (s) => (s === 'user' ? 'user' : 'project'), nameFromFrontmatter: true }),
    watchPaths: (ctx) => watchTargets(dirs(ctx)),
  };
}
