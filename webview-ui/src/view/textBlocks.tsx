// The agent's words: answer text and plans as markdown, thinking as a collapsible note.
import { useRef } from 'preact/hooks';
import type { InteractionBlock, TextBlock, ThinkingBlock } from '../../../src/protocol/transcript';
import { renderMarkdown } from '../markdown';
import { t } from '../i18n';
import { InteractionControls, questionText, useFocusOnRetire, useLive } from './interaction';
import { Clipped } from './outputs';
import { SyntheticBadge } from './syntheticBadge';

/** The HTML of a block's markdown, kept per block while its text is unchanged: a row that scrolls
 *  out of the virtualized transcript and back in mounts again, and parsing again is wasted work
 *  (issue 18). A WeakMap, so a block the transcript drops takes its HTML with it. */
const rendered = new WeakMap<TextBlock, { text: string; html: string }>();
function markdownOf(block: TextBlock): string {
  const hit = rendered.get(block);
  if (hit && hit.text === block.text) return hit.html;
  const html = renderMarkdown(block.text);
  rendered.set(block, { text: block.text, html });
  return html;
}

/** Past this size a text block is shown as plain text (its newest part): markdown of megabytes per frame would stall. */
export const MAX_MARKDOWN = 200_000;

export function TextView({ block }: { block: TextBlock }) {
  return (
    <div class={`block text-block${block.done ? '' : ' streaming'}`} data-depth={block.depth}>
      {block.text.length > MAX_MARKDOWN ? <Clipped text={block.text} /> : <div class="markdown" dangerouslySetInnerHTML={{ __html: markdownOf(block) }} />}
      {block.cancelled && <span class="badge">{t('block.cancelled')}</span>}
      <SyntheticBadge show={block.finalized} />
    </div>
  );
}

/** §9: a plan document with its one approval control: the question that approves it (§9.2: YN,
 *  or the permission of the plan tool) is rendered here, not as a second card (issue 15 Why 7). */
export function PlanView({ block }: { block: TextBlock }) {
  const approval = block.approval;
  return (
    <section class="block plan-block" aria-label={t('block.plan')}>
      <div class="plan-title">
        <span class="codicon codicon-checklist" aria-hidden="true" /> {t('block.plan')}
      </div>
      <div class="markdown" dangerouslySetInnerHTML={{ __html: markdownOf(block) }} />
      <SyntheticBadge show={block.finalized} />
      {approval && <PlanApproval approval={approval} />}
    </section>
  );
}

function PlanApproval({ approval }: { approval: InteractionBlock }) {
  const box = useRef<HTMLDivElement>(null);
  // Approve / Reject vanish once answered: focus stays on the approval (its answer), not on <body>.
  useFocusOnRetire(useLive(approval), box);
  return (
    <div ref={box} tabIndex={-1} class={`plan-approval status-${approval.status}`} role="group" aria-label={t('block.approvePlanLabel', questionText(approval))} data-interaction={approval.interactionId}>
      {/* The plan tool's permission ("Allow ExitPlanMode …?") in the reader's language, as on a card. */}
      <div class="question">{questionText(approval)}</div>
      <InteractionControls block={approval} />
    </div>
  );
}

/** §4.2 / §15.3: collapsible; redacted parts are already masked by the reducer and never stored raw. */
export function ThinkingView({ block }: { block: ThinkingBlock }) {
  return (
    <details class={`block thinking-block${block.redacted ? ' redacted' : ''}`} open={!block.done}>
      <summary>
        <span class="codicon codicon-lightbulb" aria-hidden="true" /> {block.done ? t('block.thought') : t('block.thinking')}
        {block.redacted && <span class="badge">{t('block.redacted')}</span>}
        <SyntheticBadge show={block.finalized} />
      </summary>
      <div class="thinking-text">{block.text}</div>
    </details>
  );
}
