// The host's file store for §4.5.1 transfers: bytes kept per session in the state folder, deleted
// with the session (docs/decisions/300-302).
//
//   DIR/<sha256(session_id)[0..32]>/<transfer_id>        the bytes (0600)
//   DIR/<sha256(session_id)[0..32]>/<transfer_id>.json   what they are (StoredFileInfo + created_at)
//   DIR/<…>/<transfer_id>.part                          an upload in progress (never served)
//
// Bytes are streamed to disk and hashed as they pass; past the limit the upload stops and its
// partial file is removed, so an oversize or refused upload leaves nothing. Nothing is buffered
// but the first SNIFF_BYTES (for the content check). A transfer id names one file for ever: a
// second upload under a used id is refused (409), never an overwrite.
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, promises as fsp, readdirSync, readFileSync, rmSync, writeFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { canonicalTransferId } from '../../remote/controlPlane';
import { FileRefusal, type FileEndpoint, type StoredFileInfo, type UploadRequest } from '../../remote/fileApi';
import type { Logger } from '../../session/ports';
import { checkContentType, SNIFF_BYTES } from './contentType';

/** 20 MB: rawp.files.maxBytes / rawp serve --max-file-bytes default. */
export const DEFAULT_MAX_FILE_BYTES = 20 * 1024 * 1024;
/** A session holds at most this many times the per-file limit (so no master fills the disk). */
export const SESSION_QUOTA_FILES = 10;
/** The host's files together, in session quotas (decision 559): 1 GB at the default limits. A
 * master that may create sessions could otherwise fill the disk one session quota at a time. */
export const HOST_QUOTA_SESSIONS = 5;
/** Announcements (§4.5.1 direction upload) remembered before their bytes arrive. */
const MAX_PENDING_ANNOUNCEMENTS = 1000;

export interface StoredFile extends StoredFileInfo {
  created_at: string;
}

/** What a master's `agent.file.transfer` (upload) said before the bytes arrived. */
export interface Announcement {
  session_id: string;
  file_name: string;
  mime_type: string;
  size_bytes: number;
  checksum?: string;
}

export interface FileStoreOptions {
  dir: string;
  maxBytes?: number;
  /** All files of one session together (default SESSION_QUOTA_FILES × maxBytes). */
  maxSessionBytes?: number;
  /** All files of every session together (default HOST_QUOTA_SESSIONS × maxSessionBytes). */
  maxHostBytes?: number;
  logger: Logger;
}

export class FileStore implements FileEndpoint {
  readonly maxBytes: number;
  readonly maxSessionBytes: number;
  readonly maxHostBytes: number;
  private readonly index = new Map<string, StoredFile>();
  private readonly pending = new Map<string, Announcement>();
  /** Bytes of uploads still streaming, per session (they count against the quota). */
  private readonly inFlight = new Map<string, number>();
  /** Bytes of the files in the index, per session: kept running, so every chunk of every upload
   * checks the session's quota against what is stored and streaming now, not what was there when
   * it started (25 uploads at once once stored 25 KB in a 10 KB session). */
  private readonly storedOf = new Map<string, number>();
  /** The host's totals: bytes of the files in the index, and of every upload still streaming. */
  private storedBytes = 0;
  private inFlightBytes = 0;

  private constructor(
    readonly dir: string,
    maxBytes: number,
    maxSessionBytes: number,
    maxHostBytes: number,
    private readonly logger: Logger,
  ) {
    this.maxBytes = maxBytes;
    this.maxSessionBytes = maxSessionBytes;
    this.maxHostBytes = maxHostBytes;
  }

  /** Opens (creating) the folder and indexes what a previous process stored; partial files go. */
  static open(o: FileStoreOptions): FileStore {
    const maxBytes = o.maxBytes ?? DEFAULT_MAX_FILE_BYTES;
    if (!Number.isSafeInteger(maxBytes) || maxBytes < 1) throw new Error(`the file size limit must be a positive whole number of bytes, not ${maxBytes}`);
    mkdirSync(o.dir, { recursive: true, mode: 0o700 });
    const maxSessionBytes = Math.max(maxBytes, o.maxSessionBytes ?? maxBytes * SESSION_QUOTA_FILES);
    const maxHostBytes = Math.max(maxSessionBytes, o.maxHostBytes ?? maxSessionBytes * HOST_QUOTA_SESSIONS);
    const store = new FileStore(o.dir, maxBytes, maxSessionBytes, maxHostBytes, o.logger);
    store.load();
    return store;
  }

