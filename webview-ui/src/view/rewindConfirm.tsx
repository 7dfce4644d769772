// The question before "Rewind to before this turn" (decision 612): it names every file the rewind
// will put back or delete — this turn's and the later turns' — the files no rewind can bring back,
// and what a rewind never touches. Focus goes to "Rewind" when it opens; Escape cancels.
import { useEffect, useRef } from 'preact/hooks';
import type { CheckpointSkipped } from '../../../src/protocol/checkpointFrames';
import type { Turn } from '../../../src/protocol/transcript';
import { t } from '../i18n';
import { rewindPlan } from './rewindPlan';

export function RewindConfirm({ turns, turn, onConfirm, onCancel }: { turns: readonly Turn[]; turn: Turn; onConfirm: () => void; onCancel: () => void }) {
  const at = turns.indexOf(turn);
  const plan = rewindPlan(at >= 0 ? turns : [turn], Math.max(0, at));
  const yes = useRef<HTMLButtonElement>(null);
  // Focus moves to the question once, when it opens (not on every render of the transcript).
  useEffect(() => yes.current?.focus(), []);
  const textId = `cp-confirm-${turn.checkpoint?.checkpointId ?? turn.key}`;
  return (
    <div class="checkpoint-confirm" role="alertdialog" aria-label={t('checkpoint.confirmTitle')} aria-describedby={textId} onKeyDown={(e) => e.key === 'Escape' && onCancel()}>
      <p id={textId}>
        <strong>{t('checkpoint.confirmTitle')}</strong> {t(plan.unrecorded > 0 ? 'checkpoint.confirmLaterRecorded' : 'checkpoint.confirmLater')}
      </p>
      {plan.back.length > 0 && (
        <p>
          {t('checkpoint.confirmRestore')} <span class="checkpoint-paths">{plan.back.join(', ')}</span>
        </p>
      )}
      {plan.deleted.length > 0 && (
        <p>
          {t('checkpoint.confirmDelete')} <span class="checkpoint-paths">{plan.deleted.join(', ')}</span>
        </p>
      )}
      {plan.lost.length > 0 && (
        <p class="checkpoint-lost">
          {t('checkpoint.confirmLost')} <span class="checkpoint-paths">{lostNames(plan.lost)}</span>
        </p>
      )}
      {plan.unrecorded > 0 && <p class="checkpoint-unrecorded">{plan.unrecorded === 1 ? t('checkpoint.confirmUnrecorded1') : t('checkpoint.confirmUnrecordedN', plan.unrecorded)}</p>}
      <p class="muted">{t('checkpoint.confirmOutside')}</p>
      <div class="checkpoint-actions">
        <button type="button" class="button checkpoint-confirm-yes" ref={yes} onClick={onConfirm}>
          {t('checkpoint.confirmYes')}
        </button>
        <button type="button" class="button secondary" onClick={onCancel}>
          {t('checkpoint.cancel')}
        </button>
      </div>
    </div>
  );
}

/** "huge.log (deleted), pic.png (changed)": files whose old bytes no checkpoint kept. */
export function lostNames(lost: readonly CheckpointSkipped[]): string {
  return lost.map((k) => t(k.change === 'modified' ? 'checkpoint.lostModified' : 'checkpoint.lostDeleted', k.path)).join(', ');
}
