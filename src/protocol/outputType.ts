// §5.3.3: the `output_type` of a tool result is decided by, in this order, the catalog's
// declaration for the tool, the default of the tool's category, and finally `text`.
// `decideOutputType` is what a producer uses; `allowedOutputTypes` is the same table read
// backwards, for a checker that sees only the frame (it cannot know the producer's hints).
import type { OutputTypeName, ToolCategoryName } from './common';

export interface CatalogEntryLike {
  name: string;
  output_type?: OutputTypeName;
  category?: ToolCategoryName;
}

export interface OutputTypeHints {
  /** For write/edit tools: did the call change the file? (`diff` if so, else `empty`) */
  changed?: boolean;
  /** For search (and unnamed filesystem) tools: is the output a list of paths rather than text? */
  fileList?: boolean;
}

// The §5.3.3 filesystem rows name Claude Code's tools; notebook tools follow the same rows
// (Appendix A.2: NotebookRead -> file_content, NotebookEdit -> empty or diff).
const READ_TOOLS = new Set(['Read', 'NotebookRead']);
const LIST_TOOLS = new Set(['Glob', 'LS']);
const WRITE_TOOLS = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit']);

/** The category default of §5.3.3 step 2, or undefined where the table gives none. */
export function categoryDefault(category: ToolCategoryName | undefined, toolName: string, hints: OutputTypeHints = {}): OutputTypeName | undefined {
  switch (category) {
    case 'filesystem':
    case 'notebook':
      if (READ_TOOLS.has(toolName)) return 'file_content';
      if (LIST_TOOLS.has(toolName)) return 'file_list';
      if (WRITE_TOOLS.has(toolName)) return hints.changed === false ? 'empty' : 'diff';
      // A filesystem tool the table does not name (e.g. Codex's apply_patch): the producer's
      // hints tell which row it behaves like.
      if (hints.changed !== undefined) return hints.changed ? 'diff' : 'empty';
      if (hints.fileList) return 'file_list';
      return undefined;
    case 'shell':
      return 'text';
    case 'search':
      return hints.fileList ? 'file_list' : 'text';
    case 'web':
      return 'web_content';
    case 'task_management':
      return 'structured';
    case 'agent':
      return 'agent_result';
    default:
      return undefined;
  }
}

/** §5.3.3 in full: catalog declaration > category default > `text`. */
export function decideOutputType(toolName: string, catalog: readonly CatalogEntryLike[] | undefined, hints: OutputTypeHints = {}): OutputTypeName {
  const entry = catalog?.find((t) => t.name === toolName);
  if (entry?.output_type) return entry.output_type;
  return categoryDefault(entry?.category, toolName, hints) ?? 'text';
}

export interface AllowedOutputTypes {
  /** Every value `decideOutputType` can return for this tool, whatever the hints. */
  types: readonly OutputTypeName[];
  /** Which step of §5.3.3 decided: a mismatch with `catalog`/`category` breaks the MUST. */
  basis: 'catalog' | 'category' | 'category_alternatives' | 'fallback';
}

/**
 * The §5.3.3 outcomes possible for a tool, seen from outside the producer. Where the table offers
 * alternatives (write: diff or empty; search: text or file_list) the choice rests on facts the
 * frame does not carry, so `basis` says a checker can only be sure of the set, not the value.
 */
export function allowedOutputTypes(toolName: string, entry: CatalogEntryLike | undefined): AllowedOutputTypes {
  if (entry?.output_type) return { types: [entry.output_type], basis: 'catalog' };
  const category = entry?.category;
  const outcomes = new Set<OutputTypeName>();
  for (const changed of [undefined, true, false]) {
    for (const fileList of [undefined, true]) {
      const d = categoryDefault(category, toolName, { changed, fileList });
      if (d) outcomes.add(d);
    }
  }
  // Appendix A.2 lists WebSearch (category search) as web_content.
  if (category === 'search' && toolName === 'WebSearch') outcomes.add('web_content');
  if (outcomes.size === 0) return { types: ['text'], basis: 'fallback' };
  // An unnamed filesystem tool may also fall through to `text` when no hint is given.
  if (categoryDefault(category, toolName) === undefined) outcomes.add('text');
  return { types: [...outcomes], basis: outcomes.size === 1 ? 'category' : 'category_alternatives' };
}
