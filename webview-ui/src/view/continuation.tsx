// "Continue this conversation" (decision 630) in the chat: the button in the banner of a session an
// error ended, and the note at the top of the new session that goes on from it. The ended session
// stays ended (§18.2): the button asks the host for a NEW session (`session.continue`); the host
// decides, the same for the editor and the browser master. The note reads only the new session's
// own `session.capabilities` (src/protocol/continuation.ts) — never frames of the earlier session —
// so what it shows here is what every master of that session can show.
import { useState } from 'preact/hooks';
import { continuedFromOf, type ContinuedFrom, type EarlierMessage } from '../../../src/protocol/continuation';
import { webviewMessage } from '../../../src/protocol/webviewMessages';
import { locale, t } from '../i18n';
import { idFor } from '../i18n/codes';
import { agentName } from '../i18n/hostWords';
import type { ChatStore } from '../state/store';
import { useStoreSelect } from '../state/useStore';
import '../styles/continuation.css';

/** In the ended banner: a new session with the same agent and its conversation, on request. */
export function ContinueButton({ store, sessionId }: { store: ChatStore; sessionId: string }) {
  return (
    <button type="button" class="button continue-button" title={t('banner.continueHint')} onClick={() => store.transport.send(webviewMessage('session.continue', { session_id: sessionId }))}>
      <span class="codicon codicon-debug-continue" aria-hidden="true" /> {t('banner.continue')}
    </button>
  );
}

/** The agent's name as the view shows it: the host's list, else its id. */
function nameOf(store: ChatStore, agent: string): string {
  const named = store.agents.find((a) => a.id === agent)?.name;
  return named !== undefined ? agentName(named) : agent;
}

/** When the earlier chat ended, in the view's language; the raw stamp if it does not read as a date. */
function when(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : new Intl.DateTimeFormat(locale(), { dateStyle: 'medium', timeStyle: 'short' }).format(d);
}

function Earlier({ from, agent }: { from: ContinuedFrom; agent: string }) {
  const n = from.earlier.length;
  if (n === 0 && !from.left_out) return null;
  const who = (m: EarlierMessage) => (m.role === 'user' ? t('continued.you') : m.role === 'agent' ? agent : t('continued.error'));
  return (
    <details class="continued-earlier">
      <summary>{n === 1 ? t('continued.earlier1') : t('continued.earlierN', n)}</summary>
      {from.left_out ? <p class="muted">{t('continued.leftOut', from.left_out)}</p> : null}
      <ol class="continued-messages" tabIndex={0} aria-label={t('continued.readOnly')}>
        {from.earlier.map((m, i) => (
          <li key={i} class={`continued-message role-${m.role}`}>
            <span class="continued-who">{who(m)}:</span> <span class="continued-text">{m.text}</span>
          </li>
        ))}
      </ol>
    </details>
  );
}

const noteInputs = (s: ChatStore) => [s.sessionId, s.transcript, s.transcript.capabilities.length, s.agents];

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
        <Earlier from={from} agent={agent} />
      </div>
      <button type="button" class="icon-button" aria-label={t('banner.dismiss')} onClick={() => setHidden(store.sessionId)}>
        <span class="codicon codicon-close" aria-hidden="true" />
      </button>
    </div>
  );
}
