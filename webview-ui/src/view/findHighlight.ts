// Shows the matches of "Find in chat" inside a mounted row with the CSS Custom Highlight API
// (decision 524): ranges over the row's text nodes, painted by `::highlight(rawp-find)` and
// `::highlight(rawp-find-current)` (find.css) without touching the DOM the views render, so a
// re-render of the row cannot be broken by it. Without the API the row is focused instead.

export const ALL = 'rawp-find';
export const CURRENT = 'rawp-find-current';

interface HighlightApi {
  set(name: string, value: unknown): void;
  delete(name: string): void;
}

function api(): { highlights: HighlightApi; Highlight: new (...ranges: Range[]) => unknown } | undefined {
  const css = (globalThis as { CSS?: { highlights?: HighlightApi } }).CSS;
  const Highlight = (globalThis as { Highlight?: new (...ranges: Range[]) => unknown }).Highlight;
  return css?.highlights && Highlight ? { highlights: css.highlights, Highlight } : undefined;
}

export function highlightSupported(): boolean {
  return api() !== undefined;
}

/** The elements shown whole because they hold the current match (see unclip). */
const UNCLIPPED = 'data-find-unclipped';
let unclipped: Element[] = [];

function restoreClipped(): void {
  for (const el of unclipped) el.removeAttribute(UNCLIPPED);
  unclipped = [];
}

/**
 * A match inside a one-line box cut with "…" (a tool card's input summary) may be in the part cut
 * off. While it is the current match, each such box around it between it and the row shows its
 * whole text, wrapped (find.css), so the current match is always visible.
 */
function unclip(node: Node, row: Element): void {
  restoreClipped();
  for (let el = node.parentElement; el && el !== row; el = el.parentElement) {
    const style = getComputedStyle(el);
    const cuts = style.textOverflow === 'ellipsis' || (style.whiteSpace === 'nowrap' && style.overflowX !== 'visible');
    if (cuts && el.scrollWidth > el.clientWidth) {
      el.setAttribute(UNCLIPPED, '');
      unclipped.push(el);
    }
  }
}

export function clearHighlights(): void {
  restoreClipped();
  const a = api();
  a?.highlights.delete(ALL);
  a?.highlights.delete(CURRENT);
}

/** `text` lower-cased where that keeps its length: a character whose lower case is longer ('İ'
 *  becomes two units) stays as it is, so offsets stay the text node's; the others are lowered. */
function lowerKeepingOffsets(text: string): string {
  const lower = text.toLowerCase();
  if (lower.length === text.length) return lower;
  let out = '';
  for (const c of text) {
    const l = c.toLowerCase();
    out += l.length === c.length ? l : c;
  }
  return out;
}

/** Ranges of every occurrence of `needle` (lower-cased) in `root`'s text, in document order. A
 *  match may span text nodes (markdown marks split words into elements). */
export function matchRanges(root: Element, needle: string): Range[] {
  const nodes: Text[] = [];
  const starts: number[] = [];
  let text = '';
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    nodes.push(n as Text);
    starts.push(text.length);
    text += lowerKeepingOffsets((n as Text).data);
  }
  const ranges: Range[] = [];
  if (needle.length === 0) return ranges;
  let k = 0;
  /** The node holding character `pos` of `text` (k only moves forward: matches come in order). */
  const locate = (pos: number): [Text, number] => {
    while (k + 1 < nodes.length && starts[k + 1] <= pos) k++;
    return [nodes[k], pos - starts[k]];
  };
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) {
    const range = document.createRange();
    const [a, ao] = locate(at);
    range.setStart(a, ao);
    const [b, bo] = locate(at + needle.length - 1);
    range.setEnd(b, bo + 1);
    ranges.push(range);
  }
  return ranges;
}

/** Makes the node of a match visible: a closed <details> opens, a chunk waiting under
 *  hidden="until-found" is revealed as find-in-page would (chunkedReveal.tsx opens on beforematch). */
export function reveal(node: Node): void {
  for (let el = node.parentElement; el; el = el.parentElement) {
    if (el instanceof HTMLDetailsElement && !el.open) el.open = true;
    if (el.hasAttribute('hidden')) {
      el.dispatchEvent(new Event('beforematch', { bubbles: true }));
      el.removeAttribute('hidden');
    }
  }
}

/**
 * Highlights the occurrences of `needle` in the row element, the `occurrence`-th (0-based, counted
 * in the model's text) as the current one: the same one in the DOM when the row shows that many,
 * else the nearest (the last). Returns the current range, or undefined when none was drawn.
 */
export function highlightRow(row: Element, needle: string, occurrence: number): Range | undefined {
  const a = api();
  if (!a) return undefined;
  const ranges = matchRanges(row, needle);
  if (ranges.length === 0) {
    clearHighlights();
    return undefined;
  }
  const current = ranges[Math.min(occurrence, ranges.length - 1)];
  reveal(current.startContainer);
  unclip(current.startContainer, row);
  a.highlights.set(ALL, new a.Highlight(...ranges));
  a.highlights.set(CURRENT, new a.Highlight(current));
  return current;
}
