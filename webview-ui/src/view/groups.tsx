// Blocks that hold other blocks: a parallel group's calls side by side, a subagent's own run.
import { useState } from 'preact/hooks';
import type { ParallelGroupBlock, SubagentRun } from '../../../src/protocol/transcript';
import { shownAsBlock } from '../../../src/protocol/transcript';
import { formatDuration } from '../format';
import { t } from '../i18n';
import { idFor } from '../i18n/codes';
import { BlockView } from './blocks';
import { SyntheticBadge } from './syntheticBadge';
import { ToolCard } from './toolCard';

/** §5.2.1 / §13.4: calls of one parallel group side by side. */
export function ParallelView({ group }: { group: ParallelGroupBlock }) {
  return (
    <div class="block parallel-group" role="group" aria-label={t('block.parallelLabel', group.invocations.length)}>
      <div class="parallel-label muted">
        <span class="codicon codicon-split-horizontal" aria-hidden="true" /> {t('block.parallel', group.invocations.length)}
      </div>
      <div class="parallel-items">
        {group.invocations.map((t) => (
          <ToolCard key={t.key} tool={t} />
        ))}
      </div>
    </div>
  );
}

/** §10: a subagent's own frames, nested under the call that started it, indented by depth. */
export function SubagentView({ run }: { run: SubagentRun }) {
  const [open, setOpen] = useState(true);
  return (
    <section class={`subagent depth-${Math.min(run.depth, 6)}`} aria-label={t('block.subagentLabel', run.agentType ?? '', run.depth)}>
      <button type="button" class="subagent-head" aria-expanded={open} onClick={() => setOpen(!open)}>
        <span class={`codicon codicon-chevron-${open ? 'down' : 'right'}`} aria-hidden="true" />
        <span class="codicon codicon-hubot" aria-hidden="true" /> <span class="subagent-type">{run.agentType ?? t('block.subagent')}</span>
        {run.description && <span class="muted subagent-description"> — {run.description}</span>}
        <span class={`badge status-${run.status}`} data-code={run.status}>
          {t(idFor('subagent.', run.status, 'subagent.running'))}
        </span>
        {run.durationMs !== undefined && <span class="muted duration">{formatDuration(run.durationMs)}</span>}
        <SyntheticBadge show={run.synthetic} />
      </button>
      {open && (
        <div class="subagent-body">
          {run.blocks.filter(shownAsBlock).map((b) => (
            <BlockView key={b.key} block={b} rev={b.rev} />
          ))}
        </div>
      )}
    </section>
  );
}
