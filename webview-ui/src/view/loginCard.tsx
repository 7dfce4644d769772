// The "not logged in" card (issue 15 Why 4, decision 381): an agent that reported AUTH_REQUIRED
// gets one card with the exact next step — a button that opens a VS Code terminal running the
// agent's login, and one that stores an API key — instead of the CLI's "Please run /login".
// The command is shown as text too, for the browser master (where the buttons only explain that
// they work inside VS Code).
import { agentLogin } from '../../../src/protocol/agentLogin';
import type { ErrorBlock } from '../../../src/protocol/transcript';
import { webviewMessage } from '../../../src/protocol/webviewMessages';
import { useStore } from '../state/useStore';
import { isMessageId } from '../i18n/en';
import { t } from '../i18n';
import { agentName } from '../i18n/hostWords';

/** The agent id an AUTH_REQUIRED error is about (its module names the adapter). */
function agentOf(block: ErrorBlock): string | undefined {
  const m = block.error.details?.module;
  return typeof m === 'string' && m ? m : undefined;
}

export function LoginCard({ block }: { block: ErrorBlock }) {
  const store = useStore();
  const agentId = agentOf(block) ?? '';
  const login = agentLogin(agentId);
  const named = store.agents.find((a) => a.id === agentId)?.name.replace(/\s+\d+\.\d+\.\d+\S*$/, '');
  const name = named !== undefined ? agentName(named) : agentId;
  const headingId = `login-${block.key}`;
  const followId = `login.followUp.${agentId}`;
  const followUp = isMessageId(followId) ? t(followId) : undefined;
  const send = (via: 'terminal' | 'api_key') => store.transport.send(webviewMessage('agent.login', { agent_id: agentId, via }));
  return (
    <section class="block login-card" aria-labelledby={headingId} title={block.error.code}>
      <p id={headingId} class="login-title" role="alert">
        <span class="codicon codicon-account" aria-hidden="true" /> {t('login.title', name)}
      </p>
      {login ? (
        <>
          <p>
            {t('login.terminalStep')} <code>{login.loginDisplay}</code>
            {followUp ? `, ${followUp}` : ''}. {t('login.thenRetry')}
          </p>
          <p class="muted">{t('login.keyStep', login.apiKey.label, name)}</p>
          <div class="login-actions">
            <button type="button" class="button" onClick={() => send('terminal')}>
              <span class="codicon codicon-terminal" aria-hidden="true" /> {t('login.terminalButton')}
            </button>
            <button type="button" class="button secondary" onClick={() => send('api_key')}>
              <span class="codicon codicon-key" aria-hidden="true" /> {t('login.keyButton', login.apiKey.label)}
            </button>
          </div>
        </>
      ) : (
        <p>{block.error.message}</p>
      )}
      {block.error.details?.trace && (
        <details>
          <summary>{t('login.agentSaid')}</summary>
          <pre class="login-trace">{block.error.details.trace}</pre>
        </details>
      )}
    </section>
  );
}
