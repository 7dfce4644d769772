// The capability registry for slash commands (slash-commands §1, §9): providers ranked by
// priority (descending, ties in registration order), items de-duplicated by name first-wins,
// losers kept in `all` marked `_shadowed`, a failing provider isolated with a warning, invalid
// items dropped.
import type { CommandDiagnostic, CommandProvider, LoadContext, SlashCommandItem } from './types';

export interface RegistryResult {
  /** Winners, in rank order. */
  items: SlashCommandItem[];
  /** Every valid item in rank order; the losers carry `_shadowed: true`. */
  all: SlashCommandItem[];
  diagnostics: CommandDiagnostic[];
}

const LEVELS = new Set(['native', 'user', 'project']);

/** Why an item is invalid, or undefined when it is fine (slash-commands §9). */
export function invalidReason(item: Partial<SlashCommandItem> | null | undefined): string | undefined {
  if (!item || typeof item !== 'object') return 'not an object';
  if (typeof item.name !== 'string' || !item.name) return 'missing name';
  // The name is the first token of the typed text, so it cannot hold whitespace or start with `/`.
  if (/\s/.test(item.name) || item.name.startsWith('/')) return `invalid name "${item.name}"`;
  if (typeof item.path !== 'string' || !item.path) return 'missing path';
  if (typeof item.content !== 'string') return 'missing content';
  if (typeof item.level !== 'string' || !LEVELS.has(item.level)) return `invalid level "${String(item.level)}"`;
  return undefined;
}

export class CommandRegistry {
  private readonly providers: CommandProvider[] = [];

  register(provider: CommandProvider): this {
    this.providers.push(provider);
    return this;
  }

  unregister(id: string): void {
    const i = this.providers.findIndex((p) => p.id === id);
    if (i >= 0) this.providers.splice(i, 1);
  }

  /** Providers in load order: priority descending; `sort` is stable, so ties keep registration order. */
  ranked(): CommandProvider[] {
    return [...this.providers].sort((a, b) => b.priority - a.priority);
  }

  async load(ctx: LoadContext): Promise<RegistryResult> {
    const ranked = this.ranked();
    // Load concurrently, merge in rank order.
    const settled = await Promise.allSettled(ranked.map((p) => p.load(ctx)));
    const result: RegistryResult = { items: [], all: [], diagnostics: [] };
    const seen = new Set<string>();
    settled.forEach((outcome, i) => {
      const provider = ranked[i];
      if (outcome.status === 'rejected') {
        const reason = outcome.reason instanceof Error ? outcome.reason.message : String(outcome.reason);
        // Its words may name any path: the picker gets only which source it was (decision 721).
        result.diagnostics.push({ severity: 'warning', provider: provider.id, message: `Provider "${provider.id}" failed to load: ${reason}`, reason: 'provider_failed', detail: provider.displayName });
        return;
      }
      result.diagnostics.push(...outcome.value.diagnostics.map((d) => ({ ...d, provider: d.provider ?? provider.id })));
      for (const item of outcome.value.items) {
        const why = invalidReason(item);
        if (why) {
          const path = item && typeof item.path === 'string' ? item.path : undefined;
          const named = path !== undefined && /name/.test(why) ? { reason: 'invalid_name' as const } : {};
          result.diagnostics.push({ severity: 'warning', provider: provider.id, path, message: `Dropped invalid command from "${provider.id}": ${why}`, ...named });
          continue;
        }
        if (seen.has(item.name)) {
          result.all.push({ ...item, _shadowed: true });
          continue;
        }
        seen.add(item.name);
        const winner = { ...item, _shadowed: false };
        result.items.push(winner);
        result.all.push(winner);
      }
    });
    return result;
  }
}
