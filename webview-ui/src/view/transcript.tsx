// The virtualized transcript (@tanstack/virtual-core): only rows near the viewport are in the DOM,
// rows are measured as they render, and the list follows new output while the reader is at the
// bottom (anchorTo "end"). The list is a log, but not a live region: streamed text would be read
// token by token; liveRegions.tsx announces completed answers, questions and turn ends (decision 390).
import { Virtualizer, elementScroll, observeElementOffset, observeElementRect } from '@tanstack/virtual-core';
import { memo } from './memo';
import { useCallback, useContext, useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState } from 'preact/hooks';
import type { Turn } from '../../../src/protocol/transcript';
import { releaseStructuredOutput } from '../../../src/protocol/structuredOutput';
import { viewRevalidate } from '../../../src/protocol/viewRevalidate';
import { formatTokens } from '../format';
import { useStoreSelect, useStoreVersion } from '../state/useStore';
import { t } from '../i18n';
import { codeTooltip, idFor } from '../i18n/codes';
import { BlockView } from './blocks';
import { CheckpointFooter } from './checkpointFooter';
import { FirstRunHint } from './firstRunHint';
import { RowBoundary } from './boundary';
import { buildRows, sameKeys, type Row } from './rows';
import { estimateRowSize } from './rowEstimate';
import { useFeedKeys } from './feedKeys';
import { FindContext } from './findState';
import type { ChatStore } from '../state/store';

const TurnStart = memo(
  function TurnStart({ turn, index }: { turn: Turn; index: number; rev: number }) {
    return (
      <div class="turn-separator" role="separator" aria-label={t('turn.label', index + 1)}>
        <span>{t('turn.label', index + 1)}</span>
        {turn.mode && turn.mode !== 'default' && <span class="badge">{t('mode.badge', t(idFor('mode.', turn.mode, 'mode.default')))}</span>}
        {turn.implicit && <span class="badge" title={t('turn.partialTitle')}>{t('turn.partial')}</span>}
      </div>
    );
  },
  (a, b) => a.turn === b.turn && a.rev === b.rev,
);

const TurnEnd = memo(
  function TurnEnd({ turn }: { turn: Turn; rev: number }) {
    const u = turn.usage?.token_usage;
    return (
      <div class={`turn-end stop-${turn.stopReason ?? 'none'}`}>
        {/* Issue 15 Why 6: the stop reason as a sentence; the protocol value in the tooltip. */}
        <span class="muted" title={turn.stopReason ? codeTooltip(turn.stopReason) : undefined} data-code={turn.stopReason ?? ''}>
          {t(idFor('stop.', turn.stopReason, 'stop.unknown'))}
          {turn.toolInvocationCount ? ` · ${turn.toolInvocationCount === 1 ? t('turn.toolCalls1') : t('turn.toolCallsN', turn.toolInvocationCount)}` : ''}
          {u ? ` · ${t('turn.tokens', formatTokens(u.input_tokens), formatTokens(u.output_tokens))}` : ''}
        </span>
        {turn.synthetic && <span class="badge synthetic" title={t('block.syntheticTitle')}>{t('block.synthetic')}</span>}
        {turn.structuredOutput && (
          <span class={`badge validation-${turn.structuredOutput.validation_status}`} data-code={turn.structuredOutput.validation_status}>
            {t('turn.structured', t(idFor('validation.', turn.structuredOutput.validation_status, 'validation.failed')))}
          </span>
        )}
        {turn.structuredOutput && <StructuredOutputView turn={turn} />}
        {(turn.checkpoint || turn.unrecorded) && <CheckpointFooter turn={turn} />}
      </div>
    );
  },
  (a, b) => a.turn === b.turn && a.rev === b.rev,
);

/** The JSON Schema the prompt of this turn asked for (config_overrides.json_schema), if any. */
function requestedSchema(turn: Turn): Record<string, unknown> | undefined {
  const timeline = useStoreVersion().transcript.timeline;
  const at = timeline.indexOf(turn);
  for (let i = at - 1; i >= 0; i--) {
    const entry = timeline[i];
    if (entry.kind === 'prompt') return entry.prompt.config_overrides?.json_schema;
    if (entry.kind === 'turn') return undefined;
  }
  return undefined;
}

/** §15.4: the data is shown (and so can be copied) only once released; failed data is re-validated. */
function StructuredOutputView({ turn }: { turn: Turn }) {
  const schema = requestedSchema(turn);
  const release = releaseStructuredOutput(turn.structuredOutput!, schema ? viewRevalidate(schema) : undefined);
  if (!release.released) return <p class="structured-withheld" role="note">{t('turn.structuredWithheld', release.reason)}</p>;
  return (
    <details class="structured-output">
      <summary>{release.revalidated ? t('turn.structuredRevalidated') : t('turn.structuredSummary')}</summary>
      <pre>{JSON.stringify(release.data, null, 2)}</pre>
    </details>
  );
}

function RowView({ row }: { row: Row }) {
  switch (row.kind) {
    case 'turn-start':
      return <TurnStart turn={row.turn} index={row.index} rev={row.turn.rev} />;
    case 'turn-end':
      return <TurnEnd turn={row.turn} rev={row.turn.rev} />;
    case 'block':
      return <BlockView block={row.block} rev={row.block.rev} />;
  }
}