  private load(): void {
    for (const sessionDir of safeList(this.dir)) {
      const folder = join(this.dir, sessionDir);
      for (const name of safeList(folder)) {
        const path = join(folder, name);
        if (name.endsWith('.part')) {
          rmSync(path, { force: true });
          continue;
        }
        if (!name.endsWith('.json')) continue;
        try {
          const info = JSON.parse(readFileSync(path, 'utf8')) as StoredFile;
          if (canonicalTransferId(info.transfer_id) === info.transfer_id && sessionKey(info.session_id) === sessionDir && Number.isSafeInteger(info.size_bytes) && info.size_bytes >= 0 && existsSync(join(folder, info.transfer_id))) {
            this.index.set(info.transfer_id, info);
            this.count(info, 1);
          }
        } catch (e) {
          this.logger.warn('a stored file\'s description could not be read; the file is not served', { path, error: String(e) });
        }
      }
    }
  }

  get(transfer_id: string): StoredFile | undefined {
    return this.index.get(transfer_id);
  }

  /** Where the bytes are (the editor's webview loads them from here). */
  pathOf(transfer_id: string): string | undefined {
    const f = this.index.get(transfer_id);
    return f ? join(this.dir, sessionKey(f.session_id), f.transfer_id) : undefined;
  }

  /** The folder of one session's files (a webview's localResourceRoots entry). */
  sessionDir(session_id: string): string {
    return join(this.dir, sessionKey(session_id));
  }

  filesOf(session_id: string): StoredFile[] {
    return [...this.index.values()].filter((f) => f.session_id === session_id);
  }

  /** A master announced an upload (§4.5.1) before PUT: its PUT must match what it said. */
  announce(transfer_id: string, a: Announcement): void {
    this.pending.delete(transfer_id);
    this.pending.set(transfer_id, a);
    while (this.pending.size > MAX_PENDING_ANNOUNCEMENTS) this.pending.delete(this.pending.keys().next().value as string);
  }

  /** PUT /v1/files/{id}: a master's upload. */
  upload(request: UploadRequest, body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): Promise<StoredFile> {
    const a = this.pending.get(request.transfer_id);
    if (a) {
      if (a.session_id !== request.session_id) return Promise.reject(new FileRefusal('invalid', `transfer ${request.transfer_id} was announced in another session`));
      if (a.mime_type.toLowerCase() !== request.mime_type) return Promise.reject(new FileRefusal('unsupported_type', `Content-Type ${request.mime_type} is not the announced mime_type ${a.mime_type}`));
      // The other masters were told this name; the bytes must not arrive under another.
      if (request.file_name !== undefined && request.file_name !== a.file_name) return Promise.reject(new FileRefusal('invalid', `file_name ${JSON.stringify(request.file_name)} is not the announced ${JSON.stringify(a.file_name)}`));
    }
    const expected_sha256 = request.expected_sha256 ?? a?.checksum?.toLowerCase();
    if (request.expected_sha256 && a?.checksum && a.checksum.toLowerCase() !== request.expected_sha256) return Promise.reject(new FileRefusal('checksum_mismatch', `${request.expected_sha256} is not the announced checksum ${a.checksum}`));
    return this.put(
      {
        session_id: request.session_id,
        transfer_id: request.transfer_id,
        direction: 'upload',
        file_name: request.file_name ?? a?.file_name ?? request.transfer_id,
        mime_type: request.mime_type,
        ...(expected_sha256 ? { expected_sha256 } : {}),
        ...(a ? { expected_size: a.size_bytes } : {}),
      },
      body,
    ).then((f) => {
      this.pending.delete(request.transfer_id);
      return f;
    });
  }

  /** An agent's file (§4.5.1 direction download): stored under a new host-generated id. */
  store(file: { session_id: string; file_name: string; mime_type: string; bytes: Uint8Array }): Promise<StoredFile> {
    return this.put({ session_id: file.session_id, transfer_id: randomUUID(), direction: 'download', file_name: file.file_name, mime_type: file.mime_type }, [file.bytes]);
  }

  download(transfer_id: string): { info: StoredFile; open(): Readable } | undefined {
    const info = this.index.get(transfer_id);
    const path = this.pathOf(transfer_id);
    return info && path ? { info, open: () => createReadStream(path) } : undefined;
  }

