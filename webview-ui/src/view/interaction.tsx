// §4.3 interaction requests of all five types, with risk badges, the default value, a countdown
// to timeout_sec, and the answer sent as control.interaction.response (§6.2.1). Permission options
// are whatever the agent offers; the built-in gate's values (allow_once, allow_session,
// allow_always, reject) get the reject-with-message field, like Claude Code's "tell it why".
// A question that is cancelled, whose turn ended, that another master answered (the reducer) or
// whose own deadline passed (here, by the clock) retires at once: no live buttons, no countdown.
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import type { InteractionBlock } from '../../../src/protocol/transcript';
import { formatCountdown, showJson } from '../format';
import type { ChatStore } from '../state/store';
import { useStore } from '../state/useStore';
import { t, type MessageId } from '../i18n';
import { codeTooltip } from '../i18n/codes';
import { permissionDescription } from '../i18n/hostWords';
import { en } from '../i18n/en';
import { questionText } from '../i18n/questions';
import { isReject, questionRisk, RiskBadge, riskOf, type Option } from './optionRisk';


/** Milliseconds until the question's own timeout_sec runs out here; Infinity without a deadline. */
export function msLeft(store: ChatStore, block: InteractionBlock, now = Date.now()): number {
  const timeout = block.request.timeout_sec;
  if (!(timeout > 0)) return Number.POSITIVE_INFINITY;
  const seen = store.interactionSeenAt.get(block.interactionId) ?? now;
  return seen + timeout * 1000 - now;
}

/** Still answerable: pending in the transcript and its deadline not passed (the client has let it go). */
export function isLive(store: ChatStore, block: InteractionBlock, now = Date.now()): boolean {
  return block.status === 'pending' && msLeft(store, block, now) > 0;
}

export function answerInteraction(store: ChatStore, block: InteractionBlock, selected: string | string[], textInput?: string): void {
  if (!isLive(store, block)) return;
  store.sendFrame('control.interaction.response', {
    interaction_id: block.interactionId,
    selected_value: selected,
    ...(textInput !== undefined && textInput.length > 0 ? { text_input: textInput } : {}),
  });
}

/** Our permission broker's option values (src/session/permissions) in the reader's language; an
 *  agent's own options keep the agent's labels. */
const PERMISSION_LABELS: Record<string, MessageId> = {
  allow_once: 'permission.allow_once',
  allow_session: 'permission.allow_session',
  allow_always: 'permission.allow_always',
  reject: 'permission.reject',
  reject_always: 'permission.reject_always',
};

/** The host's plan approval's options (§9.2, decision 639), recognised by their English words. */
const PLAN_LABELS: readonly MessageId[] = ['plan.approve', 'plan.keep'];

export function optionLabel(block: InteractionBlock, o: Option): string {
  const id = block.request.interaction_type === 'PERMISSION' ? PERMISSION_LABELS[o.value] : block.request.interaction_type === 'YN' ? PLAN_LABELS.find((p) => en[p] === o.label) : undefined;
  return id ? t(id) : o.label;
}

/** The option's description: our broker's English ("Saved rule for every workspace: …") in the reader's language, the
 *  rule itself as written; an agent's own description as the agent wrote it. */
export function optionDescription(block: InteractionBlock, o: Option): string | undefined {
  if (o.description === undefined) return undefined;
  return block.request.interaction_type === 'PERMISSION' && PERMISSION_LABELS[o.value] ? permissionDescription(o.description) : o.description;
}

// The question in the reader's language lives with the words (the announcer says the same).
export { questionText } from '../i18n/questions';

const KINDS: Record<InteractionBlock['request']['interaction_type'], MessageId> = {
  PERMISSION: 'kind.PERMISSION',
  YN: 'kind.YN',
  SELECT: 'kind.SELECT',
  MULTI_SELECT: 'kind.MULTI_SELECT',
  TEXT_INPUT: 'kind.TEXT_INPUT',
};

