// The "before" text of an edit, for VS Code's diff editor: the edit result carries only the hunks
// (src/tools/diff.ts), so the original is rebuilt by applying the reversed patch to the file as it
// is now. When the file has changed since, that fails and the caller shows the patch itself.
import { applyPatch, parsePatch, reversePatch } from 'diff';

export interface DiffLike {
  file_path: string;
  unified_diff: string;
  created?: boolean;
}

export function isDiffOutput(v: unknown): v is DiffLike {
  const o = v as Partial<DiffLike> | null;
  return typeof o === 'object' && o !== null && typeof o.file_path === 'string' && typeof o.unified_diff === 'string';
}

/** The text before the edit, or undefined when the current text no longer matches the patch. */
export function textBefore(diff: DiffLike, current: string): string | undefined {
  if (diff.unified_diff === '') return current;
  try {
    const [patch] = parsePatch(diff.unified_diff);
    if (!patch) return undefined;
    const before = applyPatch(current, reversePatch(patch));
    return before === false ? undefined : before;
  } catch {
    return undefined;
  }
}