  /** The bytes of a stored file (bounded by the limit they were stored under). */
  async read(transfer_id: string): Promise<Buffer | undefined> {
    const path = this.pathOf(transfer_id);
    if (!path) return undefined;
    return fsp.readFile(path).catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return undefined;
      throw e;
    });
  }

  /** The session was deleted (§7.7): its files go with it. */
  removeSession(session_id: string): void {
    for (const [id, f] of this.index) {
      if (f.session_id !== session_id) continue;
      this.index.delete(id);
      this.count(f, -1);
    }
    for (const [id, a] of this.pending) if (a.session_id === session_id) this.pending.delete(id);
    try {
      rmSync(this.sessionDir(session_id), { recursive: true, force: true });
    } catch (e) {
      this.logger.warn('a deleted session\'s files could not be removed', { session_id, error: String(e) });
    }
  }

  /** Files of sessions that no longer exist (deleted while the host was down) go. */
  prune(live: ReadonlySet<string>): void {
    const sessions = new Set([...this.index.values()].map((f) => f.session_id));
    for (const s of sessions) if (!live.has(s)) this.removeSession(s);
    const keys = new Set([...live].map(sessionKey));
    for (const d of safeList(this.dir)) if (!keys.has(d)) rmSync(join(this.dir, d), { recursive: true, force: true });
  }

  /** A file enters (1) or leaves (-1) the index: the host's and its session's totals follow. */
  private count(f: StoredFile, sign: 1 | -1): void {
    this.storedBytes += sign * f.size_bytes;
    const left = (this.storedOf.get(f.session_id) ?? 0) + sign * f.size_bytes;
    if (left > 0) this.storedOf.set(f.session_id, left);
    else this.storedOf.delete(f.session_id);
  }

  private async put(
    meta: { session_id: string; transfer_id: string; direction: 'upload' | 'download'; file_name: string; mime_type: string; expected_sha256?: string; expected_size?: number },
    body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  ): Promise<StoredFile> {
    const id = meta.transfer_id;
    if (this.index.has(id)) throw new FileRefusal('exists', `transfer ${id} exists already; a transfer id names one file`);
    const folder = this.sessionDir(meta.session_id);
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const part = join(folder, `${id}.part`);
    let handle: fsp.FileHandle;
    try {
      handle = await fsp.open(part, 'wx', 0o600);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') throw new FileRefusal('exists', `transfer ${id} is being uploaded already`);
      throw e;
    }
    const hash = createHash('sha256');
    const head: Uint8Array[] = [];
    let headBytes = 0;
    let size = 0;
    let counted = 0;
    let done = false;
    try {
      for await (const chunk of body) {
        size += chunk.byteLength;
        if (size > this.maxBytes) throw new FileRefusal('too_large', `the file is larger than this host's limit of ${this.maxBytes} bytes`);
        const session = (this.storedOf.get(meta.session_id) ?? 0) + (this.inFlight.get(meta.session_id) ?? 0);
        if (session + chunk.byteLength > this.maxSessionBytes) throw new FileRefusal('too_large', `the session's files would take more than ${this.maxSessionBytes} bytes; delete the session or start a new one`);
        // Both quotas are checked chunk by chunk against every upload in progress, so uploads at
        // once (to one session or to many) cannot pass them together.
        if (this.storedBytes + this.inFlightBytes + chunk.byteLength > this.maxHostBytes) throw new FileRefusal('too_large', `this host's stored files would take more than ${this.maxHostBytes} bytes; delete sessions you no longer need`);
        this.inFlight.set(meta.session_id, (this.inFlight.get(meta.session_id) ?? 0) + chunk.byteLength);
        this.inFlightBytes += chunk.byteLength;
        counted += chunk.byteLength;
        hash.update(chunk);
        if (headBytes < SNIFF_BYTES) {
          head.push(chunk.subarray(0, SNIFF_BYTES - headBytes));
          headBytes += Math.min(chunk.byteLength, SNIFF_BYTES - headBytes);
        }
        await handle.write(chunk);
      }
      await handle.close();
      const sha256 = hash.digest('hex');
      if (meta.expected_sha256 && meta.expected_sha256 !== sha256) throw new FileRefusal('checksum_mismatch', `the content's SHA-256 is ${sha256}, not the expected ${meta.expected_sha256}`);
      if (meta.expected_size !== undefined && meta.expected_size !== size) throw new FileRefusal('checksum_mismatch', `the content is ${size} bytes, not the announced ${meta.expected_size}`);
      const check = await checkContentType(meta.mime_type, Buffer.concat(head));
      if (!check.ok) throw new FileRefusal('unsupported_type', check.message);
      const info: StoredFile = { transfer_id: id, session_id: meta.session_id, direction: meta.direction, file_name: meta.file_name, mime_type: meta.mime_type, size_bytes: size, sha256, created_at: new Date().toISOString() };
      // The description first, then the bytes appear under their name: a crash in between leaves
      // only a .json without bytes, which is not served (pathOf exists, read says not found).
      writeFileSync(join(folder, `${id}.json`), JSON.stringify(info), { mode: 0o600 });
      renameSync(part, join(folder, id));
      this.index.set(id, info);
      this.count(info, 1);
      done = true;
      return info;
    } finally {
      this.inFlightBytes -= counted;
      const left = (this.inFlight.get(meta.session_id) ?? 0) - counted;
      if (left > 0) this.inFlight.set(meta.session_id, left);
      else this.inFlight.delete(meta.session_id);
      if (!done) {
        await handle.close().catch(() => undefined);
        await fsp.rm(part, { force: true }).catch(() => undefined);
      }
    }
  }
}

/** A session's folder name: fixed-length hex, whatever characters its id has (no `..`, no `/`). */
function sessionKey(session_id: string): string {
  return createHash('sha256').update(session_id).digest('hex').slice(0, 32);
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
