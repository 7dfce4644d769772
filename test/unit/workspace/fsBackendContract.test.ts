// The FsBackend contract (test/vscode/contract/fsBackendContract.ts) against the Node backend —
// what `rawp serve` uses. The same tests run against the VS Code backend inside code-server.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { NodeFsBackend } from '../../../src/workspace/nodeFsBackend';
import { fsBackendContract } from '../../vscode/contract/fsBackendContract';

fsBackendContract(
  'the Node backend (rawp serve)',
  async () => {
    const base = mkdtempSync(join(tmpdir(), 'rawp-contract-'));
    const root = join(base, 'ws');
    const outsideDir = join(base, 'outside');
    mkdirSync(root);
    mkdirSync(outsideDir);
    writeFileSync(join(outsideDir, 'secret.txt'), 'top secret\n');
    const fs = new NodeFsBackend([root]);
    const abs = (rel: string) => join(fs.roots[0], rel);
    return {
      fs,
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
      async dispose() {
        rmSync(base, { recursive: true, force: true });
      },
    };
  },
  { symlinks: true },
);
