// A change feed for the file index outside VS Code (`rawp serve`, tests): `fs.watch` with
// `recursive: true` on each root, events coalesced into batches. fs.watch says only "rename" or
// "change"; whether a path was created or deleted is decided by looking (lstat) when the batch is
// flushed. Same shape as `FsBackend.watch`, so `index.attach((l) => watchTree(roots, l))` works;
// the Node backend's own `watch` is this one, its temp files left out (nodeFsBackend.ts).
import { watch, type FSWatcher, promises as fsp } from 'node:fs';
import { join } from 'node:path';
import type { Disposable, FsChange } from './fsBackend';
import { startWatchWorker } from './watchWorker';

export interface WatchOptions {
  /** Coalescing window in ms (default 25). */
  batchMs?: number;
  /** Names (relative to their root) that are never reported, e.g. a backend's own temp files. */
  ignore?: (name: string) => boolean;
  /** Whether a path exists now (default: lstat). Tests slow it down to reorder looks. */
  exists?: (path: string) => Promise<boolean>;
  /**
   * Set the recursive watch up in a worker thread (watchWorker.ts): Node's own walks the whole tree
   * synchronously first, holding the event loop for seconds on a big workspace. `rawp serve` uses
   * it; the watch then starts a moment later (`ready`).
   */
  inWorker?: boolean;
}

/** The default look: does `path` exist (a dangling symlink does)? */
export const lstatExists = (path: string): Promise<boolean> =>
  fsp.lstat(path).then(
    () => true,
    () => false,
  );

export function watchTree(roots: readonly string[], listener: (changes: FsChange[]) => void, options: WatchOptions = {}): Disposable & { ready: Promise<void> } {
  const batchMs = options.batchMs ?? 25;
  const pending = new Map<string, 'rename' | 'change'>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;

  const exists = options.exists ?? lstatExists;
  // Batches are looked at and delivered one after another. Two flushes in flight could finish out of
  // order under load: an older look ("x deleted") delivered after a newer one ("x created", a save by
  // rename) would drop a file that exists from the index for good. In turn, every look sees a later
  // disk than the one before it, so the last word on a path is always the newest.
  let delivering: Promise<void> = Promise.resolve();
  const look = async (items: [string, 'rename' | 'change'][]): Promise<void> => {
    const changes = await Promise.all(
      items.map(async ([path, kind]): Promise<FsChange> => {
        if (!(await exists(path))) return { kind: 'deleted', path };
        return { kind: kind === 'rename' ? 'created' : 'changed', path };
      }),
    );
    if (!closed && changes.length) listener(changes);
  };
  const flush = (): void => {
    timer = undefined;
    const items = [...pending];
    pending.clear();
    delivering = delivering.then(() => look(items)).catch(() => undefined); // a throwing listener must not stop later batches
  };

  const onEvent = (root: string, event: string, filename: string): void => {
    if (closed || !filename) return;
    if (options.ignore?.(filename)) return;
    const path = join(root, filename);
    // A rename beats a change for the same path within one batch.
    if (pending.get(path) !== 'rename') pending.set(path, event === 'rename' ? 'rename' : 'change');
    timer ??= setTimeout(flush, batchMs);
  };

  const watchers: { close(): void }[] = [];
  const readies: Promise<void>[] = [];
  for (const root of roots) {
    if (options.inWorker) {
      const w = startWatchWorker(root, (event, filename) => onEvent(root, event, filename));
      watchers.push(w);
      readies.push(w.ready);
      continue;
    }
    try {
      const w: FSWatcher = watch(root, { recursive: true }, (event, filename) => {
        if (filename) onEvent(root, event, filename.toString());
      });
      w.on('error', () => undefined); // a vanished root: nothing more to report
      watchers.push(w);
    } catch {
      // root missing or not watchable: the index simply stays as listed
    }
  }
  return {
    ready: Promise.all(readies).then(() => undefined),
    dispose() {
      closed = true;
      if (timer) clearTimeout(timer);
      for (const w of watchers) w.close();
    },
  };
}
