// The rows of the composer's @ / slash picker and its status line (composer.tsx): a file's path
// with its matches marked and its disguising characters shown, one option row, the status words.
import type { ComponentChildren } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { visibleNameMap } from '../../../src/protocol/visibleName';
import { t } from '../i18n';

/** A file's path with its matched ranges marked; characters that would disguise it are shown (visibleName.ts). */
export function Highlighted({ text: name, ranges: given }: { text: string; ranges?: { start: number; end: number }[] }) {
  const shown = visibleNameMap(name);
  const text = shown.text;
  const ranges = shown.text === name ? given : given?.map((r) => ({ start: shown.at(r.start), end: shown.at(r.end) }));
  const out = [];
  let at = 0;
  for (const r of [...(ranges ?? [])].sort((a, b) => a.start - b.start)) {
    const start = Math.max(at, Math.min(r.start, text.length));
    const end = Math.max(start, Math.min(r.end, text.length));
    if (start > at) out.push(text.slice(at, start));
    if (end > start) out.push(<mark key={start}>{text.slice(start, end)}</mark>);
    at = end;
  }
  if (at < text.length) out.push(text.slice(at));
  return <>{out}</>;
}

/**
 * A file's row: its name first, then its folder, muted, cut at its end when the side bar is narrow.
 * A deep path cut at the right hid the name, the part that tells rows apart (the picker trial of
 * 2026-12-05). A folder's row keeps its whole path. The match ranges are split between the two.
 */
export function PathLabel({ path, ranges }: { path: string; ranges?: { start: number; end: number }[] }) {
  const slash = path.endsWith('/') ? -1 : path.lastIndexOf('/');
  if (slash < 0) return <span class="picker-name"><Highlighted text={path} ranges={ranges} /></span>;
  const inName = (ranges ?? []).filter((r) => r.end > slash + 1).map((r) => ({ start: Math.max(0, r.start - slash - 1), end: r.end - slash - 1 }));
  const inDir = (ranges ?? []).filter((r) => r.start < slash).map((r) => ({ start: r.start, end: Math.min(slash, r.end) }));
  return (
    <>
      <span class="picker-name"><Highlighted text={path.slice(slash + 1)} ranges={inName} /></span>
      <span class="picker-dir muted"><Highlighted text={path.slice(0, slash)} ranges={inDir} /></span>
    </>
  );
}

/** Rows PageDown / PageUp move the active suggestion by. */
export const PAGE_ROWS = 8;

/** After this long, "Searching…" says why the first search of a large workspace takes a while. */
export const LONG_SEARCH_MS = 2000;

/**
 * True once `waiting` has held for `afterMs`: the picker trial waited 36 s on a bare "Searching…"
 * in a 140,000-file workspace and could not tell working from stuck (decision 633).
 */
export function useLongWait(waiting: boolean, afterMs = LONG_SEARCH_MS): boolean {
  const [long, setLong] = useState(false);
  useEffect(() => {
    setLong(false);
    if (!waiting) return undefined;
    const timer = setTimeout(() => setLong(true), afterMs);
    return () => clearTimeout(timer);
  }, [waiting, afterMs]);
  return waiting && long;
}

/** The file picker's status line: searching (for long), none, how many (and that more match). */
export function fileStatus(count: number, searching: boolean, truncated: boolean, searchingLong = false, hidden = false): string {
  if (searching) return t(searchingLong ? 'composer.searchingLong' : 'composer.searching');
  // Why a file the user knows is there may be missing (the picker trial: node_modules, build output).
  if (count === 0) return t(hidden ? 'composer.noFilesAtAll' : 'composer.noFilesHidden');
  const shown = truncated ? t('composer.fileCountMore', String(count)) : count === 1 ? t('composer.fileCount1') : t('composer.fileCountN', String(count));
  return hidden ? t('composer.withHidden', shown) : shown;
}

/**
 * A picker row's ref, its row scrolled into view while it is the active one: the keyboard moved it
 * out of sight before, and Enter then took a file nobody could see (the picker trial of 2026-12-05).
 */
export function useActiveRowInView(active: boolean) {
  const row = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    if (active) row.current?.scrollIntoView?.({ block: 'nearest' });
  }, [active]);
  return row;
}

/** One row of the @ / slash picker. mousedown (not click) keeps the editor's focus and selection. */
export function PickerOption({ id, active, onChoose, children }: { id: string; active: boolean; onChoose: () => void; children: ComponentChildren }) {
  const row = useActiveRowInView(active);
  return (
    <div
      ref={row}
      id={id}
      role="option"
      aria-selected={active}
      class={`picker-item${active ? ' active' : ''}`}
      onMouseDown={(e) => {
        e.preventDefault();
        onChoose();
      }}
    >
      {children}
    </div>
  );
}
