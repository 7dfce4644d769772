// Temp home + workspace trees for command tests. Never touches the real home directory.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface Sandbox {
  root: string;
  home: string;
  ws: string;
  /** Writes files relative to `base` (created with parents). */
  write(base: string, files: Record<string, string>): void;
  cleanup(): void;
}

export function sandbox(): Sandbox {
  const root = mkdtempSync(join(tmpdir(), 'rawp-cmd-'));
  const home = join(root, 'home');
  const ws = join(root, 'ws');
  mkdirSync(home);
  mkdirSync(ws);
  return {
    root,
    home,
    ws,
    write(base, files) {
      for (const [rel, text] of Object.entries(files)) {
        const p = join(base, rel);
        mkdirSync(dirname(p), { recursive: true });
        writeFileSync(p, text);
      }
    },
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}
