// What an empty session shows (issue 15, first run; decision 383): which agent answers here, and
// how to switch — the header's Agent menu or the palette's "Pick Agent…" — instead of a bare
// "No messages yet". The built-in agent says what it is and how a real agent is found — in the
// browser page, by what applies there (the Agent menu, the host's own command line). The agents
// that cannot run are listed with why, folded (decision 611): the Agent menu's disabled options
// cannot show a tooltip, so their reasons were nowhere to be read.
import { t } from '../i18n';
import { agentName, unavailableReason } from '../i18n/hostWords';
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
      <MissingAgents />
    </div>
  );
}

/** The agents the menu lists as unavailable, each with why, behind a disclosure (closed at first). */
function MissingAgents() {
  const store = useStoreSelect(outsideTranscript);
  const missing = store.agents.filter((a) => !a.available);
  if (missing.length === 0) return null;
  return (
    <details class="first-run-missing">
      <summary>{t('firstrun.missing', missing.length)}</summary>
      <ul>
        {missing.map((a) => (
          <li key={a.id}>
            <span class="first-run-missing-name">{agentName(a.name)}</span>: <CodeSpans text={unavailableReason(a) ?? t('header.unavailable')} />
          </li>
        ))}
      </ul>
    </details>
  );
}

/** `text` with its `backquoted` parts (commands, package names) as code; an unpaired backquote leaves it all text. */
function CodeSpans({ text }: { text: string }) {
  const parts = text.split('`');
  if (parts.length % 2 === 0) return <>{text}</>;
  return <>{parts.map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : part))}</>;
}
