// Does a file's content match the media type it was announced with (§4.5.1 `mime_type`)? The
// first bytes are sniffed with `file-type` (magic numbers of ~175 binary formats). Rules
// (docs/decisions/301):
//   - the bytes are a format file-type knows: that format's type must be the announced one
//     (a PNG announced as image/jpeg, or an executable announced as image/png, is refused);
//   - the announced type is one file-type can recognise but the bytes are not it: refused
//     (a text file announced as image/png);
//   - otherwise (text, JSON, SVG, formats without a signature) the announced type stands: the
//     HTTP layer already required the request's Content-Type to equal the announcement;
//   - `application/octet-stream` claims nothing and takes any bytes.
import { fileTypeFromBuffer, supportedMimeTypes } from 'file-type/core';

/** Bytes file-type needs at most to decide (its reader's sample size). */
export const SNIFF_BYTES = 4100;

const GENERIC = 'application/octet-stream';

/** Spellings that name the same format as file-type's answer. */
const SAME_AS: Record<string, readonly string[]> = {
  'image/jpeg': ['image/jpg', 'image/pjpeg'],
  'image/x-icon': ['image/vnd.microsoft.icon'],
  'application/x-zip-compressed': ['application/zip'],
  'application/zip': ['application/x-zip-compressed'],
  'application/gzip': ['application/x-gzip'],
  'audio/mpeg': ['audio/mp3'],
  'audio/wav': ['audio/x-wav', 'audio/wave'],
  'application/x-xml': ['application/xml', 'text/xml'],
  'application/xml': ['text/xml'],
};

/** Formats whose files are also valid files of another announced type (a .docx is a zip). */
const CONTAINERS: Record<string, (announced: string) => boolean> = {
  'application/zip': (a) => a.startsWith('application/vnd.') || a === 'application/java-archive' || a === 'application/epub+zip',
  'application/x-cfb': (a) => a.startsWith('application/vnd.ms-') || a === 'application/msword',
  'application/xml': (a) => a.endsWith('+xml'),
  'application/x-xml': (a) => a.endsWith('+xml'),
};

export type ContentCheck = { ok: true; sniffed?: string } | { ok: false; message: string };

/** Checks the first bytes of a file (at most SNIFF_BYTES are looked at) against `announced`. */
export async function checkContentType(announced: string, head: Uint8Array): Promise<ContentCheck> {
  const declared = announced.toLowerCase();
  const found = await fileTypeFromBuffer(head.subarray(0, SNIFF_BYTES)).catch(() => undefined);
  if (declared === GENERIC) return found ? { ok: true, sniffed: found.mime } : { ok: true };
  if (found) {
    const mime = found.mime.toLowerCase();
    if (mime === declared || SAME_AS[mime]?.includes(declared) || CONTAINERS[mime]?.(declared)) return { ok: true, sniffed: mime };
    return { ok: false, message: `the content is ${mime} (.${found.ext}), not the announced ${announced}` };
  }
  if ((supportedMimeTypes as ReadonlySet<string>).has(declared)) return { ok: false, message: `the content is not ${announced}: it does not have that format's signature` };
  return { ok: true };
}

/** The sniffed type of bytes whose type nobody announced, or undefined. */
export async function sniffContentType(head: Uint8Array): Promise<string | undefined> {
  return (await fileTypeFromBuffer(head.subarray(0, SNIFF_BYTES)).catch(() => undefined))?.mime;
}
