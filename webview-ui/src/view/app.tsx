// The chat: session bar, banners, the virtualized transcript, tasks, the composer and the status bar.
import { webviewMessage } from '../../../src/protocol/webviewMessages';
import type { ChatStore } from '../state/store';
import { StoreContext } from '../state/useStore';
import { t } from '../i18n';
import { Banners, TodoPanel } from './banners';
import { Composer } from './composer';
import { LiveRegions } from './liveRegions';
import { SessionBar, StatusBar } from './header';
import { TranscriptView } from './transcript';

export function App({ store }: { store: ChatStore }) {
  // Copy buttons of code blocks are markup from the markdown renderer: handled by delegation.
  const onClick = (e: MouseEvent) => {
    const button = (e.target as Element | null)?.closest?.('[data-action="copy-code"]');
    if (!button) return;
    const code = button.closest('.code-block')?.querySelector('code')?.textContent ?? '';
    store.transport.send(webviewMessage('clipboard.write', { text: code }));
    button.classList.add('copied');
    button.setAttribute('aria-label', t('app.copied'));
  };
  return (
    <StoreContext.Provider value={store}>
      <main class="chat" aria-label={t('app.label')} onClick={onClick}>
        <SessionBar />
        <Banners />
        <TranscriptView />
        <TodoPanel />
        <Composer />
        <StatusBar />
        <LiveRegions />
      </main>
    </StoreContext.Provider>
  );
}
