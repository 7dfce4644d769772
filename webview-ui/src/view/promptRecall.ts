// The prompts sent before, kept in the view's state so ↑ in an empty composer recalls them, newest
// first, after a reload too (the webview's own state store).
import type { PromptPart } from '../../../src/protocol/fileReference';
import type { ChatStore } from '../state/store';

/** Prompts the list keeps at most. */
export const MAX_RECALL = 50;
/**
 * Characters (text and paths) the whole list keeps. The view's state is saved whole on every
 * keystroke of a draft (composerDraft.ts), so its size is paid per keystroke: fifty pasted logs
 * of a megabyte each made every keystroke serialize fifty megabytes.
 */
export const MAX_RECALL_CHARS = 200_000;

/** The characters of a prompt's parts (text, and a file chip's path). */
function sizeOf(parts: readonly PromptPart[]): number {
  let n = 0;
  for (const p of parts) n += p.kind === 'text' ? p.text.length : p.path.length;
  return n;
}

export function loadRecall(store: ChatStore): PromptPart[][] {
  const s = store.transport.getState() as { recall?: unknown } | undefined;
  return Array.isArray(s?.recall) ? (s.recall as PromptPart[][]) : [];
}

/**
 * `parts` sent: first in the list (once), the list kept in the view's state; the new list. The
 * newest prompts that fit MAX_RECALL_CHARS together are kept, each whole: a prompt longer than
 * that on its own is not kept at all, so ↑ never brings back a prompt cut short.
 */
export function saveRecall(store: ChatStore, list: readonly PromptPart[][], parts: PromptPart[]): PromptPart[][] {
  const next: PromptPart[][] = [];
  let left = MAX_RECALL_CHARS;
  for (const p of [parts, ...list.filter((p) => JSON.stringify(p) !== JSON.stringify(parts))]) {
    if (next.length === MAX_RECALL) break;
    const size = sizeOf(p);
    if (size > left) {
      if (next.length === 0 && p === parts) continue; // too long on its own: the older ones stay
      break;
    }
    next.push(p);
    left -= size;
  }
  store.transport.setState({ ...((store.transport.getState() as object | undefined) ?? {}), recall: next });
  return next;
}
