// Blocks about the session rather than the agent's work: errors, compaction, file transfers.
import type { CompactionBlock, ErrorBlock, FileTransferBlock } from '../../../src/protocol/transcript';
import { formatBytes } from '../format';
import { renderMarkdown } from '../markdown';
import { t } from '../i18n';
import { codeSentence, codeTooltip, hasSentence, idFor } from '../i18n/codes';
import { Clipped } from './outputs';
import { TransferFile } from './transferFile';

/** §4.4 / §7.4: errors by severity. */
export function ErrorView({ block }: { block: ErrorBlock }) {
  const e = block.error;
  const icon = e.severity === 'warning' ? 'warning' : 'error';
  const known = hasSentence(e.code);
  return (
    <div class={`block error-block severity-${e.severity}`} role={e.severity === 'warning' ? 'status' : 'alert'}>
      <span class={`codicon codicon-${icon}`} aria-hidden="true" />
      <span class="badge" data-code={e.severity}>
        {t(idFor('severity.', e.severity, 'severity.error'))}
      </span>
      {/* Issue 15 Why 6: a sentence for the code; the code itself in the tooltip (and the logs). */}
      <span class="error-sentence" title={codeTooltip(e.code)} data-code={e.code}>
        {known ? codeSentence(e.code) : e.message || codeSentence(e.code)}
      </span>
      {known && e.message && <span class="muted error-message"> {e.message}</span>}
      {e.recoverable === false && <span class="badge">{t('block.notRecoverable')}</span>}
      {e.details?.trace && (
        <details>
          <summary>{t('block.trace')}</summary>
          <Clipped text={e.details.trace} />
        </details>
      )}
    </div>
  );
}

export function CompactionView({ block }: { block: CompactionBlock }) {
  const c = block.compaction;
  return (
    <div class="block compaction-block" role="note">
      <span class="codicon codicon-fold" aria-hidden="true" /> {t('block.compacted', t(idFor('compaction.', c.trigger, 'compaction.manual')), c.previous_token_count, c.current_token_count)}
      <details>
        <summary>{t('block.summary')}</summary>
        <div class="markdown" dangerouslySetInnerHTML={{ __html: renderMarkdown(c.summary) }} />
      </details>
    </div>
  );
}

export function FileTransferView({ block }: { block: FileTransferBlock }) {
  const f = block.transfer;
  return (
    <div class="block file-transfer" role="group" aria-label={t('block.fileTransfer', f.file_name)}>
      <span class={`codicon codicon-cloud-${f.direction === 'upload' ? 'upload' : 'download'}`} aria-hidden="true" />{' '}
      <TransferFile transfer={f} />{' '}
      <span class="muted">
        {f.mime_type} · {formatBytes(f.size_bytes)}
      </span>
    </div>
  );
}
