// The sentence an Edit or Write result carries when the file it replaced had other hard links
// (decision 603): those names keep the old content, and whoever reads the result should know that
// a change "to the file" did not reach them.
import type { FsWriteResult } from '../workspace/fsBackend';

export function hardLinkNote(r: FsWriteResult): string | undefined {
  const n = r.otherLinks ?? 0;
  if (n <= 0) return undefined;
  return `the file had ${n} other hard ${n === 1 ? 'link' : 'links'}; ${n === 1 ? 'it keeps' : 'they keep'} the old content (the change was saved as a new file, as editors that save atomically do)`;
}

/** `note` and the hard-link note, as one `note` field (none when neither is there). */
export function withLinkNote<T extends object>(output: T & { note?: string }, r: FsWriteResult): T & { note?: string } {
  const link = hardLinkNote(r);
  if (!link) return output;
  return { ...output, note: output.note ? `${output.note}; ${link}` : link };
}
