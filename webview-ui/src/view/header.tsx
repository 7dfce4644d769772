// The bar above the transcript: session list, agent and mode pickers, agent state and the usage
// meter (tokens, cost, context-window utilization).
import { webviewMessage } from '../../../src/protocol/webviewMessages';
import type { AgentModeName } from '../../../src/protocol/common';
import type { Ref } from 'preact';
import { useContext, useEffect, useRef, useState } from 'preact/hooks';
import { formatTokens } from '../format';
import { outsideTranscript, useStore, useStoreSelect } from '../state/useStore';
import type { ChatStore } from '../state/store';
import { t } from '../i18n';
import { idFor } from '../i18n/codes';
import { agentName, unavailableReason } from '../i18n/hostWords';
import { FindContext, isMac } from './findState';

const MODES: AgentModeName[] = ['default', 'plan', 'review'];

/**
 * Issue 15 Why 5 (decision 361): a compact header with visible labels. Row one: the session and
 * its actions (new, delete, share, permission rules); row two: the agent and the mode of the
 * session in front of the user. Row one never wraps (the session select shrinks, the icon buttons
 * never move to a row of their own); row two puts the mode below the agent when both would not
 * fit whole, so the agent's name is never cut ("Built-i…" at 300 px; decision 692).
 */
export function SessionBar() {
  const store = useStoreSelect(outsideTranscript);
  const [rulesOpen, setRulesOpen] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState<string | undefined>(undefined);
  // Cancel or Esc closes the question with focus on one of its buttons: focus goes back to the
  // trash button, not to the page.
  const trash = useRef<HTMLButtonElement>(null);
  const closeDelete = (refocus: boolean) => {
    setConfirmDelete(undefined);
    if (refocus) trash.current?.focus();
  };
  // Esc on the rules button or in the panel closes the panel, focus going back to the button.
  const rulesButton = useRef<HTMLButtonElement>(null);
  const closeRules = () => {
    setRulesOpen(false);
    rulesButton.current?.focus();
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'Escape' || !rulesOpen || e.defaultPrevented) return;
    const target = e.target as Element | null;
    if (target !== rulesButton.current && !target?.closest('.rules-panel')) return;
    e.preventDefault();
    e.stopPropagation();
    closeRules();
  };
  const current = store.activeSessionId ?? store.sessionId;
  const name = store.sessionName ?? store.sessions.find((s) => s.session_id === current)?.name ?? t('header.sessionFallback');
  return (
    // A named group, not a toolbar: its controls are Tab stops, without a toolbar's arrow keys.
    <div class="session-bar" role="group" aria-label={t('header.session')} onKeyDown={onKeyDown}>
      <div class="bar-row">
        <div class="field field-session">
          <label for="session-select">{t('header.session')}</label>
          <select
            id="session-select"
            value={current ?? ''}
            onChange={(e) => {
              const id = (e.target as HTMLSelectElement).value;
              if (id && id !== current) store.transport.send(webviewMessage('session.switch', { session_id: id }));
            }}
          >
            {!current && (
              <option value="" disabled>
                {t('header.chooseSession')}
              </option>
            )}
            {/* A name still its agent's ("Built-in (offline)") is said in the view's language. */}
            {current && !store.sessions.some((s) => s.session_id === current) && <option value={current}>{agentName(name)}</option>}
            {store.sessions.map((s) => (
              <option key={s.session_id} value={s.session_id}>
                {agentName(s.name)}
                {s.shared ? ` · ${t('header.shared')}` : ''}
              </option>
            ))}
          </select>
        </div>
        <div class="bar-actions">
          <button type="button" class="icon-button" aria-label={t('header.newSession')} title={t('header.newSession')} onClick={() => store.transport.send(webviewMessage('session.new', store.selectedAgent ? { agent: store.selectedAgent } : {}))}>
            <span class="codicon codicon-add" aria-hidden="true" />
          </button>
          {current && (
            <button type="button" ref={trash} class="icon-button" aria-label={t('header.deleteSession')} title={t('header.deleteSession')} onClick={() => setConfirmDelete(current)}>
              <span class="codicon codicon-trash" aria-hidden="true" />
            </button>
          )}
          {current && (
            <button type="button" class="icon-button" aria-label={t('header.copyAttach')} title={t('header.share')} onClick={() => store.transport.send(webviewMessage('attach.copyUrl', { session_id: current }))}>
              <span class="codicon codicon-link" aria-hidden="true" />
            </button>
          )}
          <FindButton />
          <RulesButton buttonRef={rulesButton} open={rulesOpen} onToggle={() => setRulesOpen(!rulesOpen)} />
        </div>
      </div>
      <div class="bar-row bar-pickers">
        <AgentPicker />
        <ModePicker />
      </div>
      <AgentOffer />
      {confirmDelete !== undefined && confirmDelete === current && <DeleteConfirm session_id={confirmDelete} name={name} onDone={closeDelete} />}
      {rulesOpen && <RulesPanel />}
    </div>
  );
}