function Countdown({ block }: { block: InteractionBlock }) {
  const store = useStore();
  const timeout = block.request.timeout_sec;
  const seen = store.interactionSeenAt.get(block.interactionId) ?? Date.now();
  const left = () => timeout - (Date.now() - seen) / 1000;
  const [remaining, setRemaining] = useState(left());
  useEffect(() => {
    if (timeout <= 0 || block.status !== 'pending') return;
    const t = setInterval(() => setRemaining(left()), 1000);
    return () => clearInterval(t);
  }, [block.status, timeout]);
  if (timeout <= 0 || block.status !== 'pending') return null;
  const def = block.request.default_value;
  const defOption = def === undefined ? undefined : block.request.options?.find((o) => o.value === def);
  const defLabel = def === undefined ? undefined : defOption ? optionLabel(block, defOption) : def;
  // §17.3.1: silence never grants a permission, whatever its default says.
  const then = block.request.interaction_type === 'PERMISSION' ? t('interaction.thenRejected') : defLabel !== undefined ? t('interaction.thenDefault', defLabel) : undefined;
  return (
    <div class="countdown" role="timer" aria-label={t('interaction.timeLeft')}>
      <span class="codicon codicon-clock" aria-hidden="true" /> {t('interaction.left', formatCountdown(Math.max(0, remaining)))}
      {then !== undefined && <span class="muted"> · {then}</span>}
    </div>
  );
}

function defaultOptions(block: InteractionBlock): Option[] {
  const given = block.request.options ?? [];
  if (given.length > 0) return given;
  if (block.request.interaction_type === 'YN') return [{ value: 'yes', label: t('interaction.yes') }, { value: 'no', label: t('interaction.no') }];
  return [];
}

const RETIRED: Record<NonNullable<InteractionBlock['retiredBy']>, MessageId> = {
  cancelled: 'interaction.retired.cancelled',
  turn_ended: 'interaction.retired.turn_ended',
  not_open: 'interaction.retired.not_open',
  host_restart: 'interaction.retired.host_restart',
};

function AnswerSummary({ block, expired }: { block: InteractionBlock; expired: boolean }) {
  const options = defaultOptions(block);
  if (block.status === 'answered' && block.response) {
    const values = Array.isArray(block.response.selectedValue) ? block.response.selectedValue : [block.response.selectedValue];
    const labels = values.map((v) => { const o = options.find((x) => x.value === v); return o ? optionLabel(block, o) : v; }).join(', ');
    return (
      <div class="answer" role="status">
        <span class="codicon codicon-pass" aria-hidden="true" /> {t('interaction.answered')} <strong>{labels}</strong>
        {block.response.textInput && <span class="muted"> — “{block.response.textInput}”</span>}
      </div>
    );
  }
  if (block.status === 'timed_out' || (block.status === 'pending' && expired))
    return (
      <div class="answer muted" role="status">
        <span class="codicon codicon-clock" aria-hidden="true" /> {t(block.request.interaction_type === 'PERMISSION' ? 'interaction.noAnswerRejected' : 'interaction.noAnswer')}
      </div>
    );
  if (block.status === 'discarded' && block.retiredBy)
    return (
      <div class="answer muted" role="status">
        <span class="codicon codicon-circle-slash" aria-hidden="true" /> {t(block.retiredBy === 'host_restart' && block.request.interaction_type !== 'PERMISSION' ? 'interaction.retired.host_restart_question' : RETIRED[block.retiredBy])}
      </div>
    );
  if (block.status === 'discarded')
    return (
      <div class="answer muted" role="status">
        {t('interaction.dismissed')} {block.synthetic && <span class="badge synthetic" title={t('block.syntheticTitle')}>{t('block.synthetic')}</span>}
      </div>
    );
  return null;
}

