// The chats an error ended that can still be continued (decision 646): the host keeps them across
// a reload of the window, where the ended chat itself is gone, and lists them with the sessions.
// Each row offers "Continue this conversation" (a NEW session, as the ended banner's button does)
// and Forget (no longer offered, nor kept). The chat in front of the user is left out: its own
// ended banner offers the same.
import { visibleName } from '../../../src/protocol/visibleName';
import { webviewMessage } from '../../../src/protocol/webviewMessages';
import { t } from '../i18n';
import { agentName } from '../i18n/hostWords';
import type { ChatStore, EndedSession } from '../state/store';
import { ContinueButton, nameOf, when } from './continuation';

/** Rows shown before the rest fold under "N more". */
const SHOWN = 3;

/**
 * Forgets the row's chat; the keyboard goes on to the next row's Continue (else the previous
 * row's, else the prompt box), never to the page when the row goes.
 */
function forgetter(store: ChatStore) {
  return (button: HTMLElement, session_id: string) => {
    const row = button.closest('.ended-chat');
    const rows = [...(row?.closest('.ended-chats')?.querySelectorAll<HTMLElement>('.ended-chat') ?? [])];
    const at = row ? rows.indexOf(row as HTMLElement) : -1;
    const next = rows[at + 1] ?? rows[at - 1];
    (next?.querySelector<HTMLElement>('.continue-button') ?? document.querySelector<HTMLElement>('.composer .editor'))?.focus();
    store.transport.send(webviewMessage('session.dismissEnded', { session_id }));
  };
}

export function EndedChats({ store }: { store: ChatStore }) {
  const forget = forgetter(store);
  const list = store.endedSessions.filter((e) => e.session_id !== store.sessionId);
  if (list.length === 0) return null;
  const row = (e: EndedSession) => {
    // A name still its agent's is said in the view's language (decision 651).
    const name = visibleName(agentName(e.name));
    const text = t('ended.row', name, nameOf(store, e.agent), when(e.ended_at));
    return (
      <li key={e.session_id} class="ended-chat" data-session={e.session_id}>
        {/* The name on its line (cut if it must), the agent and the end time whole on the next: the
            time, which tells two chats apart, was what a narrow side bar cut off (the trial). */}
        <span class="ended-chat-name" title={text}>
          <span class="ended-chat-title">{name}</span>
          <span class="ended-chat-meta">{t('ended.meta', nameOf(store, e.agent), when(e.ended_at))}</span>
          {e.shared && (
            <span class="badge" title={t('ended.sharedHint')}>
              {' '}
              {t('ended.shared')}
            </span>
          )}
        </span>
        <ContinueButton store={store} sessionId={e.session_id} name={name} />
        <button type="button" class="icon-button ended-forget" aria-label={t('ended.dismiss', name)} title={t('ended.dismissHint')} onClick={(ev) => forget(ev.currentTarget, e.session_id)}>
          <span class="codicon codicon-close" aria-hidden="true" />
        </button>
      </li>
    );
  };
  return (
    <div class="banner info ended-chats" role="group" aria-label={t('ended.label')}>
      <div class="ended-chats-body">
        <span class="codicon codicon-history" aria-hidden="true" /> {list.length === 1 ? t('ended.heading1') : t('ended.headingN', list.length)}
        <ul class="ended-chat-list">{list.slice(0, SHOWN).map(row)}</ul>
        {list.length > SHOWN && (
          <details class="ended-chats-more">
            <summary>{t('ended.more', list.length - SHOWN)}</summary>
            <ul class="ended-chat-list">{list.slice(SHOWN).map(row)}</ul>
          </details>
        )}
      </div>
    </div>
  );
}
