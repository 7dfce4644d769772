// A private scratch file an agent CLI reads by path for one turn (Codex's --output-schema FILE,
// §11): its own 0700 folder under the OS temp folder, the file 0600, both gone on dispose().
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ScratchFile {
  readonly path: string;
  dispose(): void;
}

export function writeScratchFile(prefix: string, name: string, text: string): ScratchFile {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const path = join(dir, name);
  writeFileSync(path, text, { mode: 0o600, flag: 'wx' });
  return { path, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}
