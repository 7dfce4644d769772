// What an empty session shows (issue 15, first run; decision 383): which agent answers here, and
// how to switch — the header's Agent menu or the palette's "Pick Agent…" — instead of a bare
// "No messages yet". The built-in agent says what it is and how a real agent is found — in the
// browser page, by what applies there (the Agent menu, the host's own command line).
import { t } from '../i18n';
import { agentName } from '../i18n/hostWords';
import { outsideTranscript, useStoreSelect } from '../state/useStore';

export function FirstRunHint() {
  const store = useStoreSelect(outsideTranscript);
  const id = store.currentAgent();
  const named = store.agents.find((a) => a.id === id)?.name;
  const name = named !== undefined ? agentName(named) : id;
  // The browser page has no command palette and no settings: say what applies there (decision 607).
  const browser = store.transport.place === 'browser';
  return (
    <div class="empty-transcript first-run-hint" role="note">
      {name ? <p class="first-run-agent">{t('firstrun.agent', name)}</p> : <p>{t('transcript.empty')}</p>}
      <p>{t(browser ? 'firstrun.switch.browser' : 'firstrun.switch')}</p>
      {id === 'builtin' && <p class="muted">{t(browser ? 'firstrun.builtin.browser' : 'firstrun.builtin')}</p>}
      <p class="muted">{t('firstrun.tips')}</p>
    </div>
  );
}
