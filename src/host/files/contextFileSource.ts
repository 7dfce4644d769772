// The host's ContextFileSource (src/session/contextFiles.ts): how an adapter reads a prompt's
// `context_files` (§6.1.1) and `binary_ref` files (§5.3.1), bound to one session. Accepted URLs
// (docs/decisions/303):
//   - this host's /v1/files/{id} (host-relative, or absolute on a loopback or own host name): the
//     session's own stored file — never fetched over the network, never another session's;
//   - `file:` inside a workspace folder, resolved like every other referenced path (no `..` out,
//     no symlink leading out, opened without following symlinks), at most the size limit;
//   - `data:` (RFC 2397), at most the size limit once decoded;
//   - anything else (http elsewhere, ftp:, javascript:, …) is refused: nothing is fetched.
import { digestInTurns } from '../../workspace/bytesInTurns';
import { fileURLToPath } from 'node:url';
import { basename } from 'node:path';
import { isLoopbackHost, transferIdOfPath } from '../../remote/controlPlane';
import { ContextFileError, shortUrl, type ContextFileHints, type ContextFileSource, type ResolvedContextFile } from '../../session/contextFiles';
import { mimeTypeOf } from '../../workspace/mimeType';
import { openInsideNoFollow } from '../../workspace/pinnedDir';
import { resolveInWorkspace } from '../../workspace/resolvePath';
import { sniffContentType } from './contentType';
import type { FileStore } from './fileStore';

export interface HostContextFilesOptions {
  session_id: string;
  store: FileStore;
  /** The workspace folders `file:` URLs may point into. */
  workspaceRoots: () => readonly string[];
  /** Names besides loopback this host is reached by (absolute /v1/files URLs naming them count as ours). */
  ownHostNames?: () => ReadonlySet<string>;
}

export class HostContextFiles implements ContextFileSource {
  constructor(private readonly o: HostContextFilesOptions) {}

  async resolve(fileUrl: string, hints: ContextFileHints = {}, signal?: AbortSignal): Promise<ResolvedContextFile> {
    const shown = shortUrl(fileUrl);
    const fail = (code: ConstructorParameters<typeof ContextFileError>[0], message: string) => new ContextFileError(code, message, shown);
    if (signal?.aborted) throw fail('unreadable', 'the read was cancelled');
    const got = await this.read(fileUrl, fail);
    if (got.bytes.byteLength > this.o.store.maxBytes) throw fail('too_large', `${got.name} is larger than the limit of ${this.o.store.maxBytes} bytes`);
    // Up to 20 MB (maxBytes): hashed in event-loop turns, not in one block (decision 490).
    const sha256 = await digestInTurns('sha256', [got.bytes], 'hex');
    if (hints.sha256 && hints.sha256.toLowerCase() !== sha256) throw fail('checksum_mismatch', `${got.name}: SHA-256 ${sha256} is not the expected ${hints.sha256}`);
    const name = hints.file_name ?? got.name;
    const mimeType = got.mimeType ?? hints.mime_type ?? (await sniffContentType(got.bytes)) ?? mimeTypeOf(name) ?? 'application/octet-stream';
    return { bytes: got.bytes, mimeType, name, sha256 };
  }

  private async read(fileUrl: string, fail: (code: ConstructorParameters<typeof ContextFileError>[0], message: string) => ContextFileError): Promise<{ bytes: Uint8Array; name: string; mimeType?: string }> {
    if (fileUrl.startsWith('/v1/files/')) return this.stored(fileUrl, fail);
    let url: URL;
    try {
      url = new URL(fileUrl);
    } catch {
      throw fail('unsupported_url', 'not a URL: give a /v1/files/{id} URL of this host, a file: URL inside the workspace, or a data: URL');
    }
    switch (url.protocol) {
      case 'http:':
      case 'https:': {
        const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
        const ours = isLoopbackHost(host) || isLoopbackHost(url.hostname) || (this.o.ownHostNames?.().has(host.toLowerCase()) ?? false);
        if (!ours || transferIdOfPath(url.pathname) === undefined) throw fail('unsupported_url', `${url.protocol}// URLs other than this host's /v1/files/{id} are not fetched`);
        return this.stored(url.pathname, fail);
      }
      case 'file:':
        return this.local(url, fail);
      case 'data:':
        return this.data(fileUrl, fail);
      default:
        throw fail('unsupported_url', `${url.protocol} URLs are not read; give a /v1/files/{id} URL of this host, a file: URL inside the workspace, or a data: URL`);
    }
  }

