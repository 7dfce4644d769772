// What an empty session shows (issue 15, first run; decision 383): which agent answers here, and
// how to switch — the header's Agent menu or the palette's "Pick Agent…" — instead of a bare
// "No messages yet". The built-in agent says what it is and how a real agent is found.
import { t } from '../i18n';
import { outsideTranscript, useStoreSelect } from '../state/useStore';

export function FirstRunHint() {
  const store = useStoreSelect(outsideTranscript);
  const id = store.currentAgent();
  const name = store.agents.find((a) => a.id === id)?.name ?? id;
  return (
    <div class="empty-transcript first-run-hint" role="note">
      {name ? <p class="first-run-agent">{t('firstrun.agent', name)}</p> : <p>{t('transcript.empty')}</p>}
      <p>{t('firstrun.switch')}</p>
      {id === 'builtin' && <p class="muted">{t('firstrun.builtin')}</p>}
      <p class="muted">{t('firstrun.tips')}</p>
    </div>
  );
}
