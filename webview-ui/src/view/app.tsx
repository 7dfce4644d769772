// The chat: session bar, banners, the find bar (decision 524), the virtualized transcript, tasks, the composer and the status bar.
import { useEffect, useState } from 'preact/hooks';
import { webviewMessage } from '../../../src/protocol/webviewMessages';
import type { ChatStore } from '../state/store';
import { StoreContext } from '../state/useStore';
import { t } from '../i18n';
import { Banners, TodoPanel } from './banners';
import { Composer } from './composer';
import { FindBar } from './findBar';
import { FindContext, FindController, isFindKey } from './findState';
import { LiveRegions } from './liveRegions';
import { stopTurn } from './stopTurn';
import { SessionBar, StatusBar } from './header';
import { TranscriptView } from './transcript';

export function App({ store }: { store: ChatStore }) {
  const [find] = useState(() => new FindController());
  // Decision 524: Ctrl+F (Cmd+F) anywhere in the view (the page is the chat: focus may be on its
  // body after a click on an empty part) opens Find in chat, and nothing else gets it (a webview
  // view has no find widget, and the browser's own cannot see unmounted rows).
  useEffect(() => {
    const onKeyDown = (e: KeyboardEvent) => {
      if (!isFindKey(e)) return;
      e.preventDefault();
      e.stopPropagation();
      find.show();
    };
    document.addEventListener('keydown', onKeyDown, true);
    return () => document.removeEventListener('keydown', onKeyDown, true);
  }, [find]);
  // Esc stops the running turn from anywhere in the conversation (a question's card, a tool card,
  // the feed), not only from the prompt box: after answering a permission the focus stays on its
  // card, and Esc let the command run on (the trial of 2026-12-06, decision 649). What handles Esc
  // itself comes first (the prompt box, pickers, Find, menus, the confirm dialogs, text fields).
  useEffect(() => {
    const onKeyDown = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented || e.isComposing) return;
      const target = e.target as Element | null;
      if (target?.closest('input, textarea, select, [role=alertdialog], [role=textbox], [role=combobox], .find-bar, .rules-panel')) return;
      // Something smaller to close first: Find in chat, wherever the focus is; a text selection.
      if (find.open) return void (e.preventDefault(), find.hide());
      const selection = document.getSelection();
      if (selection && !selection.isCollapsed) return void (e.preventDefault(), selection.removeAllRanges());
      if (stopTurn(store)) e.preventDefault();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [store, find]);
  // The view focused from the keyboard or a command ("RAWP Agent: Focus on Chat View") put the focus
  // on the page's body, 11 Tabs from the prompt box (the trial of 2026-12-06): it goes to the prompt
  // box, as in VS Code's own chat. Not after a click (which focuses what it hits, or selects text).
  useEffect(() => {
    let pointerAt = -Infinity;
    const onPointer = () => (pointerAt = performance.now());
    const onFocus = () =>
      requestAnimationFrame(() => {
        if (performance.now() - pointerAt < 1000 || (document.activeElement && document.activeElement !== document.body)) return;
        // Text the person selected (to copy, or a screen reader's reading place) is left alone.
        if (document.getSelection()?.isCollapsed === false) return;
        document.querySelector<HTMLElement>('.composer .editor')?.focus();
      });
    window.addEventListener('pointerdown', onPointer, true);
    window.addEventListener('focus', onFocus);
    return () => {
      window.removeEventListener('pointerdown', onPointer, true);
      window.removeEventListener('focus', onFocus);
    };
  }, []);
  // Copy buttons of code blocks are markup from the markdown renderer: handled by delegation.
  const onClick = (e: MouseEvent) => {
    const button = (e.target as Element | null)?.closest?.('[data-action="copy-code"]');
    if (!button) return;
    const code = button.closest('.code-block')?.querySelector('code')?.textContent ?? '';
    store.transport.send(webviewMessage('clipboard.write', { text: code }));
    button.classList.add('copied');
    const cut = button.getAttribute('data-cut');
    button.setAttribute('aria-label', cut === null ? t('app.copied') : t('app.copiedCut', Number(cut)));
  };
  return (
    <StoreContext.Provider value={store}>
      <FindContext.Provider value={find}>
        <main class="chat" aria-label={t('app.label')} onClick={onClick}>
          {/* The page's one h1, for heading navigation; visually hidden, out of the layout's flow. */}
          <h1 class="sr-only">{t('app.label')}</h1>
          <SessionBar />
          <Banners />
          <FindBar />
          <TranscriptView />
          <TodoPanel />
          <Composer />
          <StatusBar />
          <LiveRegions />
        </main>
      </FindContext.Provider>
    </StoreContext.Provider>
  );
}
