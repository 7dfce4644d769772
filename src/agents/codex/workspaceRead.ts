// Reads of the files a Codex `file_change` item names, for its diff (decision 714). The item is
// the agent's word, and its paths may lead anywhere: outside the workspace (`/home/me/.ssh/id_rsa`,
// `../secret`), through a symlink, to a FIFO that blocks a plain read forever, to /dev/zero that
// never ends. A diff goes out in a tool.invoke.result to every master and into the journal, so
// what it shows must be what the user shared: only regular files inside the workspace folders,
// read through the workspace FsBackend (no symlink on the way or at the leaf, no FIFO opened
// blocking: nodeFsBackend.ts, pinnedDir.ts) and no bigger than MAX_DIFF_FILE_BYTES. Everything
// else is a refusal in words, never an error and never a wait.
import { isAbsolute, join, relative, resolve } from 'node:path';
import { FsError, type FsBackend, type FsEntryType } from '../../workspace/fsBackend';
import { isInside } from '../../tools/paths';
import { leavesRoot } from '../../workspace/leavesRoot';
import { realLocation } from '../../workspace/realLocation';

/** A file over this is not read for a diff: a note says so (a diff of it would flood every master). */
export const MAX_DIFF_FILE_BYTES = 1 << 20;

export type FileSnapshot =
  | { kind: 'text'; text: string }
  /** Not there (a file being added, or deleted). */
  | { kind: 'absent' }
  /** Not read: `why` says it in words, without any of its content. */
  | { kind: 'refused'; why: string };

export const ABSENT: FileSnapshot = { kind: 'absent' };

export function refused(why: string): FileSnapshot {
  return { kind: 'refused', why };
}

export class WorkspaceTextReader {
  /** The folder Codex runs in, every symlink resolved: the backend's roots are real paths. */
  private readonly realWorkspace: string;

  constructor(
    /** Undefined when the workspace could not be opened: then every read is refused. */
    private readonly fs: FsBackend | undefined,
    private readonly workspacePath: string,
    private readonly maxBytes: number = MAX_DIFF_FILE_BYTES,
  ) {
    this.realWorkspace = realLocation(workspacePath);
  }

  async read(p: string): Promise<FileSnapshot> {
    const fs = this.fs;
    if (!fs) return refused('the workspace folder could not be opened');
    const abs = this.place(fs, p);
    if (abs === undefined) return refused('it is outside the workspace');
    try {
      if (fs.readTextPrefix) {
        // Bounded by construction: no more than the limit is read, whatever the file does meanwhile.
        const t = await fs.readTextPrefix(abs, this.maxBytes);
        if (t.total > this.maxBytes) return this.tooBig(t.total);
        if (t.binary) return refused('it is not text');
        return { kind: 'text', text: t.text };
      }
      // Type and size first, content never: a big or special file is refused before it is opened.
      const [time] = fs.times ? await fs.times([abs]) : [undefined];
      const st = time ?? (await fs.stat(abs));
      if (!st) return ABSENT;
      if (st.type !== 'file') return refused(TYPE_WORDS[st.type]);
      if (st.size > this.maxBytes) return this.tooBig(st.size);
      const { text } = await fs.readText(abs);
      // It may have grown since its size was read (as Grep's read, grepFile.ts).
      const bytes = Buffer.byteLength(text, 'utf8');
      if (bytes > this.maxBytes) return this.tooBig(bytes);
      if (text.includes('\0')) return refused('it is not text');
      return { kind: 'text', text };
    } catch (e) {
      if (e instanceof FsError) return e.code === 'FS_NOT_FOUND' ? ABSENT : refused(ERROR_WORDS[e.code] ?? 'it could not be read');
      return refused('it could not be read');
    }
  }

  /**
   * The absolute path `p` names inside the backend's roots, or undefined. Codex names files from
   * the folder it was started in (relative, or absolute under it); the roots are real paths, so a
   * workspace reached through a symlink (/tmp on macOS) is moved onto its real folder first. Only
   * that folder itself is resolved: symlinks below it are the backend's to refuse.
   */
  private place(fs: FsBackend, p: string): string | undefined {
    if (p.length === 0 || p.includes('\0')) return undefined;
    const abs = isAbsolute(p) ? resolve(p) : resolve(this.workspacePath, p);
    const rel = relative(this.workspacePath, abs);
    const placed = leavesRoot(rel) ? abs : join(this.realWorkspace, rel);
    return isInside(fs.roots, placed) ? placed : undefined;
  }

  private tooBig(bytes: number): FileSnapshot {
    return refused(`it is ${bytes} bytes, over the ${mib(this.maxBytes)} a diff may show`);
  }
}

export function mib(bytes: number): string {
  return bytes >= 1 << 20 ? `${(bytes / (1 << 20)).toFixed(1).replace(/\.0$/, '')} MiB` : `${bytes} bytes`;
}

const TYPE_WORDS: Record<Exclude<FsEntryType, 'file'>, string> = {
  directory: 'it is a directory',
  symlink: 'it is a symlink, which could point outside the workspace',
  other: 'it is not a regular file (a FIFO, a device or a socket)',
};

const ERROR_WORDS: Partial<Record<FsError['code'], string>> = {
  FS_OUTSIDE_WORKSPACE: 'it is outside the workspace or reached through a symlink',
  FS_IS_DIRECTORY: 'it is a directory',
  FS_PERMISSION: 'permission to read it was denied',
  // The Node backend's word for a FIFO, device or socket opened non-blocking (pinnedDir.ts).
  FS_IO: 'it is not a regular file or could not be read',
};
