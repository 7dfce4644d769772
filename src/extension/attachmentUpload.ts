// §6.1.1 attachments from the editor's chat view: the webview posts a pasted or dropped file's
// bytes (base64, bounded by the message schema), and they are stored in the session's file store
// (§4.5.1, src/host/files) like a master's PUT /v1/files/{id}; the view then sends the returned
// file_url in `context_files`. No data leaves the machine. Every failure is a sentence for the view.
import { filePath } from '../remote/controlPlane';
import { MAX_ATTACHMENT_BYTES, type HostMessage, type WebviewPayload } from '../protocol/webviewMessages';
import type { SessionHost } from '../host/sessionHost';
import { mimeTypeOf } from '../workspace/mimeType';
import type { Words } from './words';

function megabytes(n: number): string {
  return `${Math.round((n / (1024 * 1024)) * 10) / 10} MB`;
}

export async function storeAttachment(host: SessionHost, p: WebviewPayload<'attachment.add'>, words: Words): Promise<HostMessage> {
  const failed = (message: string): HostMessage => ({ kind: 'attachment.failed', payload: { request_id: p.request_id, message } });
  const store = host.fileStore;
  if (!store) return failed(words.t('{0} cannot be attached: this window keeps no files.', p.file_name));
  if (!host.has(p.session_id)) return failed(words.t('{0} cannot be attached: the session has ended.', p.file_name));
  const bytes = Buffer.from(p.data, 'base64');
  if (bytes.byteLength > MAX_ATTACHMENT_BYTES) return failed(words.t('{0} is larger than the limit of {1}.', p.file_name, megabytes(MAX_ATTACHMENT_BYTES)));
  const mime_type = p.mime_type.trim() || mimeTypeOf(p.file_name) || 'application/octet-stream';
  try {
    const info = await store.store({ session_id: p.session_id, file_name: p.file_name, mime_type, bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) });
    return { kind: 'attachment.stored', payload: { request_id: p.request_id, file_url: filePath(info.transfer_id), file_name: info.file_name, mime_type: info.mime_type, size_bytes: info.size_bytes } };
  } catch (e) {
    return failed(words.t('{0} was not attached: {1}', p.file_name, e instanceof Error ? e.message : String(e)));
  }
}
