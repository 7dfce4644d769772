// The FsBackend contract (test/vscode/contract/fsBackendContract.ts) against the VS Code backend,
// inside a real VS Code: over a `file:` folder (the disk through workspace.fs) and over an
// extension's in-memory file system (scheme `rawpmem`). The Node backend runs the same tests in mocha.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { VscodeFsBackend } from '../../../src/extension/vscodeFsBackend';
import { fsBackendContract } from '../contract/fsBackendContract';
import { MEM_SCHEME, memFs } from './memFs';

fsBackendContract(
  'the VS Code backend over a file: folder (workspace.fs)',
  async () => {
    const base = mkdtempSync(join(tmpdir(), 'rawp-vscontract-'));
    const root = join(base, 'ws');
    const outsideDir = join(base, 'outside');
    mkdirSync(root);
    mkdirSync(outsideDir);
    writeFileSync(join(outsideDir, 'secret.txt'), 'top secret\n');
    const fs = new VscodeFsBackend([vscode.Uri.file(root)]);
    const abs = (rel: string) => join(root, rel);
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
        fs.dispose();
        rmSync(base, { recursive: true, force: true });
      },
    };
  },
  { symlinks: true },
);

let n = 0;
fsBackendContract(
  `the VS Code backend over an extension's file system (${MEM_SCHEME}:)`,
  async () => {
    const mem = memFs();
    const dir = `/contract-${++n}`;
    mem.put(`${dir}/.keep`, '');
    const fs = new VscodeFsBackend([vscode.Uri.from({ scheme: MEM_SCHEME, path: dir })]);
    return {
      fs,
      outside: {
        async write(rel, content) {
          mem.put(`${dir}/${rel}`, content);
        },
        async read(rel) {
          return mem.get(`${dir}/${rel}`);
        },
        async remove(rel) {
          mem.remove(`${dir}/${rel}`);
        },
      },
      async dispose() {
        fs.dispose();
        mem.remove(dir);
      },
    };
  },
  { symlinks: false },
);