/** What the list renders from: its transcript (replaced on a new session) and prompts sent. */
const transcriptInputs = (s: ChatStore) => [s.transcript, s.transcript.version, s.promptsSent] as const;

export function TranscriptView() {
  const store = useStoreSelect(transcriptInputs);
  const tx = store.transcript;
  const rows = useMemo(() => buildRows(tx), [tx, tx.version]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const rowsRef = useRef(rows);
  // The virtualizer recomputes every row's place (O(rows), each unmeasured one estimated) whenever
  // getItemKey changes identity, so it gets a new one only when the rows' keys changed: text
  // streaming into the last row then re-measures that row alone (issue 18, live append).
  // (rowsRef still holds the last render's rows here.)
  const getItemKey = useRef<(i: number) => string | number>();
  if (getItemKey.current === undefined || !sameKeys(rowsRef.current, rows)) getItemKey.current = (i: number) => rowsRef.current[i]?.key ?? i;
  rowsRef.current = rows;
  const estimateSize = useCallback((i: number) => estimateRowSize(rowsRef.current[i]), []);
  const virtualizerRef = useRef<Virtualizer<HTMLDivElement, HTMLDivElement>>();
  const keys = useFeedKeys(() => virtualizerRef.current!, () => scrollRef.current, rows.length);
  const options = {
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize,
    getItemKey: getItemKey.current,
    scrollToFn: elementScroll,
    observeElementRect,
    observeElementOffset,
    onChange: () => rerender(0),
    overscan: 4,
    rangeExtractor: keys.rangeExtractor,
    anchorTo: 'end' as const,
    followOnAppend: true,
    scrollEndThreshold: 48,
  };
  const [virtualizer] = useState(() => new Virtualizer<HTMLDivElement, HTMLDivElement>(options));
  virtualizerRef.current = virtualizer;
  virtualizer.setOptions({ ...virtualizer.options, ...options });
  useLayoutEffect(() => virtualizer._didMount(), [virtualizer]);
  useLayoutEffect(() => virtualizer._willUpdate());
  const first = useRef(true);
  useLayoutEffect(() => {
    // A loaded session opens at its newest output.
    if (first.current && rows.length > 0) {
      first.current = false;
      virtualizer.scrollToIndex(rows.length - 1, { align: 'end' });
    }
  }, [rows.length]);
  const promptsSeen = useRef(store.promptsSent);
  useLayoutEffect(() => {
    // Sending while scrolled up brings the new turn into view (issue 15 Why 8); from the bottom
    // the list then follows its output as usual.
    if (store.promptsSent === promptsSeen.current || rows.length === 0) return;
    promptsSeen.current = store.promptsSent;
    virtualizer.scrollToIndex(rows.length - 1, { align: 'end' });
  });
  // Decision 524: Find in chat searches the rows (not the DOM) and scrolls the virtualizer to a
  // match's row; once mounted, the row's matches are highlighted (again after it re-renders).
  const find = useContext(FindContext);
  find?.attach({
    rows: () => rowsRef.current,
    scrollTo: (i) => virtualizer.scrollToIndex(i, { align: 'center' }),
    topIndex: () => {
      const top = scrollRef.current?.scrollTop ?? 0;
      const items = virtualizer.getVirtualItems();
      return (items.find((it) => it.end > top) ?? items[0])?.index ?? 0;
    },
    rowElement: (i) => scrollRef.current?.querySelector<HTMLElement>(`.row[data-index="${i}"]`) ?? null,
    scroller: () => scrollRef.current,
  });
  useLayoutEffect(() => find?.afterRender());
  useEffect(() => find?.transcriptChanged(), [tx, tx.version]);
  const items = virtualizer.getVirtualItems();
  return (
    <div class="transcript-scroll" ref={scrollRef} tabIndex={0} aria-label={t('transcript.label')} aria-keyshortcuts="PageDown PageUp Control+Home Control+End Meta+Home Meta+End" onKeyDown={keys.onKeyDown}>
      {rows.length === 0 && <FirstRunHint />}
      <div class="transcript-inner" role="log" aria-live="off" style={{ height: `${virtualizer.getTotalSize()}px` }}>
        {items.map((item) => {
          const row = rows[item.index];
          if (!row) return null;
          return (
            // Decision 420: each row an article of the feed, focusable by script (PageDown/PageUp), not a Tab stop.
            <div key={row.key} class="row" role="article" aria-label={rowLabel(row)} tabIndex={-1} aria-posinset={item.index + 1} aria-setsize={rows.length} data-index={item.index} ref={(el) => { if (el) virtualizer.measureElement(el); }} style={{ transform: `translateY(${item.start}px)` }}>
              <RowBoundary label={row.key}>
                <RowView row={row} />
              </RowBoundary>
            </div>
          );
        })}
      </div>
    </div>
  );
}

/**
 * Who wrote a row, for a screen reader moving through the feed: a prompt and the agent's answer
 * read alike before (the trial of 2026-12-06). Tool cards, questions and notes name themselves.
 */
function rowLabel(row: Row): string | undefined {
  if (row.kind !== 'block') return undefined;
  // "Prompt", not "Your prompt": in a shared chat another master's prompts are shown too.
  return row.block.kind === 'prompt' ? t('block.prompt') : row.block.kind === 'text' ? t('block.agentAnswer') : undefined;
}
