// Local files with an attachment's bytes, for agents that take attachments only as paths (Codex's
// `--image <FILE>`, decision 312). One private folder (0700) per session under the OS temp folder,
// files 0600 named by their SHA-256 (the same image attached twice is written once), removed when
// the session ends or the host stops. Nothing here outlives the process that made it.
import { mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import type { ResolvedContextFile } from '../session/contextFiles';

/** A safe extension for the copy (Codex reads the image type from it): letters and digits only. */
function extensionOf(name: string, mimeType: string): string {
  const ext = extname(name).toLowerCase();
  if (/^\.[a-z0-9]{1,8}$/.test(ext)) return ext;
  const sub = mimeType.split('/')[1]?.split(/[;+]/)[0] ?? '';
  return /^[a-z0-9]{1,8}$/.test(sub) ? `.${sub === 'jpeg' ? 'jpg' : sub}` : '';
}

export class AttachmentCopies {
  private readonly folders = new Map<string, string>();

  constructor(private readonly base: string = tmpdir()) {}

  async copy(session_id: string, file: ResolvedContextFile): Promise<string> {
    let dir = this.folders.get(session_id);
    if (!dir) {
      dir = mkdtempSync(join(this.base, 'rawp-attachments-'));
      this.folders.set(session_id, dir);
    }
    const path = join(dir, `${file.sha256}${extensionOf(file.name, file.mimeType)}`);
    if (!existsSync(path)) writeFileSync(path, file.bytes, { mode: 0o600 });
    return path;
  }

  /** The session ended: its copies go. */
  release(session_id: string): void {
    const dir = this.folders.get(session_id);
    this.folders.delete(session_id);
    if (dir) rmSync(dir, { recursive: true, force: true });
  }

  releaseAll(): void {
    for (const id of [...this.folders.keys()]) this.release(id);
  }
}