  private async stored(pathname: string, fail: (code: ConstructorParameters<typeof ContextFileError>[0], message: string) => ContextFileError) {
    const id = transferIdOfPath(pathname.split('?')[0]);
    if (!id) throw fail('unsupported_url', 'a /v1/files/ URL names a transfer by its UUID v4');
    const info = this.o.store.get(id);
    // Another session's file answers like a missing one: a session reads only its own.
    if (!info || info.session_id !== this.o.session_id) throw fail('not_found', `no file ${id} in this session`);
    let bytes: Buffer | undefined;
    try {
      bytes = await this.o.store.read(id);
    } catch (e) {
      throw fail('unreadable', `file ${id} could not be read: ${(e as Error).message}`);
    }
    if (!bytes) throw fail('not_found', `no file ${id} in this session`);
    return { bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), name: info.file_name, mimeType: info.mime_type };
  }

  private async local(url: URL, fail: (code: ConstructorParameters<typeof ContextFileError>[0], message: string) => ContextFileError) {
    let path: string;
    try {
      path = fileURLToPath(url);
    } catch (e) {
      throw fail('invalid', `not a local file URL: ${(e as Error).message}`);
    }
    const r = await resolveInWorkspace(this.o.workspaceRoots(), path);
    if (!r.ok) throw fail(r.code === 'FS_OUTSIDE_WORKSPACE' ? 'outside_workspace' : r.code === 'FS_NOT_FOUND' ? 'not_found' : 'invalid', r.message);
    let handle;
    try {
      handle = await openInsideNoFollow(r.root, r.absolute);
    } catch (e) {
      const code = (e as { code?: string }).code;
      throw fail(code === 'FS_OUTSIDE_WORKSPACE' ? 'outside_workspace' : code === 'FS_NOT_FOUND' ? 'not_found' : 'unreadable', (e as Error).message);
    }
    try {
      const { size } = await handle.stat();
      if (size > this.o.store.maxBytes) throw fail('too_large', `${r.relative} is ${size} bytes, more than the limit of ${this.o.store.maxBytes}`);
      const bytes = await handle.readFile();
      return { bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), name: basename(r.absolute), ...(mimeTypeOf(r.absolute) ? { mimeType: mimeTypeOf(r.absolute) } : {}) };
    } finally {
      await handle.close().catch(() => undefined);
    }
  }

  /** RFC 2397: `data:[<mediatype>][;base64],<data>`; the encoded text is bounded before decoding. */
  private data(text: string, fail: (code: ConstructorParameters<typeof ContextFileError>[0], message: string) => ContextFileError) {
    const max = this.o.store.maxBytes;
    if (text.length > Math.ceil(max / 3) * 4 * 3 + 1024) throw fail('too_large', `the data: URL is larger than the limit of ${max} bytes`);
    const comma = text.indexOf(',');
    if (comma < 0) throw fail('invalid', 'a data: URL needs a comma before its data');
    const header = text.slice(5, comma);
    const params = header.split(';').map((s) => s.trim());
    const base64 = params.at(-1)?.toLowerCase() === 'base64';
    const mediaType = params[0] && params[0].includes('/') ? params[0].toLowerCase() : undefined;
    const payload = text.slice(comma + 1);
    let decoded: string;
    try {
      decoded = decodeURIComponent(payload);
    } catch {
      throw fail('invalid', 'the data: URL has a broken %-escape');
    }
    let bytes: Buffer;
    if (base64) {
      const clean = decoded.replace(/\s+/g, '');
      if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(clean)) throw fail('invalid', 'the data: URL is not valid base64');
      bytes = Buffer.from(clean, 'base64');
    } else bytes = Buffer.from(decoded, 'utf8');
    if (bytes.byteLength > max) throw fail('too_large', `the data: URL's content is larger than the limit of ${max} bytes`);
    return { bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), name: 'attachment', ...(mediaType ? { mimeType: mediaType } : {}) };
  }
}
