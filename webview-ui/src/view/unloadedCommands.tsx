// The slash picker's last row when command files did not load (decision 721): "2 command files
// could not be loaded", then each file's path and why. The row is an option of the listbox, so the
// arrows reach it and a screen reader reads it as the prompt box's active descendant, but disabled:
// it chooses nothing. The list of files, under the listbox, shows while the row is active or after
// a click on it; it is the row's description either way, so it is heard without being seen.
import { useState } from 'preact/hooks';
import type { PayloadOf } from '../../../src/protocol/frameTypes';
import { visibleNameMap } from '../../../src/protocol/visibleName';
import { LOCALES, t, type MessageId } from '../i18n';
import { useActiveRowInView } from './pickerRows';

export type Unloaded = NonNullable<PayloadOf<'agent.commands.publish'>['unloaded']>;
type UnloadedFile = Unloaded['files'][number];

export function unloadedSummary(u: Unloaded): string {
  return u.total === 1 ? t('composer.unloaded1') : t('composer.unloadedN', u.total);
}

/** Why, in the view's language; a reason this view does not know: the host's English. */
export function unloadedReason(f: UnloadedFile): string {
  const id = `composer.unloaded.${f.reason}`;
  if (!Object.prototype.hasOwnProperty.call(LOCALES.en, id)) return f.message;
  return f.detail ? `${t(id as MessageId)} (${f.detail})` : t(id as MessageId);
}

/** Whether the picker shows the row: only when a file did not load. */
export function hasUnloaded(u: Unloaded | undefined): u is Unloaded {
  return u !== undefined && u.total > 0;
}

/** The list shows while the row is active, or after a click on the row (until the next). */
export function useUnloadedOpen(active: boolean): { open: boolean; toggle: () => void } {
  const [pinned, setPinned] = useState(false);
  return { open: active || pinned, toggle: () => setPinned(!pinned) };
}

/** The row: one line, named by it; the list below the listbox is its description. */
export function UnloadedRow({ id, active, open, onToggle, unloaded }: { id: string; active: boolean; open: boolean; onToggle: () => void; unloaded: Unloaded }) {
  const row = useActiveRowInView(active);
  return (
    <div
      ref={row}
      id={id}
      role="option"
      aria-selected={active}
      aria-disabled="true"
      aria-describedby={`${id}-why`}
      class={`picker-item picker-unloaded${active ? ' active' : ''}`}
      onMouseDown={(e) => {
        e.preventDefault();
        onToggle();
      }}
    >
      <span class="codicon codicon-warning" aria-hidden="true" />
      <span class="unloaded-summary">{unloadedSummary(unloaded)}</span>
      <span class={`codicon codicon-chevron-${open ? 'up' : 'down'} unloaded-chevron`} aria-hidden="true" />
    </div>
  );
}

/**
 * Each file and why, then "and N more": outside the listbox (which holds only options), always in
 * the page so it describes the row even while hidden. Focusable as a scrolling region must be
 * (axe scrollable-region-focusable), the focus sent back to the prompt box, as the listbox does.
 */
export function UnloadedFiles({ id, open, unloaded, focusEditor }: { id: string; open: boolean; unloaded: Unloaded; focusEditor: () => void }) {
  const more = unloaded.total - unloaded.files.length;
  return (
    <div id={id} class="unloaded-files" hidden={!open} tabIndex={open ? 0 : -1} onFocus={focusEditor}>
      {unloaded.files.map((f, i) => (
        <div key={i} class="unloaded-file">
          {f.path !== undefined && <span class="unloaded-path">{visibleNameMap(f.path).text}</span>}
          {f.path !== undefined && ' — '}
          <span class="unloaded-reason">{unloadedReason(f)}</span>
        </div>
      ))}
      {more > 0 && <div class="unloaded-more">{t('composer.unloadedMore', more)}</div>}
    </div>
  );
}
