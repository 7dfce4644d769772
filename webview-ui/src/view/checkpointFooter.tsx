// Issue 17 items 2–3 in the chat: a turn's footer says "N files changed" (x-rawp.checkpoint.created,
// reduced onto the turn). Clicking it lists the files and asks the host for the review — VS Code
// opens its multi-file diff (vscode.changes), the browser master gets unified diffs back
// (x-rawp.checkpoint.diff, decision 401) shown with the view's diff renderer. Each file can be
// reverted alone; "Rewind to before this turn" asks first (naming the files), then sends
// x-rawp.checkpoint.restore through the hub like any master. Conflicts — files someone else
// changed after the turn — wait for a per-file choice (decision 402); a rewind can be undone, all
// of it (decision 612: its forced follow-ups too, newest first).
import { useEffect, useRef, useState } from 'preact/hooks';
import type { CheckpointFile } from '../../../src/protocol/checkpointFrames';
import type { Turn, TurnCheckpoint } from '../../../src/protocol/transcript';
import { webviewMessage } from '../../../src/protocol/webviewMessages';
import { useStoreVersion } from '../state/useStore';
import { t, type MessageId } from '../i18n';
import { codeTooltip } from '../i18n/codes';
import { DiffOutput } from './diffOutput';
import { lostNames, RewindConfirm } from './rewindConfirm';
import { rewindPlan } from './rewindPlan';

const CHANGE_WORD: Record<CheckpointFile['change'], MessageId> = {
  created: 'checkpoint.created',
  modified: 'checkpoint.modified',
  deleted: 'checkpoint.deleted',
  renamed: 'checkpoint.renamed',
};

export function CheckpointFooter({ turn }: { turn: Turn }) {
  const cp = turn.checkpoint;
  const store = useStoreVersion();
  const [open, setOpen] = useState(false);
  const [confirming, setConfirming] = useState(false);
  // When the question closes (Rewind or Cancel) its focused button goes away: focus goes back to
  // "Rewind to before this turn", not to the page (a keyboard user would start over from the top).
  const rewindButton = useRef<HTMLButtonElement>(null);
  const asked = useRef(false);
  useEffect(() => {
    if (confirming) asked.current = true;
    else if (asked.current) {
      asked.current = false;
      rewindButton.current?.focus();
    }
  }, [confirming]);
  // A turn that could not be recorded says so (what it changed is unknown); one switched off says nothing
  // (the person chose it, decision 635), and a turn that changed nothing has no footer.
  if (!cp) return turn.unrecorded === 'late' || turn.unrecorded === 'failed' ? <p class="muted checkpoint-none">{t(turn.unrecorded === 'late' ? 'checkpoint.noneLate' : 'checkpoint.noneFailed')}</p> : null;
  const n = cp.files.length;
  const review = (path?: string) => {
    if (store.sessionId) store.transport.send(webviewMessage('checkpoint.review', { session_id: store.sessionId, checkpoint_id: cp.checkpointId, ...(path ? { path } : {}) }));
  };
  const diffs = store.checkpointDiffs.get(cp.checkpointId);
  const lost = cp.skipped.filter((k) => k.change !== undefined);
  const kept = cp.skipped.filter((k) => k.change === undefined);
  const listId = `${turn.key}-cp-files`;
  return (
    <div class="checkpoint" role="group" aria-label={t('checkpoint.group')} data-checkpoint={cp.checkpointId}>
      <div class="checkpoint-bar">
        <button
          type="button"
          class="link-button checkpoint-summary"
          aria-expanded={open}
          aria-controls={listId}
          onClick={() => {
            if (!open) review();
            setOpen(!open);
          }}
        >
          <span class="codicon codicon-diff-multiple" aria-hidden="true" /> {n === 1 ? t('checkpoint.files1') : t('checkpoint.filesN', n)}
        </button>
        {kept.length > 0 && (
          <span class="muted checkpoint-skipped" title={kept.map((s) => `${s.path} (${s.reason})`).join('\n')}>
            {t('checkpoint.skipped', kept.length)}
          </span>
        )}
        {!confirming && (
          <button type="button" class="button secondary checkpoint-rewind" ref={rewindButton} onClick={() => setConfirming(true)}>
            {t('checkpoint.rewind')}
          </button>
        )}
      </div>
      {lost.length > 0 && (
        <p class="checkpoint-lost" title={lost.map((s) => `${s.path} (${s.reason})`).join('\n')}>
          {t('checkpoint.lost')} <span class="checkpoint-paths">{lostNames(lost)}</span>
        </p>
      )}
      {open && (
        <ul class="checkpoint-files" id={listId}>
          {cp.files.map((f) => (
            <li key={f.path}>
              <span class={`badge change-${f.change}`}>{t(CHANGE_WORD[f.change])}</span>{' '}
              <button type="button" class="link-button" title={f.from ? t('checkpoint.renamedFrom', f.from) : undefined} onClick={() => review(f.path)}>
                {f.path}
              </button>{' '}
              <button type="button" class="button secondary checkpoint-revert-file" aria-label={t('checkpoint.revertFileLabel', f.path)} onClick={() => store.restoreCheckpoint(cp.checkpointId, { paths: [f.path] })}>
                {t('checkpoint.revertFile')}
              </button>
            </li>
          ))}
        </ul>
      )}
      {open && diffs && <CheckpointDiffs diffs={diffs} />}
      {confirming && <RewindConfirm turns={store.transcript.turns} turn={turn} onCancel={() => setConfirming(false)} onConfirm={() => {
        setConfirming(false);
        store.restoreCheckpoint(cp.checkpointId);
      }} />}
      {cp.restore && <RestoreResult cp={cp} laterUnrecorded={laterUnrecorded(store.transcript.turns, turn)} />}
      {cp.undoable.length > 0 && (
        // Newest first: a forced follow-up is undone before the rewind it followed (decision 612).
        <button type="button" class="button secondary checkpoint-undo" onClick={() => [...cp.undoable].reverse().forEach((id) => store.restoreCheckpoint(id))}>
          {t('checkpoint.undo')}
        </button>
      )}
    </div>
  );
}

