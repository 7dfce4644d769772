// §5.3.3: the `output_type` of a tool result is decided by, in this order, the catalog's
// declaration for the tool, the default of the tool's category, and finally `text`.
import type { OutputTypeName, ToolCategoryName } from './common';

export interface CatalogEntryLike {
  name: string;
  output_type?: OutputTypeName;
  category?: ToolCategoryName;
}

export interface OutputTypeHints {
  /** For write/edit tools: did the call change the file? (`diff` if so, else `empty`) */
  changed?: boolean;
  /** For search tools: is the output a list of paths rather than lines of text? */
  fileList?: boolean;
}

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
