// The file of an `agent.file.transfer` (§4.5.1) or a `binary_ref` result (§5.3.1): an image
// preview for the image types a browser shows safely, and a download link for every file — loaded
// the way this view can (ChatStore.fileView: a VS Code webview resource of the host's store, or a
// blob: URL the browser master fetched with its token). An absolute http(s) URL of another server
// stays a plain link; nothing is fetched from it.
import type { PayloadOf } from '../../../src/protocol/frameTypes';
import { isSafeUrl } from '../format';
import { t } from '../i18n';
import { useEffect, useState } from 'preact/hooks';
import { useStore } from '../state/useStore';

/** Raster types shown inline (never SVG: it is a document, not a picture). */
const PREVIEW_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif']);

export function TransferFile({ transfer }: { transfer: PayloadOf<'agent.file.transfer'> }) {
  const store = useStore();
  const [view, setView] = useState(() => store.fileView(transfer.transfer_id));
  useEffect(() => {
    let live = true;
    void store.loadFile(transfer).then((v) => live && setView(v));
    return () => {
      live = false;
    };
  }, [store, transfer.transfer_id]);
  if (view.state === 'ready') {
    return (
      <span class="transfer-file">
        {PREVIEW_TYPES.has(transfer.mime_type.toLowerCase()) && (
          <img class="transfer-preview" src={view.url} alt={t('file.preview', transfer.file_name)} loading="lazy" />
        )}
        <a href={view.url} download={transfer.file_name} title={t('file.download', transfer.file_name)}>
          <span class="codicon codicon-desktop-download" aria-hidden="true" /> {transfer.file_name}
        </a>
      </span>
    );
  }
  if (view.state === 'loading') return <span class="muted">{t('file.loading', transfer.file_name)}</span>;
  // Not on this host: an absolute link elsewhere is still offered as a link (opened outside).
  if (/^https?:/i.test(transfer.file_url) && isSafeUrl(transfer.file_url)) {
    return (
      <a href={transfer.file_url} target="_blank" rel="noopener noreferrer">
        {transfer.file_name}
      </a>
    );
  }
  return <span>{t('file.unavailable', transfer.file_name)}</span>;
}
