// The prompt not sent yet, per chat, kept in the view's state (the transport's getState/setState,
// like the prompt history of promptRecall.ts): VS Code throws a hidden webview view away — the side
// bar switched to Explorer and back — and builds it again from nothing, so a draft only in the DOM
// was lost (the new-user trial, decision 672). Text and file chips are kept as the prompt parts the
// box reads back, so a chip comes back as a chip.
import type { RefObject } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import type { PromptPart } from '../../../src/protocol/fileReference';
import type { ChatStore } from '../state/store';
import { caretToEnd, fillParts, readParts } from './editor';

/** Characters a draft keeps (text and paths); a longer one keeps its beginning. */
export const MAX_DRAFT_CHARS = 32_000;
/** Chats with a draft kept, the most recently edited first. */
export const MAX_DRAFTS = 10;

interface Draft {
  session: string;
  parts: PromptPart[];
}

/** The state is ours, but it outlives versions of this code: only well-formed parts come back. */
function validPart(p: unknown): PromptPart | undefined {
  if (typeof p !== 'object' || p === null) return undefined;
  const o = p as Record<string, unknown>;
  if (o.kind === 'text' && typeof o.text === 'string') return { kind: 'text', text: o.text };
  if (o.kind !== 'file' || typeof o.path !== 'string' || o.path.length === 0) return undefined;
  return { kind: 'file', path: o.path, display_path: o.path, ...(typeof o.extension === 'string' ? { extension: o.extension } : {}), ...(typeof o.mime_type === 'string' ? { mime_type: o.mime_type } : {}) };
}

function loadDrafts(store: ChatStore): Draft[] {
  const s = store.transport.getState() as { drafts?: unknown } | undefined;
  if (!Array.isArray(s?.drafts)) return [];
  return s.drafts.flatMap((d: unknown) => {
    const o = d as { session?: unknown; parts?: unknown } | null;
    if (typeof o?.session !== 'string' || !Array.isArray(o.parts)) return [];
    return [{ session: o.session, parts: o.parts.map(validPart).filter((p): p is PromptPart => p !== undefined) }];
  });
}

export function loadDraft(store: ChatStore, session: string): PromptPart[] {
  return loadDrafts(store).find((d) => d.session === session)?.parts ?? [];
}

/** `parts` cut to MAX_DRAFT_CHARS: the state store is for small things, and this is saved per keystroke. */
export function boundDraft(parts: readonly PromptPart[]): PromptPart[] {
  let left = MAX_DRAFT_CHARS;
  const out: PromptPart[] = [];
  for (const p of parts) {
    const size = p.kind === 'text' ? p.text.length : p.path.length;
    if (p.kind === 'file' && size > left) break;
    out.push(p.kind === 'text' && size > left ? { kind: 'text', text: p.text.slice(0, left) } : p);
    left -= Math.min(size, left);
    if (left === 0) break;
  }
  return out;
}

/** Keeps `parts` as the draft of `session` (none when empty: sent, or erased). */
export function saveDraft(store: ChatStore, session: string, parts: readonly PromptPart[]): void {
  const others = loadDrafts(store).filter((d) => d.session !== session);
  const drafts = parts.length > 0 ? [{ session, parts: boundDraft(parts) }, ...others].slice(0, MAX_DRAFTS) : others;
  const state = (store.transport.getState() as object | undefined) ?? {};
  if (drafts.length === 0 && !('drafts' in state)) return;
  store.transport.setState({ ...state, drafts });
}

/**
 * Keeps the box's content as the draft of the chat in front, on every change whatever made it
 * (typing, a chip, ↑ recall, the send that empties it), and puts a chat's draft back when the
 * chat comes to the front: after the view was rebuilt, or on a switch to another chat. `shown`
 * hears whether the box is empty after a draft was put back.
 */
export function useDraft(store: ChatStore, editor: RefObject<HTMLDivElement>, shown: (empty: boolean) => void): void {
  const session = useRef<string | undefined>(undefined);
  const observer = useRef<MutationObserver>();
  // Whether the chat in front had ended when this render began (read before it is updated below).
  const ended = useRef(false);
  const save = () => {
    const root = editor.current;
    if (root && session.current !== undefined) saveDraft(store, session.current, readParts(root));
  };
  useEffect(() => {
    const root = editor.current;
    if (!root) return;
    observer.current = new MutationObserver(save);
    observer.current.observe(root, { childList: true, characterData: true, subtree: true });
    return () => observer.current?.disconnect();
  }, []);
  useEffect(() => {
    const root = editor.current;
    const next = store.sessionId;
    if (!root || next === session.current) return;
    // Changes not yet saved belong to the chat that was in front.
    if (observer.current?.takeRecords().length) save();
    const previous = session.current;
    session.current = next;
    if (next === undefined) return;
    const typed = readParts(root);
    // Text typed before the chat was known (a rebuilt view is attached a moment after it shows),
    // or into a chat that ended (Continue opens a new chat to go on with it), goes on in this chat.
    if ((previous === undefined || ended.current) && typed.length > 0) {
      if (previous !== undefined) saveDraft(store, previous, []);
      return save();
    }
    const parts = loadDraft(store, next);
    if (previous === undefined && parts.length === 0) return;
    fillParts(root, parts);
    if (root.ownerDocument.activeElement === root) caretToEnd(root);
    shown(parts.length === 0);
  }, [store.sessionId]);
  useEffect(() => {
    ended.current = store.transcript.deleted !== undefined;
  });
}
