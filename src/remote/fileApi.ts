// GET and PUT /v1/files/{transfer_id}: the §4.5.1 binary exchange ("바이너리는 WSS를 태우지 않고
// HTTP 스토리지 URL로 교환한다"). Requests arrive here past the gate (bearer token 401, Origin 403).
// The bytes go to and come from the host's file store through the FileEndpoint port (src/host/files
// implements it; node:fs stays in the host). What this module decides is HTTP: which header says
// what, and which refusal is which status (docs/remote.md):
//   400 bad transfer id / session_id / checksum header   404 unknown file or session   409 id taken
//   413 larger than the limit   415 content type does not match the bytes or the announcement
//   422 SHA-256 (or announced size) mismatch
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline, type Readable } from 'node:stream';
import { hasInvisibleCharacter } from '../protocol/invisibleCharacters';
import type { SessionRegistry } from '../session/registry';
import { canonicalTransferId, CHECKSUM_HEADER, filePath, SHA256_PATTERN, type Route } from './controlPlane';
import { answerUnread, json } from './httpApi';

/** What a stored file is, as the frames and headers tell it (§4.5.1 fields). */
export interface StoredFileInfo {
  transfer_id: string;
  session_id: string;
  direction: 'upload' | 'download';
  file_name: string;
  mime_type: string;
  size_bytes: number;
  /** Lower-case hex SHA-256 of the bytes. */
  sha256: string;
}

/** Why a store refused a file. Each maps to one HTTP status (STATUS below). */
export type FileRefusalCode = 'invalid' | 'not_found' | 'exists' | 'too_large' | 'unsupported_type' | 'checksum_mismatch';

export const FILE_REFUSAL_STATUS: Record<FileRefusalCode, number> = {
  invalid: 400,
  not_found: 404,
  exists: 409,
  too_large: 413,
  unsupported_type: 415,
  checksum_mismatch: 422,
};

export class FileRefusal extends Error {
  override readonly name = 'FileRefusal';
  constructor(
    readonly code: FileRefusalCode,
    message: string,
  ) {
    super(message);
  }
}

export interface UploadRequest {
  session_id: string;
  transfer_id: string;
  /** The request's Content-Type (without parameters), lower case. */
  mime_type: string;
  file_name?: string;
  /** From the X-Checksum-SHA256 header, lower-case hex. */
  expected_sha256?: string;
  /** From Content-Length, when the client sent one. */
  declared_length?: number;
}

/** The host's file store, as the HTTP layer needs it. */
export interface FileEndpoint {
  /** Largest file accepted, in bytes (`rawp.files.maxBytes`, `rawp serve --max-file-bytes`). */
  readonly maxBytes: number;
  /** Stream `body` into the store; rejects with a FileRefusal (nothing is left behind then). */
  upload(request: UploadRequest, body: AsyncIterable<Uint8Array>): Promise<StoredFileInfo>;
  /** The file and a stream of its bytes, or undefined when there is none. */
  download(transfer_id: string): { info: StoredFileInfo; open(): Readable } | undefined;
}

const MIME = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;
const SESSION_ID = /^[A-Za-z0-9._~-]{1,200}$/;
/** Types a browser shows inline without running anything; every other file is an attachment. */
const INLINE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'text/plain', 'application/pdf']);

