// `rawp attach` and §4.5.1 file transfers: how a transfer reads in a terminal (name, type, size,
// who sent it, where to fetch it), and `/save N [DIR]`, which fetches file N from the host with
// the access token, checks its SHA-256 (the frame's `checksum`, else the host's header) and writes
// it beside the user without overwriting anything. The token only ever goes to the host the
// session is attached to: a file_url on another origin is shown, never fetched with it.
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { basename, extname, join, resolve } from 'node:path';
import type { PayloadOf } from '../../protocol/frameTypes';
import type { HostLanguage } from '../../protocol/hostPhrases';
import { CHECKSUM_HEADER, transferIdOfPath } from '../../remote/controlPlane';
import { attachPhrase, type AttachPhraseId } from './attachPhrases';

export type Transfer = PayloadOf<'agent.file.transfer'>;

/** How long a /save may take before it gives up (a stalled host never hangs the terminal). */
const SAVE_TIMEOUT_MS = 120_000;
/** Other names tried when the file's own is taken ("notes (1).txt" …). */
const MAX_NAME_TRIES = 100;

/**
 * The absolute URL of the transfer's file on the attached host — relative `/v1/files/{id}` or
 * absolute on the host's own origin — or undefined for a file elsewhere (never fetched with our token).
 */
export function hostFileUrl(t: Transfer, httpBase: string | undefined): string | undefined {
  if (!httpBase) return undefined;
  let u: URL;
  try {
    u = new URL(t.file_url, httpBase);
  } catch {
    return undefined;
  }
  if (u.origin !== new URL(httpBase).origin || transferIdOfPath(u.pathname) === undefined) return undefined;
  return u.href;
}

/** 68 B, 1.2 kB, 3.4 MB — decimal units, as the host's limits are given. */
export function sizeText(bytes: number): string {
  const units = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  if (unit === 0) return `${bytes} B`;
  return new Intl.NumberFormat('en', { style: 'unit', unit: units[unit], unitDisplay: 'short', maximumFractionDigits: 1 }).format(value);
}

/**
 * The lines of one transfer (numbered `n` in the session), in `lang`, e.g.
 *   ⇩ file 1 from the agent: chart.png (image/png, 68 B) for out/chart.png
 *     type /save 1 to keep a copy here · GET http://127.0.0.1:8080/v1/files/… with the access token
 */
export function transferText(t: Transfer, n: number, httpBase: string | undefined, indent: string, lang: HostLanguage = 'en'): string {
  const who = attachPhrase(t.direction === 'download' ? 'file.from_agent' : 'file.uploaded', [n], lang);
  const where = t.context?.workspace_relative_path ? attachPhrase('file.for_path', [t.context.workspace_relative_path], lang) : '';
  const head = `${indent}${who}: ${t.file_name} (${t.mime_type}, ${sizeText(t.size_bytes)})${where}\n`;
  const url = hostFileUrl(t, httpBase);
  if (url) return `${head}${indent}  ${attachPhrase('file.save_hint', [n, url], lang)}\n`;
  return `${head}${indent}  ${attachPhrase('file.at', [t.file_url], lang)}\n`;
}

export interface SaveOptions {
  httpBase: string;
  token: string;
  ca?: Buffer;
  /** The folder to save into (default: the current one). */
  dir?: string;
  /** The language of the errors thrown (the terminal's; English by default). */
  language?: HostLanguage;
}

/** An error in `lang`: what /save reports when it could not fetch or keep the file. */
function failure(lang: HostLanguage, id: AttachPhraseId, ...args: Array<string | number>): Error {
  return new Error(attachPhrase(id, args, lang));
}

