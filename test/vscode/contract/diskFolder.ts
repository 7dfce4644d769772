// A workspace folder on disk for the FsBackend contract, with a folder outside it that holds a
// secret: the Node backend (mocha) and the VS Code backend over `file:` (code-server) share it.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ContractFixture } from './fsBackendContract';

export interface DiskFolder {
  root: string;
  /** Changes made beside the backend, straight on the disk. */
  outside: ContractFixture['outside'];
  remove(): void;
}

export function makeDiskFolder(prefix: string): DiskFolder {
  const base = mkdtempSync(join(tmpdir(), prefix));
  const root = join(base, 'ws');
  const outsideDir = join(base, 'outside');
  mkdirSync(root);
  mkdirSync(outsideDir);
  writeFileSync(join(outsideDir, 'secret.txt'), 'top secret\n');
  const abs = (rel: string) => join(root, rel);
  return {
    root,
    outside: {
      async write(rel, content) {
        mkdirSync(dirname(abs(rel)), { recursive: true });
        writeFileSync(abs(rel), content);
      },
      async read(rel) {
        try {
          return readFileSync(abs(rel));
        } catch {
          return undefined;
        }
      },
      async remove(rel) {
        rmSync(abs(rel), { force: true });
      },
      async symlinkOut(rel, to) {
        mkdirSync(dirname(abs(rel)), { recursive: true });
        symlinkSync(to === 'file' ? join(outsideDir, 'secret.txt') : outsideDir, abs(rel));
      },
    },
    remove: () => rmSync(base, { recursive: true, force: true }),
  };
}
