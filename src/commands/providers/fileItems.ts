// Turns one scanned command directory into registry items, parsing frontmatter once so that its
// errors surface at load time with the right severity (slash-commands §3, §9).
import { FrontmatterError, parseFrontmatter } from '../frontmatter';
import type { WatchTarget } from '../../workspace/directoryWatcher';
import { linkOutOnTheWay, scanMarkdownDir } from '../../workspace/markdownDir';
import type { CommandLevel, CommandScope, ProviderResult, SlashCommandItem } from '../types';
import { errnoDetail } from '../unloaded';

export interface DirSpec {
  dir: string;
  /** Where `.gitignore` lookup stops (workspace folder, home, plugin root). */
  boundary: string;
  scope: CommandScope;
  /**
   * `boundary` is a workspace folder, so no symlink out of it is followed (decision 712). Not the
   * scope: a project-scoped plugin still lives in the user's home.
   */
  confined: boolean;
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
  const scan = await scanMarkdownDir(spec.dir, spec.boundary, { confined: spec.confined });
  for (const u of scan.unreadable) {
    // A file refused on purpose is a bad command (an error, as a native frontmatter error); a
    // failed read may pass (a warning).
    // Either way the command is missing, and the picker says why (decision 721).
    if (u.refused) result.diagnostics.push({ severity: 'error', provider: who.provider, path: u.path, message: u.message, reason: u.refused });
    else result.diagnostics.push({ severity: 'warning', provider: who.provider, path: u.path, message: `Failed to read ${u.path}: ${u.message}`, reason: 'unreadable', ...errnoDetail(u.message) });
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
      result.diagnostics.push({
        severity: 'error',
        provider: who.provider,
        path: file.path,
        message: err.message,
        reason: err.kind === 'too_big' ? 'frontmatter_too_big' : 'frontmatter_invalid',
        ...(err.detail ? { detail: err.detail } : {}),
      });
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

/**
 * What the watcher gets for each folder: the folder itself, except in a workspace where a link on
 * its way leads out (or to the workspace folder): then only that link's name in its parent, so
 * the link being replaced is noticed and nothing behind it is watched (decision 712).
 */
export async function watchTargets(specs: readonly DirSpec[]): Promise<WatchTarget[]> {
  const out: WatchTarget[] = [];
  for (const spec of specs) out.push((spec.confined && (await linkOutOnTheWay(spec.dir, spec.boundary))) || spec.dir);
  return out;
}