/** Fetches the transfer's file from the host, checks it, and writes it under a free name; its path. */
export async function saveTransfer(t: Transfer, o: SaveOptions): Promise<{ path: string; size: number; sha256: string }> {
  const lang = o.language ?? 'en';
  const url = hostFileUrl(t, o.httpBase);
  if (!url) throw failure(lang, 'save.elsewhere', t.file_name, t.file_url);
  const dir = resolve(o.dir ?? '.');
  // Said before anything is fetched: a folder that is not there, or not a folder.
  const kind = await fsp.stat(dir).then((st) => (st.isDirectory() ? 'folder' : 'other'), () => 'missing');
  if (kind === 'missing') throw failure(lang, 'save.no_folder', dir);
  if (kind === 'other') throw failure(lang, 'save.not_a_folder', dir);
  const res = await get(url, o);
  try {
    if (res.statusCode !== 200) throw failure(lang, 'save.host_answered', String(res.statusCode), await errorOf(res));
    const hash = createHash('sha256');
    const chunks: Buffer[] = [];
    let size = 0;
    // Bounded by what the frame announced: a host that sends more is not believed.
    for await (const chunk of res as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > t.size_bytes) throw failure(lang, 'save.too_many_bytes', t.size_bytes);
      hash.update(chunk);
      chunks.push(chunk);
    }
    const sha256 = hash.digest('hex');
    const expected = (t.checksum ?? header(res, CHECKSUM_HEADER))?.toLowerCase();
    if (expected && expected !== sha256) throw failure(lang, 'save.checksum', sha256, expected);
    if (size !== t.size_bytes) throw failure(lang, 'save.wrong_size', size, t.size_bytes);
    const path = await writeFree(dir, safeName(t.file_name), Buffer.concat(chunks), lang);
    return { path, size, sha256 };
  } finally {
    res.destroy();
  }
}

function get(url: string, o: SaveOptions): Promise<IncomingMessage> {
  return new Promise((resolvePromise, reject) => {
    const u = new URL(url);
    const request = u.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = request(u, { method: 'GET', headers: { authorization: `Bearer ${o.token}` }, timeout: SAVE_TIMEOUT_MS, ...(o.ca ? { ca: o.ca } : {}) }, resolvePromise);
    req.on('timeout', () => req.destroy(failure(o.language ?? 'en', 'save.timeout', SAVE_TIMEOUT_MS / 1000)));
    req.on('error', reject);
    req.end();
  });
}

async function errorOf(res: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of res as AsyncIterable<Buffer>) {
    body += chunk.toString('utf8');
    if (body.length > 2000) break;
  }
  try {
    const e = (JSON.parse(body) as { error?: unknown }).error;
    return typeof e === 'string' ? `: ${e.slice(0, 300)}` : '';
  } catch {
    return '';
  }
}

function header(res: IncomingMessage, name: string): string | undefined {
  const h = res.headers[name];
  return Array.isArray(h) ? h[0] : h;
}

/** The frame's file name as one plain file name here: no folders, no control characters, no dot files. */
export function safeName(name: string): string {
  // eslint-disable-next-line no-control-regex
  const plain = basename(name.replace(/\\/g, '/')).replace(/[\x00-\x1f\x7f:*?"<>|]/g, '_').replace(/^\.+/, '').trim().slice(0, 200);
  return plain || 'file';
}

/** Writes `bytes` as DIR/NAME, or NAME (1), (2)… when taken — never over an existing file. */
async function writeFree(dir: string, name: string, bytes: Buffer, lang: HostLanguage): Promise<string> {
  const ext = extname(name);
  const stem = ext ? name.slice(0, -ext.length) : name;
  for (let i = 0; i < MAX_NAME_TRIES; i++) {
    const path = join(dir, i === 0 ? name : `${stem} (${i})${ext}`);
    try {
      await fsp.writeFile(path, bytes, { flag: 'wx' });
      return path;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') continue;
      // Known causes in words; another one as the system says it.
      const said: AttachPhraseId | undefined = code === 'EACCES' || code === 'EPERM' ? 'save.permission_denied' : code === 'EROFS' ? 'save.read_only' : code === 'ENOSPC' ? 'save.disk_full' : code === 'ENOENT' ? 'save.no_new_files' : undefined;
      throw failure(lang, 'save.cannot_write', dir, said ? attachPhrase(said, [], lang) : (e as Error).message);
    }
  }
  throw failure(lang, 'save.names_taken', name, MAX_NAME_TRIES - 1, dir);
}
