// The FsBackend contract (test/vscode/contract/fsBackendContract.ts) against the VS Code backend,
// inside a real VS Code: over a `file:` folder (the disk through workspace.fs) and over an
// extension's in-memory file system (scheme `rawpmem`). The Node backend runs the same tests in mocha.
import * as vscode from 'vscode';
import { VscodeFsBackend } from '../../../src/extension/vscodeFsBackend';
import { makeDiskFolder } from '../contract/diskFolder';
import { fsBackendContract } from '../contract/fsBackendContract';
import { MEM_SCHEME, memFs } from './memFs';

fsBackendContract(
  'the VS Code backend over a file: folder (workspace.fs)',
  async () => {
    const disk = makeDiskFolder('rawp-vscontract-');
    const fs = new VscodeFsBackend([vscode.Uri.file(disk.root)]);
    return {
      fs,
      outside: disk.outside,
      async dispose() {
        fs.dispose();
        disk.remove();
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
