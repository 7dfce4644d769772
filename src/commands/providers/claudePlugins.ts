// Claude Code plugin commands (slash-commands §2 `claude-plugins`, priority 70): the plugin roots
// listed in `~/.claude/plugins/installed_plugins.json`, each scanned at `<pluginRoot>/commands/*.md`,
// in the registry's own order (plugins as the JSON lists them, then each plugin's entries).
import { readTextOrUndefinedAsync } from '../../workspace/localFiles';
import { join, resolve } from 'node:path';
import type { CommandDiagnostic, CommandProvider, LoadContext, ProviderResult } from '../types';
import { loadDir } from './fileItems';

export interface PluginRoot {
  id: string;
  path: string;
  scope: 'user' | 'project';
}

export function pluginRegistryPath(home: string): string {
  return join(home, '.claude', 'plugins', 'installed_plugins.json');
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Plugin roots from the registry. Accepts the current format (`plugins: { id: [entry, …] }`) and
 * the older one (`plugins: { id: entry }`). A project-scoped install applies only when its
 * `projectPath` is one of the open workspace folders.
 */
export async function listPluginRoots(ctx: LoadContext): Promise<{ roots: PluginRoot[]; diagnostics: CommandDiagnostic[] }> {
  const file = pluginRegistryPath(ctx.home);
  const diagnostics: CommandDiagnostic[] = [];
  const text = await readTextOrUndefinedAsync(file);
  if (text === undefined) return { roots: [], diagnostics }; // no registry: no plugins, not an error
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    diagnostics.push({ severity: 'warning', provider: 'claude-plugins', path: file, message: `Failed to parse Claude Code plugin registry ${file}: ${(err as Error).message}`, reason: 'plugin_list', detail: 'not valid JSON' });
    return { roots: [], diagnostics };
  }
  if (!isRecord(data) || !isRecord(data.plugins)) {
    diagnostics.push({ severity: 'warning', provider: 'claude-plugins', path: file, message: `Claude Code plugin registry ${file} has no "plugins" object`, reason: 'plugin_list', detail: 'no "plugins" object' });
    return { roots: [], diagnostics };
  }
  const folders = new Set(ctx.workspaceFolders.map((f) => resolve(f)));
  const roots: PluginRoot[] = [];
  for (const [id, raw] of Object.entries(data.plugins)) {
    const entries = Array.isArray(raw) ? raw : [raw];
    for (const entry of entries) {
      if (!isRecord(entry) || typeof entry.installPath !== 'string' || !entry.installPath) {
        diagnostics.push({ severity: 'warning', provider: 'claude-plugins', path: file, message: `Plugin ${id} has an entry without installPath`, reason: 'plugin_list', detail: `plugin ${id} has no installPath` });
        continue;
      }
      const projectScoped = entry.scope === 'project' || entry.scope === 'local';
      if (projectScoped && typeof entry.projectPath === 'string' && !folders.has(resolve(entry.projectPath))) continue;
      roots.push({ id, path: entry.installPath, scope: projectScoped ? 'project' : 'user' });
    }
  }
  return { roots, diagnostics };
}

export function claudePluginsProvider(): CommandProvider {
  return {
    id: 'claude-plugins',
    displayName: 'Claude Code Plugin',
    priority: 70,
    async load(ctx): Promise<ProviderResult> {
      const { roots, diagnostics } = await listPluginRoots(ctx);
      const result: ProviderResult = { items: [], diagnostics };
      for (const root of roots) {
        const part = await loadDir(
          { dir: join(root.path, 'commands'), boundary: root.path, scope: root.scope, confined: false },
          { provider: 'claude-plugins', providerName: 'Claude Code Plugin', level: (s) => (s === 'user' ? 'user' : 'project') },
        );
        result.items.push(...part.items);
        result.diagnostics.push(...part.diagnostics);
      }
      return result;
    },
    async watchPaths(ctx) {
      const { roots } = await listPluginRoots(ctx);
      return [pluginRegistryPath(ctx.home), ...roots.map((r) => join(r.path, 'commands'))];
    },
  };
}
