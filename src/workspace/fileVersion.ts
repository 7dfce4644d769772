// File versions (read-before-write, spec read-before-write.md): content-addressed,
// `c1:<sha256 of the bytes, base64url>`. Two reads of the same bytes give the same version and any
// content change gives a new one, even inside one mtime tick (a stat-based token cannot promise
// that). The VS Code backend folds an open dirty document in by hashing the document's text with
// the same function (`versionOfTextAsync`), so a person's unsaved typing changes the version and a
// guarded write can never overwrite it unread.
//
// A big file is hashed in slices with event-loop turns between them (bytesInTurns.ts): the async
// forms below are what the backends use for file contents; the synchronous ones are only for
// inputs known to be small (a symlink's target, a test's literal).
import { createHash } from 'node:crypto';
import { digestInTurns, encodeUtf8InTurns, SLICE_BYTES } from './bytesInTurns';
import type { FsVersion } from './fsBackend';

const VERSION_PREFIX = 'c1:';
/** How long a file must have been untouched before its cached hash is trusted (see VersionCache). */
const STABLE_MS = 2_000;
/** Beyond this many entries the cache starts afresh (a bound, not a tuning knob). */
const MAX_ENTRIES = 20_000;

/**
 * The version of a file's bytes, hashed in one go: only for inputs known to be small (it holds the
 * event loop for the whole hash). Every backend issues identical tokens for identical bytes.
 */
export function versionOfBytes(bytes: Uint8Array): FsVersion {
  return (VERSION_PREFIX + createHash('sha256').update(bytes).digest('base64url')) as FsVersion;
}

/** The version of a small text as it would be saved in UTF-8 (see versionOfBytes). */
export function versionOfText(text: string): FsVersion {
  return versionOfBytes(Buffer.from(text, 'utf8'));
}

/** The same version as versionOfBytes, for bytes of any size: big ones are hashed in turns. */
export async function versionOfBytesAsync(bytes: Uint8Array): Promise<FsVersion> {
  if (bytes.byteLength <= SLICE_BYTES) return versionOfBytes(bytes);
  return (VERSION_PREFIX + (await digestInTurns('sha256', [bytes], 'base64url'))) as FsVersion;
}

/** The same version as versionOfText, for texts of any size (a dirty editor buffer): encoded and hashed in turns. */
export async function versionOfTextAsync(text: string): Promise<FsVersion> {
  return versionOfBytesAsync(await encodeUtf8InTurns(text));
}

/**
 * Versions for `stat`, cached by a file's stat identity (the Node backend: dev, ino, size, mtime and
 * ctime in ns; the VS Code one: size, mtime, ctime). Like git's "racy" rule, a cached hash is
 * trusted only if the file had not been modified for STABLE_MS when it was hashed, so a write
 * inside one timestamp tick can never hide behind a cached entry. Reads and writes always hash the
 * bytes they use. Both backends use it.
 */
export class VersionCache {
  private readonly entries = new Map<string, { key: string; version: FsVersion; stable: boolean }>();

  /**
   * `id`: the file (a path, a URI); `key`: its stat identity now; `changedAtMs`: its last
   * modification (the later of mtime and ctime); `read`: its bytes, read only on a miss.
   */
  async versionOf(id: string, key: string, changedAtMs: number, read: () => Promise<Uint8Array>): Promise<FsVersion> {
    const hit = this.entries.get(id);
    if (hit && hit.key === key && hit.stable) return hit.version;
    const hashedAt = Date.now();
    const version = await versionOfBytesAsync(await read());
    if (this.entries.size > MAX_ENTRIES) this.entries.clear();
    this.entries.set(id, { key, version, stable: hashedAt - changedAtMs > STABLE_MS });
    return version;
  }

  /** The file changed under a watcher or by a write of ours: its next stat hashes again. */
  forget(id: string): void {
    this.entries.delete(id);
  }
}
