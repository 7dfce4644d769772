// §6.1.1 attachments of the composer: files pasted or dropped in become chips (a thumbnail for an
// image, an icon otherwise, the name, a remove button) and go out with the prompt as
// `context_files`. Each file is stored first through the transport's `attachment.add` — in VS Code
// the extension host puts it in the session's file store, in the browser master the transport
// PUTs it to /v1/files/{id} — and only its `file_url` travels in the prompt (decision 316).
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ContextFile } from '../../../src/protocol/payloadTypes';
import { MAX_ATTACHMENT_BYTES, webviewMessage } from '../../../src/protocol/webviewMessages';
import { t } from '../i18n';
import type { ChatStore } from '../state/store';

export interface Attachment {
  /** The request id of its `attachment.add`, unique in this view. */
  id: string;
  name: string;
  mime: string;
  size: number;
  /** A data: URL of an image, for its thumbnail. */
  preview?: string;
  status: 'storing' | 'ready';
  file_url?: string;
}

/** At most this many files ride on one prompt (a paste of a whole folder is a mistake). */
export const MAX_ATTACHMENTS = 10;

/** Media types browsers leave empty for common text files (the host may guess again). */
const TEXT_TYPES: Record<string, string> = { md: 'text/markdown', txt: 'text/plain', csv: 'text/csv', json: 'application/json', ts: 'text/x-typescript', tsx: 'text/x-typescript', js: 'text/javascript', py: 'text/x-python', yaml: 'application/yaml', yml: 'application/yaml', toml: 'application/toml', log: 'text/plain' };

export function mimeOf(file: { name: string; type: string }): string {
  if (file.type) return file.type;
  const ext = /\.([a-z0-9]+)$/i.exec(file.name)?.[1]?.toLowerCase();
  return (ext && TEXT_TYPES[ext]) || '';
}

export function sizeText(n: number): string {
  if (n < 1024) return t('attach.bytes', n);
  if (n < 1024 * 1024) return t('attach.kilobytes', Math.max(1, Math.round(n / 1024)));
  return t('attach.megabytes', Math.round((n / (1024 * 1024)) * 10) / 10);
}

function readAsDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result));
    r.onerror = () => reject(r.error ?? new Error('unreadable'));
    r.readAsDataURL(file);
  });
}

let seq = 0;

export function useAttachments(store: ChatStore) {
  const [list, setList] = useState<Attachment[]>([]);
  const live = useRef(list);
  live.current = list;

  useEffect(
    () =>
      store.transport.onMessage((m) => {
        if (m.kind === 'attachment.stored') {
          setList((l) => l.map((a) => (a.id === m.payload.request_id ? { ...a, status: 'ready', file_url: m.payload.file_url, mime: m.payload.mime_type || a.mime } : a)));
        } else if (m.kind === 'attachment.failed' && live.current.some((a) => a.id === m.payload.request_id)) {
          setList((l) => l.filter((a) => a.id !== m.payload.request_id));
          store.notify('error', m.payload.message);
        }
      }),
    [store],
  );

  const add = async (files: readonly File[]) => {
    const session_id = store.sessionId;
    if (!session_id) return;
    for (const file of files) {
      if (live.current.length >= MAX_ATTACHMENTS) {
        store.notify('error', t('attach.tooMany', MAX_ATTACHMENTS));
        return;
      }
      if (file.size > MAX_ATTACHMENT_BYTES) {
        store.notify('error', t('attach.tooLarge', file.name, sizeText(MAX_ATTACHMENT_BYTES)));
        continue;
      }
      const id = `att-${Date.now().toString(36)}-${++seq}`;
      const mime = mimeOf(file);
      let url: string;
      try {
        url = await readAsDataUrl(file);
      } catch {
        store.notify('error', t('attach.unreadable', file.name));
        continue;
      }
      const attachment: Attachment = { id, name: file.name || t('attach.pasted'), mime, size: file.size, status: 'storing', ...(mime.startsWith('image/') ? { preview: url } : {}) };
      live.current = [...live.current, attachment];
      setList((l) => [...l, attachment]);
      store.transport.send(webviewMessage('attachment.add', { request_id: id, session_id, file_name: attachment.name, mime_type: mime, data: url.slice(url.indexOf(',') + 1) }));
    }
  };

  const remove = (id: string) => setList((l) => l.filter((a) => a.id !== id));
  const clear = () => setList([]);
  const contextFiles = (): ContextFile[] => list.filter((a) => a.status === 'ready' && a.file_url).map((a) => ({ file_url: a.file_url!, file_name: a.name, ...(a.mime ? { mime_type: a.mime } : {}), intent: 'context' as const }));
  return { list, add, remove, clear, contextFiles, storing: list.some((a) => a.status === 'storing') };
}

/** The chips above the editor. Delete or Backspace on a chip's remove button removes it too. */
export function AttachmentChips({ list, onRemove, focusEditor }: { list: readonly Attachment[]; onRemove: (id: string) => void; focusEditor: () => void }) {
  const root = useRef<HTMLUListElement>(null);
  if (list.length === 0) return null;
  const removeAt = (i: number) => {
    onRemove(list[i].id);
    // Focus stays in the list (the next chip, else the previous one), or goes back to the editor.
    const buttons = root.current?.querySelectorAll<HTMLButtonElement>('.attachment-remove');
    const next = buttons?.[i + 1] ?? buttons?.[i - 1];
    if (next) requestAnimationFrame(() => next.focus());
    else focusEditor();
  };
  return (
    <ul class="attachments" ref={root} aria-label={t('attach.list')}>
      {list.map((a, i) => (
        <li key={a.id} class={`attachment${a.status === 'storing' ? ' storing' : ''}`} data-name={a.name} title={`${a.name} (${sizeText(a.size)})`}>
          {a.preview ? <img class="attachment-thumb" src={a.preview} alt="" /> : <span class="codicon codicon-file attachment-icon" aria-hidden="true" />}
          <span class="attachment-name">{a.name}</span>
          {a.status === 'storing' && <span class="codicon codicon-loading codicon-modifier-spin" aria-label={t('attach.storing')} role="img" />}
          <button
            type="button"
            class="attachment-remove"
            aria-label={t('attach.remove', a.name)}
            onClick={() => removeAt(i)}
            onKeyDown={(e) => {
              if (e.key === 'Delete' || e.key === 'Backspace') {
                e.preventDefault();
                removeAt(i);
              }
            }}
          >
            <span class="codicon codicon-close" aria-hidden="true" />
          </button>
        </li>
      ))}
    </ul>
  );
}