function Choices({ block }: { block: InteractionBlock }) {
  const store = useStore();
  const req = block.request;
  const options = defaultOptions(block);
  const [message, setMessage] = useState('');
  const [selected, setSelected] = useState<string[]>(req.default_value !== undefined ? [req.default_value] : []);
  const [text, setText] = useState(req.default_value ?? '');
  const ids = useId();

  if (req.interaction_type === 'TEXT_INPUT') {
    return (
      <form
        class="interaction-form"
        onSubmit={(e) => {
          e.preventDefault();
          answerInteraction(store, block, text, text);
        }}
      >
        <textarea aria-label={req.question_text} value={text} onInput={(e) => setText((e.target as HTMLTextAreaElement).value)} rows={3} />
        <button type="submit" class="button">
          {t('interaction.sendAnswer')}
        </button>
      </form>
    );
  }
  if (req.interaction_type === 'SELECT' || req.interaction_type === 'MULTI_SELECT') {
    const multi = req.interaction_type === 'MULTI_SELECT';
    return (
      <form
        class="interaction-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (selected.length === 0) return;
          answerInteraction(store, block, multi ? selected : selected[0]);
        }}
      >
        <fieldset>
          <legend class="sr-only">{req.question_text}</legend>
          {options.map((o) => (
            <label key={o.value} class="choice">
              <input
                type={multi ? 'checkbox' : 'radio'}
                name={`i-${block.interactionId}`}
                value={o.value}
                checked={selected.includes(o.value)}
                onChange={(e) => {
                  const on = (e.target as HTMLInputElement).checked;
                  setSelected(multi ? (on ? [...selected, o.value] : selected.filter((v) => v !== o.value)) : [o.value]);
                }}
              />
              <span>{optionLabel(block, o)}</span>
              <RiskBadge level={riskOf(o)} />
              {o.value === req.default_value && <span class="badge">{t('interaction.default')}</span>}
              {o.description && <span class="muted option-description">{optionDescription(block, o)}</span>}
            </label>
          ))}
        </fieldset>
        <button type="submit" class="button" disabled={selected.length === 0}>
          {multi ? t('interaction.submitN', selected.length) : t('interaction.submit')}
        </button>
      </form>
    );
  }
  // YN and PERMISSION: one button per option; one click answers (issue 15 Why 7: Reject used to
  // open a second form with a second Reject button). The optional reason is typed beforehand.
  const reasonable = req.interaction_type === 'PERMISSION' && options.some(isReject);
  return (
    <div class="interaction-buttons">
      {options.map((o, i) => {
        // The button is named by its option alone ("Reject", not "Reject Low risk default"): the
        // badges stay on screen but out of the name (aria-hidden), and with the description are
        // what it is described by (decision 605). Label in Name (WCAG 2.5.3) holds: the only
        // text the name is computed from is the label.
        const id = `${ids}-${i}`;
        const description = optionDescription(block, o);
        const isDefault = o.value === req.default_value;
        const describedBy = [riskOf(o) && `${id}-risk`, isDefault && `${id}-default`, description && `${id}-description`].filter(Boolean).join(' ');
        return (
          <button
            key={o.value}
            type="button"
            class={`button option${isReject(o) ? ' secondary' : ''}${riskOf(o) === 'dangerous' ? ' danger' : ''}`}
            data-value={o.value}
            title={description}
            aria-describedby={describedBy || undefined}
            onClick={() => answerInteraction(store, block, o.value, reasonable && isReject(o) ? message.trim() : undefined)}
          >
            {optionLabel(block, o)}
            <RiskBadge level={riskOf(o)} id={`${id}-risk`} />
            {isDefault && <span id={`${id}-default`} class="badge" aria-hidden="true">{t('interaction.default')}</span>}
            {description && <span id={`${id}-description`} hidden>{description}</span>}
          </button>
        );
      })}
      {reasonable && (
        <input
          type="text"
          class="reject-reason"
          aria-label={t('interaction.reasonLabel')}
          placeholder={t('interaction.reasonPlaceholder')}
          value={message}
          onInput={(e) => setMessage((e.target as HTMLInputElement).value)}
          onKeyDown={(e) => {
            if (e.key !== 'Enter') return;
            e.preventDefault();
            const reject = options.find(isReject);
            if (reject) answerInteraction(store, block, reject.value, message.trim());
          }}
        />
      )}
    </div>
  );
}

/**
 * True once the question's own deadline has passed; re-renders the component at that moment. No
 * question (a tool card that was never asked about) never expires.
 */
