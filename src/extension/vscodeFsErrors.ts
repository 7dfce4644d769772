// vscode.FileSystemError codes (and the Node codes some providers throw) as the FsBackend contract
// names them — the VS Code backend's twin of src/workspace/nodeFsErrors.ts. Shared by the backend
// (vscodeFsBackend.ts) and its times (vscodeTimes.ts).
import { FsError, notFoundError } from '../workspace/fsBackend';

/** vscode.FileSystemError (by its code) and Node errors from providers, as FsError. */
export function toFsError(e: unknown, path: string): FsError {
  if (e instanceof FsError) return e;
  const code = (e as { code?: string }).code;
  switch (code) {
    case 'FileNotFound':
    case 'EntryNotFound':
    case 'ENOENT':
    case 'ENOTDIR':
      return notFoundError(path);
    case 'FileIsADirectory':
    case 'EntryIsADirectory':
    case 'EISDIR':
      return new FsError(`"${path}" is a directory`, 'FS_IS_DIRECTORY');
    case 'FileNotADirectory':
    case 'EntryNotADirectory':
      return notFoundError(path, ' (a part of it is a file)');
    case 'NoPermissions':
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return new FsError(`permission denied: "${path}"`, 'FS_PERMISSION');
    case 'FileExists':
    case 'EntryExists':
    case 'EEXIST':
      return new FsError(`"${path}" already exists`, 'FS_EXISTS');
    default:
      return new FsError(`I/O error on "${path}": ${(e as Error)?.message ?? String(e)}`, 'FS_IO');
  }
}
