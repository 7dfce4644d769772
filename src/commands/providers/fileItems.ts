// Turns one scanned command directory into registry items, parsing frontmatter once so that its
// errors surface at load time with the right severity (slash-commands §3, §9).
import { FrontmatterError, parseFrontmatter } from '../frontmatter';
import { scanMarkdownDir } from '../../workspace/markdownDir';
import type { CommandLevel, CommandScope, ProviderResult, SlashCommandItem } from '../types';

export interface DirSpec {
  dir: string;
  /** Where `.gitignore` lookup stops (workspace folder, home, plugin root). */
  boundary: string;
  scope: CommandScope;
}

export interface ProviderIdentity {
  provider: string;
  providerName: string;
  level: (scope: CommandScope) => CommandLevel;
  /** Codex lets frontmatter `name` rename a command (slash-commands §2). */
  nameFromFrontmatter?: boolean;
}

export async function loadDir(spec: DirSpec, who: ProviderIdentity): Promise<ProviderResult> {
  const result: ProviderResult = { items: [], diagnostics: [] };
  const scan = await scanMarkdownDir(spec.dir, spec.boundary);
  for (const u of scan.unreadable) {
    result.diagnostics.push({ severity: 'warning', provider: who.provider, path: u.path, message: `Failed to read ${u.path}: ${u.message}` });
  }
  const level = who.level(spec.scope);
  for (const file of scan.files) {
    try {
      const parsed = parseFrontmatter(file.content, { level, path: file.path });
      if (parsed.warning) result.diagnostics.push({ severity: 'warning', provider: who.provider, path: file.path, message: parsed.warning });
      const override = parsed.frontmatter.name;
      const name = who.nameFromFrontmatter && typeof override === 'string' && override.trim() ? override.trim() : file.name;
      const item: SlashCommandItem = {
        name,
        path: file.path,
        content: file.content,
        level,
        frontmatter: parsed.frontmatter,
        body: parsed.body,
        _source: { provider: who.provider, providerName: who.providerName, path: file.path, scope: spec.scope },
      };
      result.items.push(item);
    } catch (err) {
      // Native frontmatter errors are fatal for that command: it is not loaded and the error is
      // reported with `error` severity; the provider's other commands still load.
      if (!(err instanceof FrontmatterError)) throw err;
      result.diagnostics.push({ severity: 'error', provider: who.provider, path: file.path, message: err.message });
    }
  }
  return result;
}

export async function loadDirs(specs: DirSpec[], who: ProviderIdentity): Promise<ProviderResult> {
  const result: ProviderResult = { items: [], diagnostics: [] };
  for (const spec of specs) {
    const part = await loadDir(spec, who);
    result.items.push(...part.items);
    result.diagnostics.push(...part.diagnostics);
  }
  return result;
}
