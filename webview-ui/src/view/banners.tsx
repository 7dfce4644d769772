// Messages above the transcript that must not scroll away: the §7.1.1 truncation warning, the
// session's end (with "Continue this conversation" after an error, decision 630), where a continued
// session came from, host notices; and the task list (§8) above the composer.
import { useState } from 'preact/hooks';
import type { HistoryTruncatedWarning } from '../../../src/protocol/transcript';
import { cutAt } from '../../../src/protocol/cutText';
import { useStoreSelect } from '../state/useStore';
import { t as tr } from '../i18n';
import { codeTooltip, idFor } from '../i18n/codes';
import { noticeParts, noticeText } from '../state/announcements';
import type { ChatStore, Notice } from '../state/store';
import { TodoChecklist } from './outputs';
import { ContinueButton, ContinuedFromNote } from './continuation';
import { EndedChats } from './endedChats';

/** §7.1.1: what was lost, and how — while this view was away, or past the host's history budget. */
function truncationSentence(w: HistoryTruncatedWarning): string {
  const n = w.lostFrameCount;
  if (w.cause === 'budget') return n === undefined ? tr('banner.lostBudget') : n === 1 ? tr('banner.lostBudget1') : tr('banner.lostBudgetN', n);
  return n === undefined ? tr('banner.lostDisconnected') : n === 1 ? tr('banner.lostDisconnected1') : tr('banner.lostDisconnectedN', n);
}

/**
 * A host notice. A refusal names its code (ATTACHMENT_TOO_LARGE, COMMAND_FAILED, …): its sentence
 * first, in the view's language, the code in the tooltip (issue 15 Why 6), then the host's own
 * words, which name the file or the command.
 */
function NoticeText({ notice: n }: { notice: Notice }) {
  // A notice of several lines (/help's list) keeps its lines.
  const { sentence, detail } = noticeParts(n);
  if (sentence === undefined || !n.code) return <span class={detail.includes('\n') ? 'notice-lines' : undefined}>{detail}</span>;
  return (
    <span class="notice-text">
      <span class="notice-sentence" title={codeTooltip(n.code)} data-code={n.code}>
        {sentence}
      </span>
      {detail && <span class="muted notice-detail"> {detail}</span>}
    </span>
  );
}

/** The notices, and the transcript's truncation and end (its lost count changes in place). */
const bannerInputs = (s: ChatStore) => [s.metaVersion, s.transcript, s.transcript.historyTruncated, s.transcript.historyTruncated?.lostFrameCount, s.transcript.deleted, s.sessionId];

export function Banners() {
  const store = useStoreSelect(bannerInputs);
  const t = store.transcript;
  return (
    <div class="banners">
      {t.historyTruncated && (
        <div class="banner warning" role="alert">
          <span class="codicon codicon-warning" aria-hidden="true" /> {truncationSentence(t.historyTruncated)} {tr('banner.truncated')}
        </div>
      )}
      {t.deleted && (
        <div class="banner info ended" role="status">
          <span>
            <span class="codicon codicon-trash" aria-hidden="true" /> {tr('banner.deleted', tr(idFor('deleted.', t.deleted.reason, 'deleted.error')))}
          </span>
          {/* An error's end (an agent's crash, a CLI that exits on an API error, §18.2) may be
              continued in a new session; one the user or a master ended was meant to end (decision 630). */}
          {t.deleted.reason === 'error' && store.sessionId !== undefined && <ContinueButton store={store} sessionId={store.sessionId} />}
        </div>
      )}
      <ContinuedFromNote />
      <EndedChats store={store} />
      {store.notices.map((n) => (
        // Not role=status: the polite live region says the notice (liveRegions.tsx, decision 605),
        // which a region added with its text inside is often not; an error stays an alert.
        <div key={n.id} class={`banner ${n.level}`} role={n.level === 'error' ? 'alert' : undefined}>
          <NoticeText notice={n} />
          {/* Named by its notice: stacked notices had several buttons all called "Dismiss". */}
          <button type="button" class="icon-button" aria-label={tr('banner.dismissNotice', shortLine(noticeText(n)))} onClick={() => store.dismissNotice(n.id)}>
            <span class="codicon codicon-close" aria-hidden="true" />
          </button>
        </div>
      ))}
    </div>
  );
}

const todoInputs = (s: ChatStore) => [s.transcript, s.transcript.todos];

export function TodoPanel() {
  const store = useStoreSelect(todoInputs);
  const todos = store.transcript.todos;
  const [open, setOpen] = useState(true);
  if (!todos || todos.items.length === 0) return null;
  const done = todos.items.filter((i) => i.status === 'completed').length;
  return (
    <section class="todo-panel" aria-label={tr('tasks.label')}>
      <button type="button" class="todo-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
        <span class={`codicon codicon-chevron-${open ? 'down' : 'right'}`} aria-hidden="true" /> {tr('tasks.toggle', done, todos.items.length)}
      </button>
      {open && <TodoChecklist items={todos.items} label={tr('tasks.list')} />}
    </section>
  );
}

/** A notice's first line, cut to a name's length. */
function shortLine(text: string): string {
  const line = text.split('\n', 1)[0];
  return line.length > 60 ? `${cutAt(line, 59)}…` : line;
}
