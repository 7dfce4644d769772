// "Continue this conversation" (decisions 630, 641) in the chat: the button in the banner of a
// session an error ended, and the note at the top of the new session that goes on from it. The
// ended session stays ended (§18.2): the button asks the host for a NEW session
// (`session.continue`); the host decides, the same for the editor and the browser master. The note
// reads only the new session's own frames — the link in its `session.capabilities` and the digest
// in its `x-rawp.continued_from.earlier` (src/protocol/continuation.ts), never frames of the
// earlier session — so what it shows here is what every master of that session can show. The
// earlier chat is text from an agent: each message is its own block under a role header it cannot
// write, and characters that would disguise it are shown, not obeyed (visibleName.ts).
import { useState } from 'preact/hooks';
import { continuedFromOf, type ContinuedFrom, type EarlierChat, type EarlierMessage } from '../../../src/protocol/continuation';
import { visibleName } from '../../../src/protocol/visibleName';
import { webviewMessage } from '../../../src/protocol/webviewMessages';
import { locale, t } from '../i18n';
import { idFor } from '../i18n/codes';
import { agentName } from '../i18n/hostWords';
import type { ChatStore } from '../state/store';
import { useStoreSelect } from '../state/useStore';
import '../styles/continuation.css';

/**
 * In the ended banner: a new session with the same agent and its conversation, on request. `name`:
 * a row of the ended-chats list (endedChats.tsx), whose button is short and names its chat.
 */
export function ContinueButton({ store, sessionId, name }: { store: ChatStore; sessionId: string; name?: string }) {
  return (
    <button
      type="button"
      class={name === undefined ? 'button continue-button' : 'button secondary continue-button'}
      {...(name !== undefined ? { 'aria-label': t('ended.continue', name) } : {})}
      title={t('banner.continueHint')}
      onClick={() => {
        store.transport.send(webviewMessage('session.continue', { session_id: sessionId }));
        // The button goes with the ended chat: the keyboard goes on in the prompt box, not <body>.
        document.querySelector<HTMLElement>('.composer .editor')?.focus();
      }}
    >
      <span class="codicon codicon-debug-continue" aria-hidden="true" /> {name === undefined ? t('banner.continue') : t('ended.continueShort')}
    </button>
  );
}

/** The agent's name as the view shows it: the host's list, else its id. */
export function nameOf(store: ChatStore, agent: string): string {
  const named = store.agents.find((a) => a.id === agent)?.name;
  return named !== undefined ? agentName(named) : agent;
}

/** When the earlier chat ended, in the view's language; the raw stamp if it does not read as a date. */
export function when(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : new Intl.DateTimeFormat(locale(), { dateStyle: 'medium', timeStyle: 'short' }).format(d);
}

const ROLE_ICON: Record<EarlierMessage['role'], string> = { user: 'account', agent: 'hubot', error: 'error' };

function Earlier({ from, chat, agent }: { from: ContinuedFrom; chat: EarlierChat | undefined; agent: string }) {
  if (!chat) {
    // The link counts the digest: without it here (a history budget dropped it, or it did not fit
    // this connection), the note says so instead of showing nothing.
    const total = (from.messages ?? 0) + (from.left_out ?? 0);
    return total > 0 ? <p class="muted continued-missing">{t('continued.missing', total)}</p> : null;
  }
  const n = chat.earlier.length;
  const leftOut = chat.left_out ?? 0;
  if (n === 0) return leftOut > 0 ? <p class="muted">{t('continued.leftOut', leftOut)}</p> : null;
  const who = (m: EarlierMessage) => (m.role === 'user' ? t('continued.you') : m.role === 'agent' ? agent : t('continued.error'));
  return (
    <details class="continued-earlier">
      <summary>{n === 1 ? t('continued.earlier1') : t('continued.earlierN', n)}</summary>
      {leftOut > 0 ? <p class="muted">{t('continued.leftOut', leftOut)}</p> : null}
      <ol class="continued-messages" tabIndex={0} aria-label={t('continued.readOnly')}>
        {chat.earlier.map((m, i) => (
          // The role is the block's header and border, never a prefix of its text: a line of the
          // agent's text that reads "You: …" stays inside the agent's block.
          <li key={i} class={`continued-message role-${m.role}`}>
            <div class="continued-who">
              <span class={`codicon codicon-${ROLE_ICON[m.role]}`} aria-hidden="true" />
              {who(m)}
            </div>
            <div class="continued-text">{visibleName(m.text, true)}</div>
          </li>
        ))}
      </ol>
    </details>
  );
}

const noteInputs = (s: ChatStore) => [s.sessionId, s.transcript, s.transcript.capabilities.length, s.agents, s.earlierChats.version];

/** At the top of a session that continues an ended one: which chat, how it ended, what the agent remembers. */
export function ContinuedFromNote() {
  const store = useStoreSelect(noteInputs);
  const [hidden, setHidden] = useState<string | undefined>();
  const from = continuedFromOf(store.transcript.capabilities);
  if (!from || hidden === store.sessionId) return null;
  const agent = nameOf(store, from.agent);
  return (
    <div class="banner info continued-from" role="note" aria-label={t('continued.label')}>
      <div class="continued-body">
        <span class="codicon codicon-history" aria-hidden="true" /> {t('continued.from', from.name, t(idFor('deleted.', from.reason, 'deleted.error')), when(from.ended_at))}{' '}
        {from.resumed ? t('continued.resumed', agent) : t('continued.afresh', agent)}
        <Earlier from={from} chat={store.earlierChats.of(store.sessionId, from)} agent={agent} />
      </div>
      <button type="button" class="icon-button" aria-label={t('banner.dismiss')} onClick={() => setHidden(store.sessionId)}>
        <span class="codicon codicon-close" aria-hidden="true" />
      </button>
    </div>
  );
}