function restoredWords(undo: boolean, n: number): string {
  if (undo) return n === 1 ? t('checkpoint.undone1') : t('checkpoint.undoneN', n);
  return n === 1 ? t('checkpoint.restored1') : t('checkpoint.restoredN', n);
}

/** Whether a turn after `turn` got no checkpoint (decision 645): its changes read as conflicts. */
function laterUnrecorded(turns: readonly Turn[], turn: Turn): boolean {
  const at = turns.indexOf(turn);
  return at >= 0 && rewindPlan(turns, at).unrecorded > 0;
}

function RestoreResult({ cp, laterUnrecorded }: { cp: TurnCheckpoint; laterUnrecorded: boolean }) {
  const store = useStoreVersion();
  // One action's answers summed (a rewind with its Apply, one Undo of several checkpoints; decision 673).
  const r = cp.restore!;
  // The person's choice per conflicting file (decision 402): overwrite it, or keep theirs.
  const [choice, setChoice] = useState<Record<string, 'overwrite' | 'keep'>>({});
  const [applied, setApplied] = useState<string | undefined>(undefined);
  // "A turn is running" is no longer true once it has ended: the message goes with it.
  if (r.error?.code === 'TURN_IN_PROGRESS' && !store.openTurnId()) return null;
  if (r.error) {
    return (
      <p class="checkpoint-result error" role="status" title={codeTooltip(r.error.code)} data-code={r.error.code}>
        {t('checkpoint.failed', r.error.message)}
      </p>
    );
  }
  const pending = applied === r.checkpointId ? [] : r.conflicts;
  const overwrite = pending.filter((p) => choice[p] === 'overwrite');
  const decided = pending.every((p) => choice[p] !== undefined);
  // Files already as they were are not counted as rewound; a rewind that wrote nothing says so.
  const unchanged = new Set(r.unchanged);
  const written = r.restored.filter((p) => !unchanged.has(p));
  const nothing = written.length === 0 && r.conflicts.length === 0 && r.failed.length === 0;
  return (
    <div class="checkpoint-result" role="status">
      <p>
        {nothing ? t('checkpoint.nothing') : restoredWords(r.undo, written.length)}
        {written.length > 0 && <span class="checkpoint-paths"> {written.join(', ')}</span>}
      </p>
      {r.failed.length > 0 && (
        <p class="error">
          {t('checkpoint.failedFiles')} <span class="checkpoint-paths">{r.failed.map((f) => `${f.path} (${f.message})`).join(', ')}</span>
        </p>
      )}
      {pending.length > 0 && (
        <div class="checkpoint-conflicts">
          <p>{t(laterUnrecorded ? 'checkpoint.conflictsUnrecorded' : 'checkpoint.conflicts')}</p>
          <ul>
            {pending.map((p) => (
              <li key={p} class="checkpoint-conflict" data-path={p}>
                <span class="checkpoint-paths">{p}</span>{' '}
                <button type="button" class="button secondary" aria-pressed={choice[p] === 'overwrite'} aria-label={t('checkpoint.overwriteLabel', p)} onClick={() => setChoice({ ...choice, [p]: 'overwrite' })}>
                  {t('checkpoint.overwrite')}
                </button>{' '}
                <button type="button" class="button secondary" aria-pressed={choice[p] === 'keep'} aria-label={t('checkpoint.keepLabel', p)} onClick={() => setChoice({ ...choice, [p]: 'keep' })}>
                  {t('checkpoint.keep')}
                </button>
              </li>
            ))}
          </ul>
          <button
            type="button"
            class="button checkpoint-apply"
            disabled={!decided}
            onClick={() => {
              setApplied(r.checkpointId);
              // Only the files the person chose to overwrite; the rest stay as they are.
              if (overwrite.length > 0) store.restoreCheckpoint(r.checkpointId, { force: overwrite, paths: overwrite });
            }}
          >
            {t('checkpoint.apply')}
          </button>
        </div>
      )}
    </div>
  );
}

function CheckpointDiffs({ diffs }: { diffs: NonNullable<ReturnType<ReturnType<typeof useStoreVersion>['checkpointDiffs']['get']>> }) {
  if (diffs.error) return <p class="checkpoint-result error" title={codeTooltip(diffs.error.code)}>{t('checkpoint.diffFailed', diffs.error.message)}</p>;
  return (
    <div class="checkpoint-diffs">
      {diffs.files.map((f) =>
        f.unified_diff !== undefined ? (
          <DiffOutput key={f.path} output={{ file_path: f.path, unified_diff: f.unified_diff }} />
        ) : (
          <p key={f.path} class="muted">
            {f.path}: {t(f.omitted === 'binary' ? 'checkpoint.omittedBinary' : f.omitted === 'large' ? 'checkpoint.omittedLarge' : 'checkpoint.omittedOther')}
          </p>
        ),
      )}
    </div>
  );
}
