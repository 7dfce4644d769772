// The FsBackend contract (test/vscode/contract/fsBackendContract.ts) against the Node backend —
// what `rawp serve` uses. The same tests run against the VS Code backend inside code-server.
import { NodeFsBackend } from '../../../src/workspace/nodeFsBackend';
import { makeDiskFolder } from '../../vscode/contract/diskFolder';
import { fsBackendContract } from '../../vscode/contract/fsBackendContract';

fsBackendContract(
  'the Node backend (rawp serve)',
  async () => {
    const disk = makeDiskFolder('rawp-contract-');
    return { fs: new NodeFsBackend([disk.root]), outside: disk.outside, dispose: async () => disk.remove() };
  },
  { symlinks: true },
);