export async function handleFile(req: IncomingMessage, res: ServerResponse, r: Extract<Route, { kind: 'file' }>, ctx: { registry: SessionRegistry; files?: FileEndpoint }): Promise<void> {
  const files = ctx.files;
  if (!files) return json(res, 501, { error: 'this host stores no files' });
  const transfer_id = canonicalTransferId(safeDecode(r.transfer_id) ?? '');
  if (!transfer_id) return refuse(req, res, 400, 'the transfer id must be a UUID v4 (§4.5.1)');
  // A session a master cannot see (a local editor session not shared, §2.4) has no files for it.
  const visible = (session_id: string) => ctx.registry.get(session_id) !== undefined && ctx.registry.hub.isShared(session_id);
  if (req.method === 'GET') {
    const found = files.download(transfer_id);
    if (!found || !visible(found.info.session_id)) return json(res, 404, { error: `no file ${transfer_id}` });
    return sendFile(res, found.info, found.open());
  }
  if (!r.session_id || !SESSION_ID.test(r.session_id)) return refuse(req, res, 400, 'PUT needs ?session_id= of a shared session');
  if (!visible(r.session_id)) return refuse(req, res, 404, `no shared session ${r.session_id}`);
  const mime_type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (!MIME.test(mime_type)) return refuse(req, res, 415, 'send the file\'s IANA media type as Content-Type');
  const checksum = headerValue(req.headers[CHECKSUM_HEADER]);
  if (checksum !== undefined && !SHA256_PATTERN.test(checksum.toLowerCase())) return refuse(req, res, 400, `${CHECKSUM_HEADER} must be 64 hex digits (SHA-256)`);
  const lengthHeader = headerValue(req.headers['content-length']);
  const declared_length = lengthHeader === undefined ? undefined : Number(lengthHeader);
  // Refused before one byte is read when the client says how much it sends.
  if (declared_length !== undefined && declared_length > files.maxBytes) return refuse(req, res, 413, `the file is larger than this host's limit of ${files.maxBytes} bytes`);
  const nameProblem = r.file_name === undefined ? undefined : fileNameProblem(r.file_name);
  if (nameProblem) return refuse(req, res, 400, nameProblem);
  try {
    const info = await files.upload(
      {
        session_id: r.session_id,
        transfer_id,
        mime_type,
        ...(r.file_name !== undefined ? { file_name: r.file_name } : {}),
        ...(checksum !== undefined ? { expected_sha256: checksum.toLowerCase() } : {}),
        ...(declared_length !== undefined && Number.isFinite(declared_length) ? { declared_length } : {}),
      },
      req,
    );
    return json(res, 201, { transfer_id: info.transfer_id, file_url: filePath(info.transfer_id), file_name: info.file_name, mime_type: info.mime_type, size_bytes: info.size_bytes, checksum: info.sha256 }, { location: filePath(info.transfer_id) });
  } catch (e) {
    if (e instanceof FileRefusal) return refuse(req, res, FILE_REFUSAL_STATUS[e.code], e.message);
    throw e;
  }
}

function sendFile(res: ServerResponse, info: StoredFileInfo, body: Readable): void {
  const inline = INLINE_TYPES.has(info.mime_type);
  res.writeHead(200, {
    'content-type': info.mime_type,
    'content-length': String(info.size_bytes),
    [CHECKSUM_HEADER]: info.sha256,
    // Served bytes never run as this origin's page: no sniffing, a sandbox, no subresources.
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; sandbox",
    'cross-origin-resource-policy': 'same-origin',
    'content-disposition': `${inline ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(info.file_name)}`,
    'cache-control': 'private, no-store',
  });
  // pipeline, not pipe (decision 545): a client that goes away mid-download destroys the file's
  // read stream too, so its fd is closed at once (with pipe it stayed open until the process ended);
  // a read error destroys the response, so the client sees a cut body, never a short "complete" one.
  pipeline(body, res, () => undefined);
}

/**
 * An answer before the body was read (answerUnread). A refusal found while the body streamed (past
 * the limit or a quota) stopped the store's `for await`, which destroyed the request: its socket
 * is then null, which the clean-up timer once read and threw on, ending `rawp serve`.
 */
function refuse(req: IncomingMessage, res: ServerResponse, status: number, message: string): void {
  if (res.headersSent) return void res.destroy();
  answerUnread(req, res, status, { error: message });
}

// C0 and C1 controls, slashes, and the Unicode bidirectional controls: a name shown to every master
// must read as it is, and `\u202Egnp.exe` (right-to-left override) shows as "exe.png".
const NAME_FORBIDDEN = /[\u0000-\u001f\u007f-\u009f/\\\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/** Why a file name a master gave cannot be kept (undefined: it can): it is shown to every master and saved by `rawp attach`. */
export function fileNameProblem(name: string): string | undefined {
  if (name.length === 0 || name.length > 255) return 'file_name must be 1 to 255 characters';
  if (NAME_FORBIDDEN.test(name)) return 'file_name must not hold slashes, control characters, line separators or bidirectional text controls (U+202E and the like)';
  if (hasInvisibleCharacter(name)) return 'file_name must not hold invisible characters (a zero-width space, a byte order mark, a Hangul filler and the like): they make names that look like others';
  if (/^[.\s]*$/.test(name)) return 'file_name must hold more than dots and spaces';
  // Saved by `rawp attach` on any system: Windows drops a trailing dot or space and reserves these.
  if (/[.\s]$/.test(name)) return 'file_name must not end with a dot or a space';
  if (/^(con|prn|aux|nul|com[1-9]|lpt[1-9])(\..*)?$/i.test(name)) return `file_name must not be a Windows device name (${JSON.stringify(name)})`;
  return undefined;
}

function headerValue(h: string | string[] | undefined): string | undefined {
  return Array.isArray(h) ? h[0] : h;
}

function safeDecode(s: string): string | undefined {
  try {
    return decodeURIComponent(s);
  } catch {
    return undefined;
  }
}