/** Deleting asks first, naming the session (issue 15 Why 8); Cancel has the focus, Esc cancels. */
function DeleteConfirm({ session_id, name, onDone }: { session_id: string; name: string; onDone: (refocus: boolean) => void }) {
  const store = useStore();
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => cancel.current?.focus(), []);
  return (
    <div class="delete-confirm" role="alertdialog" aria-label={t('header.deleteSession')} aria-describedby="delete-confirm-text" onKeyDown={(e) => e.key === 'Escape' && onDone(true)}>
      <span id="delete-confirm-text" class="delete-confirm-text">
        {t('header.deleteConfirm', agentName(name))}
      </span>
      <button
        type="button"
        class="button danger"
        onClick={() => {
          onDone(false);
          store.transport.send(webviewMessage('session.delete', { session_id }));
        }}
      >
        {t('header.deleteYes')}
      </button>
      <button ref={cancel} type="button" class="button secondary" onClick={() => onDone(true)}>
        {t('header.deleteNo')}
      </button>
    </div>
  );
}

/** The agent of the session in front of the user; picking another goes to the host (decision 361). */
function AgentPicker() {
  const store = useStoreSelect(outsideTranscript);
  if (store.agents.length === 0) return null;
  const agent = store.currentAgent() ?? '';
  return (
    <div class="field field-agent">
      <label for="agent-select">{t('header.agent')}</label>
      <select id="agent-select" value={agent} onChange={(e) => store.transport.send(webviewMessage('agent.pick', { agent_id: (e.target as HTMLSelectElement).value }))}>
        {!store.agents.some((a) => a.id === agent) && agent && <option value={agent}>{agent}</option>}
        {store.agents.map((a) => (
          <option key={a.id} value={a.id} disabled={!a.available} title={unavailableReason(a) ?? a.description}>
            {agentName(a.name)}
            {a.available ? '' : ` ${t('header.unavailable')}`}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A session with history keeps its agent: the host's offer of a new session with the picked one. */
function AgentOffer() {
  const store = useStoreSelect(outsideTranscript);
  const offer = store.agentOffer;
  const current = store.activeSessionId ?? store.sessionId;
  if (!offer || offer.session_id !== current) return null;
  const named = store.agents.find((a) => a.id === store.currentAgent())?.name;
  const keeps = named !== undefined ? agentName(named) : (store.currentAgent() ?? '');
  return (
    <div class="agent-offer" role="status">
      <span class="agent-offer-text">{t('header.keepsAgent', keeps)}</span>
      <button
        type="button"
        class="button"
        onClick={() => {
          store.dismissAgentOffer();
          store.transport.send(webviewMessage('session.new', { agent: offer.agent_id }));
        }}
      >
        {t('header.newWith', offer.agent_name)}
      </button>
      <button type="button" class="icon-button" aria-label={t('banner.dismiss')} title={t('banner.dismiss')} onClick={() => store.dismissAgentOffer()}>
        <span class="codicon codicon-close" aria-hidden="true" />
      </button>
    </div>
  );
}

/** Opens Find in chat (decision 524), as Ctrl+F (Cmd+F) does. */
function FindButton() {
  const find = useContext(FindContext);
  if (!find) return null;
  const label = isMac() ? t('find.openMac') : t('find.open');
  return (
    <button type="button" class="icon-button find-open" aria-label={label} title={label} aria-keyshortcuts={isMac() ? 'Meta+F' : 'Control+F'} onClick={() => find.show()}>
      <span class="codicon codicon-search" aria-hidden="true" />
    </button>
  );
}

/** The persisted "always allow" rules of the permission gate, each revocable: the header's button. */
function RulesButton({ open, onToggle, buttonRef }: { open: boolean; onToggle: () => void; buttonRef: Ref<HTMLButtonElement> }) {
  const store = useStoreSelect(outsideTranscript);
  return (
    <button ref={buttonRef} type="button" class="icon-button" aria-controls="rules-panel" aria-label={t('rules.label')} title={t('rules.label')} aria-expanded={open} onClick={onToggle}>
      <span class="codicon codicon-shield" aria-hidden="true" />
      {store.permissionRules.length > 0 && <span class="badge">{store.permissionRules.length}</span>}
    </button>
  );
}

function RulesPanel() {
  const store = useStoreSelect(outsideTranscript);
  return (
    <section id="rules-panel" class="rules-panel" aria-label={t('rules.label')}>
      {store.permissionRules.length === 0 && <p class="muted rules-none">{t('rules.none')}</p>}
      {store.permissionRules.length > 0 && <ul>
        {store.permissionRules.map((r) => {
          // A saved rule holds in the workspace it was granted in, or (written by hand, or saved
          // before decision 708) in every one: the panel lists them all and says which.
          const when = r.lifetime === 'session' ? t('rules.thisSession') : r.workspace ? t('rules.alwaysIn', folderName(r.workspace)) : t('rules.always');
          return (
            <li key={r.id}>
              {r.decision === 'reject' ? t('rules.reject') : t('rules.allow')} <code>{r.tool_name}</code> {r.path_glob ? t('rules.onPath', r.path_glob) : r.command_prefix ? t('rules.command', r.command_prefix) : ''}{' '}
              <span class="muted">({r.created_by ? t('rules.via', when, r.created_by) : when})</span>
              <button type="button" class="button secondary" aria-label={t('rules.revokeFor', r.tool_name)} onClick={() => store.transport.send(webviewMessage('permissionRule.revoke', { rule_id: r.id }))}>
                {t('rules.revoke')}
              </button>
            </li>
          );
        })}
      </ul>}
    </section>
  );
}

/** What the mode picker shows: the peer's features (outside the transcript) and the mode. */
const modeInputs = (s: ChatStore) => [s.metaVersion, s.transcript, s.transcript.mode];

/** §6.3.2: only offered when the peer announced plan_mode (§12.2.1). The engine confirms every
 *  switch (agent.state.changed "mode_switch"), so `/mode review` shows here at once. */
function ModePicker() {
  const store = useStoreSelect(modeInputs);
  const allowed = store.may('control.mode.switch');
  const mode = store.transcript.mode ?? 'default';
  return (
    <div class="field field-mode">
      <label for="mode-select">{t('header.mode')}</label>
      <select
        id="mode-select"
        value={mode}
        disabled={!allowed}
        title={allowed ? t('header.modeTitle') : t('header.noPlanMode')}
        onChange={(e) => store.sendFrame('control.mode.switch', { mode: (e.target as HTMLSelectElement).value as AgentModeName })}
      >
        {MODES.map((m) => (
          <option key={m} value={m}>
            {t(`mode.${m}`)}
          </option>
        ))}
      </select>
    </div>
  );
}

/** What the status bar shows; the cumulative counts and the error counts change in place. */
function statusInputs(s: ChatStore): readonly unknown[] {
  const tx = s.transcript;
  const c = tx.usage.cumulative;
  const e = tx.errorCounts;
  return [s.metaVersion, tx, s.connected, s.sessionId, tx.agentState, tx.deleted, tx.usage.latest, c.input_tokens, c.output_tokens, e.fatal, e.error, e.warning];
}

export function StatusBar() {
  const store = useStoreSelect(statusInputs);
  const tx = store.transcript;
  const state = tx.agentState;
  const u = tx.usage.latest;
  const c = tx.usage.cumulative;
  const ctx = u?.context_window;
  // An ended session is ended, whatever state its agent last reported: an error's end left the
  // footer spinning on "Thinking" (the trial of 2026-12-05).
  const ended = tx.deleted !== undefined;
  const stateWords = ended ? t('status.ended') : state ? t(idFor('state.', state.current, 'state.other')) : t(store.connected ? 'status.connecting' : 'status.notConnected');
  const icon = ended ? 'circle-slash' : state?.current === 'idle' ? 'circle-outline' : state?.current === 'error' ? 'error' : 'loading codicon-modifier-spin';
  const utilization = ctx?.utilization ?? (ctx?.capacity && ctx.used !== undefined ? ctx.used / ctx.capacity : undefined);
  return (
    <div class="status-bar">
      {/* A status, but not read out on every change (thinking, tool_calling, …): the chat's live
          regions tell completed answers, questions and turn ends (decision 390). */}
      <span class={`agent-state state-${ended ? 'ended' : (state?.current ?? 'unknown')}`} role="status" aria-live="off" aria-label={t('status.agentLabel', stateWords)} data-code={ended ? 'ended' : (state?.current ?? '')}>
        <span class={`codicon codicon-${icon}`} aria-hidden="true" />
        {stateWords}
        {state?.synthetic && <span class="badge synthetic" title={t('block.syntheticTitle')}>{t('block.synthetic')}</span>}
      </span>
      {!store.connected && store.sessionId && <span class="badge warning">{t('status.disconnected')}</span>}
      {u && (
        // Named groups and words for a screen reader (aria-label on a plain span is not read: the
        // trial heard "0 in · 0 out $0.0000 1", the 1 an error count).
        <span class="usage" role="group" aria-label={t('status.usage')}>
          <span title={t('status.tokens')}>
            <span class="codicon codicon-symbol-numeric" aria-hidden="true" /> {t('status.tokensInOut', formatTokens(c.input_tokens), formatTokens(c.output_tokens))}
          </span>
          <span title={t('status.cost', u.cost_usage.unit)}>
            <span class="sr-only">{t('status.cost', u.cost_usage.unit)}: </span>
            {u.cost_usage.unit === 'USD' ? '$' : ''}
            {u.cost_usage.used.toFixed(u.cost_usage.unit === 'USD' ? 4 : 0)}
            {u.cost_usage.unit === 'USD' ? '' : ` ${u.cost_usage.unit}`}
            {u.cost_usage.limit >= 0 ? ` / ${u.cost_usage.limit}` : ''}
          </span>
          {utilization !== undefined && (
            <span class="context-meter">
              <span
                class="meter"
                role="meter"
                aria-label={t('status.context')}
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={Math.round(utilization * 100)}
                title={ctx?.capacity ? t('status.contextOf', formatTokens(ctx.used ?? 0), formatTokens(ctx.capacity)) : undefined}
              >
                <span class={`meter-fill${utilization > 0.9 ? ' high' : utilization > 0.7 ? ' mid' : ''}`} style={{ width: `${Math.min(100, utilization * 100)}%` }} />
              </span>
              {Math.round(utilization * 100)}%
            </span>
          )}
        </span>
      )}
      {(tx.errorCounts.fatal > 0 || tx.errorCounts.error > 0 || tx.errorCounts.warning > 0) && (
        <span class="error-counts" role="group" aria-label={t('status.errors')}>
          <CountBadge kind="error" n={tx.errorCounts.fatal + tx.errorCounts.error} words="status.errorCount" />
          <CountBadge kind="warning" n={tx.errorCounts.warning} words="status.warningCount" />
        </span>
      )}
    </div>
  );
}

/** One count of the status bar: its icon and digits on screen, its words for a screen reader and the tooltip. */
function CountBadge({ kind, n, words }: { kind: 'error' | 'warning'; n: number; words: 'status.errorCount' | 'status.warningCount' }) {
  if (n <= 0) return null;
  return (
    <span class={`badge severity-${kind}`} title={t(words, n)}>
      <span class={`codicon codicon-${kind}`} aria-hidden="true" /> <span aria-hidden="true">{n}</span>
      <span class="sr-only">{t(words, n)}</span>
    </span>
  );
}

/** The last name of a workspace folder's path or URI (`/home/me/repo` → `repo`). */
function folderName(workspace: string): string {
  const parts = workspace.split(/[\\/]/).filter(Boolean);
  return parts[parts.length - 1] ?? workspace;
}
