// The prompts sent before, kept in the view's state so ↑ in an empty composer recalls them, newest
// first, after a reload too (the webview's own state store).
import type { PromptPart } from '../../../src/protocol/fileReference';
import type { ChatStore } from '../state/store';

const MAX_RECALL = 50;

export function loadRecall(store: ChatStore): PromptPart[][] {
  const s = store.transport.getState() as { recall?: unknown } | undefined;
  return Array.isArray(s?.recall) ? (s.recall as PromptPart[][]) : [];
}

/** `parts` sent: first in the list (once), the list kept in the view's state; the new list. */
export function saveRecall(store: ChatStore, list: readonly PromptPart[][], parts: PromptPart[]): PromptPart[][] {
  const next = [parts, ...list.filter((p) => JSON.stringify(p) !== JSON.stringify(parts))].slice(0, MAX_RECALL);
  store.transport.setState({ ...((store.transport.getState() as object | undefined) ?? {}), recall: next });
  return next;
}
