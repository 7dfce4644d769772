// DOM helpers of the composer's contenteditable: reading it back as prompt parts (text and file
// chips), finding the "@query" before the caret, and replacing it with a chip.
import { FOLDER_MIME_TYPE, isFolderRef, type PromptPart } from '../../../src/protocol/fileReference';
import { t } from '../i18n';
import { visibleName } from '../../../src/protocol/visibleName';

type FilePart = Extract<PromptPart, { kind: 'file' }>;

/** The editor's content as prompt parts; <br> and block elements become newlines. */
export function readParts(root: HTMLElement): PromptPart[] {
  const parts: PromptPart[] = [];
  const pushText = (text: string) => {
    const last = parts[parts.length - 1];
    if (last?.kind === 'text') last.text += text;
    else parts.push({ kind: 'text', text });
  };
  const walk = (node: Node, top: boolean) => {
    node.childNodes.forEach((child, i) => {
      if (child.nodeType === Node.TEXT_NODE) {
        pushText((child as Text).data.replace(/\u00a0/g, ' '));
      } else if (child instanceof HTMLElement) {
        if (child.dataset.path) {
          parts.push({ kind: 'file', path: child.dataset.path, display_path: child.dataset.path, ...(child.dataset.ext ? { extension: child.dataset.ext } : {}), ...(child.dataset.mime ? { mime_type: child.dataset.mime } : {}) });
        } else if (child.tagName === 'BR') {
          pushText('\n');
        } else {
          if ((child.tagName === 'DIV' || child.tagName === 'P') && (i > 0 || !top)) pushText('\n');
          walk(child, false);
        }
      }
    });
  };
  walk(root, true);
  // The browser keeps a trailing <br> in a contenteditable; surrounding blank space is not content.
  const first = parts[0];
  if (first?.kind === 'text') first.text = first.text.replace(/^\s+/, '');
  const last = parts[parts.length - 1];
  if (last?.kind === 'text') last.text = last.text.replace(/\s+$/, '');
  return parts.filter((p) => p.kind === 'file' || p.text.length > 0);
}

export function isEmpty(parts: PromptPart[]): boolean {
  return parts.length === 0;
}

/** An @ query longer than this is not a name being typed (and never costs a long comparison). */
const MAX_QUERY = 256;

/**
 * The "@query" right before the caret (at the start or after whitespace), if any. A space ends the
 * query unless `keepsSpace(query)` says a listed file's name holds the query, space included
 * (spacedQuery.ts, decision 634); `<`, `>` and another `@` always end it.
 */
export function atQuery(root: HTMLElement, keepsSpace: (query: string) => boolean = () => false): { node: Text; start: number; end: number; query: string } | undefined {
  const sel = root.ownerDocument.getSelection();
  if (!sel || sel.rangeCount === 0 || !sel.isCollapsed) return undefined;
  const node = sel.anchorNode;
  if (!node || node.nodeType !== Node.TEXT_NODE || !root.contains(node)) return undefined;
  const text = (node as Text).data.slice(0, sel.anchorOffset);
  const at = text.lastIndexOf('@');
  if (at < 0 || (at > 0 && !/[\s\u00a0]/.test(text[at - 1]))) return undefined;
  const query = text.slice(at + 1);
  if (query.length > MAX_QUERY || /[@<>]/.test(query)) return undefined;
  // A query never starts with a space: "@ " is not a reference being typed.
  if (/[\s\u00a0]/.test(query) && (/^[\s\u00a0]/.test(query) || !keepsSpace(query))) return undefined;
  return { node: node as Text, start: at, end: sel.anchorOffset, query };
}

/**
 * The @ reference from its `@` to the end of `query` as typed, when the caret stands inside it
 * (moved back with ←): the rest of the query after the caret is part of it. Tab and Enter did
 * nothing there before (the trial of 2026-12-05).
 */
export function throughQuery(at: { node: Text; start: number; end: number; query: string }, query: string): { node: Text; start: number; end: number; query: string } {
  const rest = query.slice(at.query.length);
  return rest && at.node.data.startsWith(rest, at.end) ? { ...at, end: at.end + rest.length, query } : at;
}

/** Replaces `@query` with a chip for the file, followed by a space, and puts the caret after it. */
export function insertChip(root: HTMLElement, at: { node: Text; start: number; end: number }, file: FilePart): void {
  const doc = root.ownerDocument;
  const range = doc.createRange();
  range.setStart(at.node, at.start);
  range.setEnd(at.node, Math.min(at.end, at.node.length));
  range.deleteContents();
  const chip = chipElement(doc, file);
  const space = doc.createTextNode(' ');
  range.insertNode(space);
  range.insertNode(chip);
  const caret = doc.createRange();
  caret.setStart(space, 1);
  caret.collapse(true);
  const sel = doc.getSelection();
  sel?.removeAllRanges();
  sel?.addRange(caret);
}

export function chipElement(doc: Document, file: FilePart): HTMLElement {
  const chip = doc.createElement('span');
  const folder = isFolderRef(file);
  chip.className = 'chip';
  chip.contentEditable = 'false';
  chip.dataset.path = file.path;
  if (file.extension) chip.dataset.ext = file.extension;
  // Kept so the prompt (and a kept draft) still calls a folder without its "/" one.
  if (file.mime_type === FOLDER_MIME_TYPE) chip.dataset.mime = FOLDER_MIME_TYPE;
  chip.setAttribute('role', 'img');
  // Named and drawn as what it is: the sent prompt shows a folder too (the new-user trial).
  chip.setAttribute('aria-label', t(folder ? 'composer.folderChip' : 'composer.fileChip', visibleName(file.path)));
  const icon = doc.createElement('span');
  icon.className = `codicon codicon-${folder ? 'folder' : 'file'}`;
  icon.setAttribute('aria-hidden', 'true');
  chip.append(icon, doc.createTextNode(visibleName(file.display_path ?? file.path)));
  return chip;
}

/** Fills the editor with parts (prompt recall) and puts the caret at the end. */
export function writeParts(root: HTMLElement, parts: PromptPart[]): void {
  fillParts(root, parts);
  caretToEnd(root);
}

/** Fills the editor with parts, the selection left alone (a draft put back must not take the focus). */
export function fillParts(root: HTMLElement, parts: PromptPart[]): void {
  const doc = root.ownerDocument;
  root.replaceChildren();
  parts.forEach((p, i) => {
    // A chip is followed by a space (the caret's place after it) unless the text after it has one:
    // read back and written again (a draft, each time the view is rebuilt) it must not grow.
    const next = parts[i + 1];
    if (p.kind === 'file') root.append(chipElement(doc, p), ...(next?.kind === 'text' && /^\s/.test(next.text) ? [] : [doc.createTextNode(' ')]));
    else
      p.text.split('\n').forEach((line, i) => {
        if (i > 0) root.append(doc.createElement('br'));
        if (line) root.append(doc.createTextNode(line));
      });
  });
}

export function caretToEnd(root: HTMLElement): void {
  const doc = root.ownerDocument;
  const range = doc.createRange();
  range.selectNodeContents(root);
  range.collapse(false);
  const sel = doc.getSelection();
  sel?.removeAllRanges();
  sel?.addRange(range);
}

/** Is the caret at the very start of the editor (for ↑ recall)? */
export function caretAtStart(root: HTMLElement): boolean {
  const sel = root.ownerDocument.getSelection();
  if (!sel || sel.rangeCount === 0) return true;
  const r = sel.getRangeAt(0).cloneRange();
  r.setStart(root, 0);
  return r.toString().length === 0 && !r.cloneContents().querySelector('[data-path]');
}
