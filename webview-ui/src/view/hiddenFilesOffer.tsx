// "No matching files" had no way on (the picker trial of 2026-12-05, F11): a file under
// node_modules/ or build/ that the user knows is there could only be reached by a setting that
// changes every search. The picker now offers to search this @ reference among hidden files too
// (§16.1.1 scope `global`: what .gitignore and the exclude settings hide, never outside the
// workspace; decision 636). Tab from the prompt box reaches the offer; Escape or Shift+Tab goes
// back with the caret where it was.
import { useEffect, useRef } from 'preact/hooks';
import { t } from '../i18n';

/** The caret of the prompt box, kept while the focus is on the offer. */
let savedCaret: Range | undefined;

/** Moves the focus to the offer, remembering the caret (the composer's Tab). */
export function focusHiddenFilesOffer(): boolean {
  const button = document.querySelector<HTMLButtonElement>('.picker-hidden-offer');
  if (!button) return false;
  const sel = document.getSelection();
  savedCaret = sel && sel.rangeCount > 0 ? sel.getRangeAt(0).cloneRange() : undefined;
  button.focus();
  return true;
}

/** The focus back in the prompt box, the caret where it was. */
function backToEditor(editor: HTMLElement | null): void {
  editor?.focus();
  if (!savedCaret) return;
  const sel = document.getSelection();
  sel?.removeAllRanges();
  sel?.addRange(savedCaret);
  savedCaret = undefined;
}

export function HiddenFilesOffer({ editor, onSearch }: { editor: () => HTMLElement | null; onSearch: () => void }) {
  const button = useRef<HTMLButtonElement>(null);
  // Gone while focused (the next keystroke's answer found files): the prompt box takes the focus.
  useEffect(() => () => {
    if (document.activeElement === null || document.activeElement === document.body) backToEditor(editor());
  }, []);
  return (
    <button
      ref={button}
      type="button"
      class="button secondary picker-hidden-offer"
      // The mouse keeps the prompt box's focus and caret, as the picker's rows do.
      onMouseDown={(e) => e.preventDefault()}
      onClick={() => {
        onSearch();
        backToEditor(editor());
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape' || (e.key === 'Tab' && e.shiftKey)) {
          e.preventDefault();
          backToEditor(editor());
        }
      }}
    >
      {t('composer.searchHidden')}
    </button>
  );
}