function useExpired(block: InteractionBlock | undefined): boolean {
  const store = useStore();
  const [tick, setTick] = useState(0);
  const expired = block !== undefined && msLeft(store, block) <= 0;
  useEffect(() => {
    if (!block || expired || block.status !== 'pending') return;
    const left = msLeft(store, block);
    if (!Number.isFinite(left)) return;
    // The deadline is on the wall clock, the timer on a monotonic one: a tick that finds time left
    // (the clock stepped back, a timer early by a millisecond) arms the next one.
    const t = setTimeout(() => setTick((n) => n + 1), Math.min(Math.max(1, left), 2 ** 31 - 1));
    return () => clearTimeout(t);
  }, [block?.interactionId, block?.status, expired, tick]);
  return expired;
}

/** True while the question can still be answered (pending and within its deadline). */
export function useLive(block: InteractionBlock): boolean {
  const expired = useExpired(block);
  return block.status === 'pending' && !expired;
}

/**
 * The call's permission question is over without an answer: its own deadline passed (the host's
 * timeout frame may still be on its way) or the host said it timed out. Our broker rejects then.
 */
export function useUnansweredPermission(asking: InteractionBlock | undefined): boolean {
  const expired = useExpired(asking);
  return asking !== undefined && asking.request.interaction_type === 'PERMISSION' && (asking.status === 'timed_out' || (asking.status === 'pending' && expired));
}

/** The buttons vanish when a question retires (answered, expired): keep keyboard focus on the
 *  question's own box, not on <body> — for the card and for a plan's approval alike. */
export function useFocusOnRetire(live: boolean, box: { current: HTMLElement | null }): void {
  const wasLive = useRef(live);
  useEffect(() => {
    if (wasLive.current && !live && box.current && (document.activeElement === document.body || document.activeElement === null)) box.current.focus();
    wasLive.current = live;
  }, [live]);
}

export function InteractionCard({ block }: { block: InteractionBlock }) {
  const req = block.request;
  const live = useLive(block);
  const card = useRef<HTMLElement>(null);
  useFocusOnRetire(live, card);
  const ctx = req.context;
  const maxRisk = questionRisk(req.options ?? []);
  return (
    <section ref={card} data-interaction={block.interactionId} tabIndex={live ? 0 : -1} class={`block interaction status-${live ? 'pending' : block.status === 'pending' ? 'expired' : block.status} type-${req.interaction_type}`} role="group" aria-label={t(req.interaction_type === 'PERMISSION' ? 'interaction.permissionLabel' : 'interaction.questionLabel', questionText(block))}>
      <div class="interaction-head">
        <span class={`codicon codicon-${req.interaction_type === 'PERMISSION' ? 'shield' : 'question'}`} aria-hidden="true" />
        <span class="badge kind" title={codeTooltip(req.interaction_type)} data-code={req.interaction_type}>
          {t(req.interaction_type === 'PERMISSION' && !live ? 'kind.PERMISSION.closed' : KINDS[req.interaction_type])}
        </span>
        <RiskBadge level={maxRisk} />
        <span class="question" title={questionText(block)}>
          {questionText(block)}
        </span>
      </div>
      {ctx && (ctx.tool_name || ctx.affected_paths?.length) && (
        <div class="interaction-context muted">
          {ctx.tool_name && <code>{ctx.tool_name}</code>} {ctx.affected_paths?.join(', ')}
          {ctx.tool_input && (
            <details>
              <summary>{t('interaction.input')}</summary>
              <pre class="output-text">{showJson(ctx.tool_input)}</pre>
            </details>
          )}
        </div>
      )}
      <InteractionControls block={block} />
    </section>
  );
}

/** The answerable part of a question (countdown and choices), or what became of it. A plan shows
 *  its approval question with this, inside the plan (§9.2). */
export function InteractionControls({ block }: { block: InteractionBlock }) {
  const expired = useExpired(block);
  return block.status === 'pending' && !expired ? (
    <>
      <Countdown block={block} />
      <Choices block={block} />
    </>
  ) : (
    <AnswerSummary block={block} expired={expired} />
  );
}
