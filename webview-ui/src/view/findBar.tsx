// The "Find in chat" bar above the transcript (decision 524): a search landmark with its labelled
// field, the count ("3 of 17"), previous / next and close. Enter / Shift+Enter and F3 / Shift+F3
// move between matches, Escape closes and gives focus back. The count is read out politely once the
// typing settles (and at once after a move), not on every keystroke (decision 390's rule: say what
// is new once it is whole).
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { t } from '../i18n';
import { useFind, type FindController } from './findState';

/** Typing is taken as settled after this pause; only then is the count announced. */
const SETTLE_MS = 600;

function countText(find: FindController): string {
  if (!find.query) return '';
  const r = find.result;
  if (!r || r.query !== find.query) return t('find.searching');
  if (r.total === 0) return t('find.none');
  return t('find.count', Math.max(1, find.position()), r.total);
}

export function FindBar() {
  const find = useFind();
  const input = useRef<HTMLInputElement>(null);
  const [spoken, setSpoken] = useState({ text: '', n: 0 });
  const count = find ? countText(find) : '';
  const known = count !== '' && find?.result?.query === find?.query;
  const tick = find?.focusTick ?? 0;
  useLayoutEffect(() => {
    if (!find?.open) return;
    input.current?.focus();
    input.current?.select();
  }, [tick, find?.open]);
  // A move by the reader is said at once; a count after typing once the typing settled.
  const moves = find?.moves ?? 0;
  const lastMoves = useRef(moves);
  useEffect(() => {
    if (!known) return;
    const say = () => setSpoken((s) => (s.text === count && lastMoves.current === moves ? s : { text: count, n: s.n + 1 }));
    if (moves !== lastMoves.current) {
      lastMoves.current = moves;
      setSpoken((s) => ({ text: count, n: s.n + 1 }));
      return;
    }
    const timer = setTimeout(say, SETTLE_MS);
    return () => clearTimeout(timer);
  }, [count, known, moves]);
  if (!find?.open) return null;
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      find.hide();
    } else if ((e.key === 'Enter' && e.target === input.current && !e.isComposing) || e.key === 'F3') {
      // (Enter that ends a Korean IME composition is the composition's, not a move.)
      e.preventDefault();
      find.step(e.shiftKey ? -1 : 1);
    }
  };
  const none = find.result?.total === 0;
  return (
    <div class="find-bar" role="search" aria-label={t('find.label')} onKeyDown={onKeyDown}>
      <input
        ref={input}
        id="find-input"
        class="find-input"
        type="text"
        spellcheck={false}
        autocomplete="off"
        aria-label={t('find.input')}
        placeholder={t('find.placeholder')}
        aria-keyshortcuts="Enter Shift+Enter F3 Shift+F3 Escape"
        value={find.query}
        onInput={(e) => find.setQuery((e.target as HTMLInputElement).value)}
      />
      <span class={`find-count${none ? ' find-none' : ''}`} data-known={known ? 'true' : 'false'} data-query={find.query}>
        {count}
      </span>
      <button type="button" class="icon-button" aria-label={t('find.previous')} title={t('find.previous')} disabled={!find.result?.total} onClick={() => find.step(-1)}>
        <span class="codicon codicon-arrow-up" aria-hidden="true" />
      </button>
      <button type="button" class="icon-button" aria-label={t('find.next')} title={t('find.next')} disabled={!find.result?.total} onClick={() => find.step(1)}>
        <span class="codicon codicon-arrow-down" aria-hidden="true" />
      </button>
      <button type="button" class="icon-button" aria-label={t('find.close')} title={t('find.close')} onClick={() => find.hide()}>
        <span class="codicon codicon-close" aria-hidden="true" />
      </button>
      <div class="sr-only" role="status" aria-live="polite" aria-atomic="true" data-live="find">
        <span key={spoken.n}>{spoken.text}</span>
      </div>
    </div>
  );
}
