// The bar above the transcript: session list, agent and mode pickers, agent state and the usage
// meter (tokens, cost, context-window utilization).
import { webviewMessage } from '../../../src/protocol/webviewMessages';
import type { AgentModeName } from '../../../src/protocol/common';
import { useState } from 'preact/hooks';
import { formatTokens } from '../format';
import { useStoreVersion } from '../state/useStore';

const MODES: AgentModeName[] = ['default', 'plan', 'review'];

export function SessionBar() {
  const store = useStoreVersion();
  const current = store.activeSessionId ?? store.sessionId;
  const name = store.sessionName ?? store.sessions.find((s) => s.session_id === current)?.name ?? 'Session';
  return (
    <div class="session-bar" role="toolbar" aria-label="Session">
      <label class="sr-only" for="session-select">
        Session
      </label>
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
            Choose a session…
          </option>
        )}
        {current && !store.sessions.some((s) => s.session_id === current) && <option value={current}>{name}</option>}
        {store.sessions.map((s) => (
          <option key={s.session_id} value={s.session_id}>
            {s.name}
            {s.agent ? ` · ${s.agent}` : ''}
            {s.shared ? ' · shared' : ''}
          </option>
        ))}
      </select>
      <button type="button" class="icon-button" aria-label="New session" title="New session" onClick={() => store.transport.send(webviewMessage('session.new', store.selectedAgent ? { agent: store.selectedAgent } : {}))}>
        <span class="codicon codicon-add" aria-hidden="true" />
      </button>
      {store.agents.length > 0 && (
        <>
          <label class="sr-only" for="agent-select">
            Agent
          </label>
          <select id="agent-select" value={store.selectedAgent ?? ''} onChange={(e) => store.transport.send(webviewMessage('agent.pick', { agent_id: (e.target as HTMLSelectElement).value }))}>
            {store.agents.map((a) => (
              <option key={a.id} value={a.id} disabled={!a.available} title={a.unavailable_reason ?? a.description}>
                {a.name}
                {a.available ? '' : ' (unavailable)'}
              </option>
            ))}
          </select>
        </>
      )}
      <ModePicker />
      {current && (
        <button type="button" class="icon-button" aria-label="Delete this session" title="Delete this session" onClick={() => store.transport.send(webviewMessage('session.delete', { session_id: current }))}>
          <span class="codicon codicon-trash" aria-hidden="true" />
        </button>
      )}
      {current && (
        <button type="button" class="icon-button" aria-label="Copy attach URL" title="Share: copy attach URL" onClick={() => store.transport.send(webviewMessage('attach.copyUrl', { session_id: current }))}>
          <span class="codicon codicon-link" aria-hidden="true" />
        </button>
      )}
      <RulesToggle />
    </div>
  );
}

/** The persisted "always allow" rules of the permission gate, each revocable. */
function RulesToggle() {
  const store = useStoreVersion();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" class="icon-button" aria-label="Permission rules" title="Permission rules" aria-expanded={open} onClick={() => setOpen(!open)}>
        <span class="codicon codicon-shield" aria-hidden="true" />
        {store.permissionRules.length > 0 && <span class="badge">{store.permissionRules.length}</span>}
      </button>
      {open && (
        <section class="rules-panel" aria-label="Permission rules">
          {store.permissionRules.length === 0 && <div class="muted">No permission rules: every ask is shown.</div>}
          <ul>
            {store.permissionRules.map((r) => (
              <li key={r.id}>
                {r.decision === 'reject' ? 'Reject ' : 'Allow '}
                <code>{r.tool_name}</code> {r.path_glob ? `on ${r.path_glob}` : r.command_prefix ? `“${r.command_prefix}”, alone or with more plain arguments` : ''} <span class="muted">({r.lifetime === 'session' ? 'this session' : 'always'}{r.created_by ? `, via ${r.created_by}` : ''})</span>
                <button type="button" class="button secondary" aria-label={`Revoke rule for ${r.tool_name}`} onClick={() => store.transport.send(webviewMessage('permissionRule.revoke', { rule_id: r.id }))}>
                  Revoke
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}

/** §6.3.2: only offered when the peer announced plan_mode (§12.2.1). */
function ModePicker() {
  const store = useStoreVersion();
  const allowed = store.may('control.mode.switch');
  const mode = store.transcript.mode ?? 'default';
  return (
    <>
      <label class="sr-only" for="mode-select">
        Mode
      </label>
      <select
        id="mode-select"
        value={mode}
        disabled={!allowed}
        title={allowed ? 'Agent mode' : 'This agent has no plan mode'}
        onChange={(e) => store.sendFrame('control.mode.switch', { mode: (e.target as HTMLSelectElement).value as AgentModeName })}
      >
        {MODES.map((m) => (
          <option key={m} value={m}>
            {m}
          </option>
        ))}
      </select>
    </>
  );
}

export function StatusBar() {
  const store = useStoreVersion();
  const t = store.transcript;
  const state = t.agentState;
  const u = t.usage.latest;
  const c = t.usage.cumulative;
  const ctx = u?.context_window;
  const utilization = ctx?.utilization ?? (ctx?.capacity && ctx.used !== undefined ? ctx.used / ctx.capacity : undefined);
  return (
    <div class="status-bar">
      <span class={`agent-state state-${state?.current ?? 'unknown'}`} role="status" aria-live="polite" aria-label={`Agent ${state?.current ?? 'not connected'}`}>
        <span class={`codicon codicon-${state?.current === 'idle' ? 'circle-outline' : state?.current === 'error' ? 'error' : 'loading codicon-modifier-spin'}`} aria-hidden="true" />
        {state?.current ?? (store.connected ? 'connecting' : 'not connected')}
        {state?.synthetic && <span class="badge synthetic">synthetic</span>}
      </span>
      {!store.connected && store.sessionId && <span class="badge warning">disconnected</span>}
      {u && (
        <span class="usage" aria-label="Usage">
          <span title="Tokens in / out this session">
            <span class="codicon codicon-symbol-numeric" aria-hidden="true" /> {formatTokens(c.input_tokens)} in · {formatTokens(c.output_tokens)} out
          </span>
          <span title={`Cost (${u.cost_usage.unit})`}>
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
                aria-label="Context window used"
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={Math.round(utilization * 100)}
                title={ctx?.capacity ? `${formatTokens(ctx.used ?? 0)} of ${formatTokens(ctx.capacity)} tokens` : undefined}
              >
                <span class={`meter-fill${utilization > 0.9 ? ' high' : utilization > 0.7 ? ' mid' : ''}`} style={{ width: `${Math.min(100, utilization * 100)}%` }} />
              </span>
              {Math.round(utilization * 100)}%
            </span>
          )}
        </span>
      )}
      {(t.errorCounts.fatal > 0 || t.errorCounts.error > 0 || t.errorCounts.warning > 0) && (
        <span class="error-counts" aria-label="Errors">
          {t.errorCounts.fatal + t.errorCounts.error > 0 && (
            <span class="badge severity-error">
              <span class="codicon codicon-error" aria-hidden="true" /> {t.errorCounts.fatal + t.errorCounts.error}
            </span>
          )}
          {t.errorCounts.warning > 0 && (
            <span class="badge severity-warning">
              <span class="codicon codicon-warning" aria-hidden="true" /> {t.errorCounts.warning}
            </span>
          )}
        </span>
      )}
    </div>
  );
}
