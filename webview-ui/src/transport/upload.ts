// §6.1.1 / §4.5.1 for the browser master: an attachment of the composer is uploaded with
// `PUT /v1/files/{transfer_id}?session_id=…&file_name=…` under the bearer token (never in the URL),
// its bytes as the body with their media type; the host answers 201 with the file_url the prompt's
// context_files then names (docs/remote.md). Any refusal (401, 413, 415, …) becomes the sentence of
// an `attachment.failed` message.
import { hostMessage, type HostMessage, type WebviewPayload } from '../../../src/protocol/webviewMessages';
import { t } from '../i18n';

function bytesOf(base64: string): Uint8Array {
  const s = atob(base64);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

function newTransferId(): string {
  // A UUID v4 (§4.5.1); crypto.randomUUID needs a secure context, getRandomValues does not.
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export async function uploadAttachment(o: { baseUrl: string; token: string; fetchFn?: typeof fetch }, p: WebviewPayload<'attachment.add'>): Promise<HostMessage> {
  const failed = (why: string) => hostMessage('attachment.failed', { request_id: p.request_id, message: t('attach.notAttached', p.file_name, why) });
  const query = `session_id=${encodeURIComponent(p.session_id)}&file_name=${encodeURIComponent(p.file_name)}`;
  try {
    const res = await (o.fetchFn ?? fetch)(`${o.baseUrl}/v1/files/${newTransferId()}?${query}`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${o.token}`, 'Content-Type': p.mime_type || 'application/octet-stream' },
      body: bytesOf(p.data) as BodyInit,
    });
    const body = (await res.json().catch(() => undefined)) as { error?: unknown; file_url?: unknown; file_name?: unknown; mime_type?: unknown; size_bytes?: unknown } | undefined;
    if (!res.ok) return failed(typeof body?.error === 'string' ? body.error : `HTTP ${res.status}`);
    if (typeof body?.file_url !== 'string') return failed(t('attach.noUrl'));
    return hostMessage('attachment.stored', {
      request_id: p.request_id,
      file_url: body.file_url,
      file_name: typeof body.file_name === 'string' ? body.file_name : p.file_name,
      mime_type: typeof body.mime_type === 'string' ? body.mime_type : p.mime_type,
      size_bytes: typeof body.size_bytes === 'number' ? body.size_bytes : 0,
    });
  } catch (e) {
    return failed(e instanceof Error ? e.message : String(e));
  }
}
