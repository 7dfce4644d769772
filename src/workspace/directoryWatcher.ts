// Watches a few directories (and not-yet-existing ones) so that creating, changing or deleting a file
// in them calls back — the slash-command service's refresh (the spec has no watcher, slash-commands
// §4; issue 5 asks for one; decision 011). Built on node:fs.watch
// (non-recursive). A directory that does not exist yet is covered by watching its nearest existing
// ancestor for the one name that leads towards it; after every refresh `sync` re-arms, so once the
// directory appears it is watched itself. Events are debounced into one callback.
// A target can also be a plan of its own — a directory and the one entry name in it that matters —
// for a caller that must not have a path followed: a workspace's commands folder that is a
// symlink out of the workspace is watched as a name in its parent, never through the link, so
// writes behind the link refresh nothing (decision 712).
import { watch, statSync, type FSWatcher } from 'node:fs';
import { basename, dirname, sep } from 'node:path';

interface Armed {
  watcher: FSWatcher;
  /** Inode at arming time: a directory deleted and re-created must be watched afresh. */
  ino: number;
  /** Entry names that matter, or '*' for every entry. */
  names: Set<string> | '*';
}

function statOrUndefined(path: string): { ino: number | bigint; isDirectory(): boolean } | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/** A path to watch (followed, as `watchPlan` says), or the one entry `name` of the directory `dir`. */
export type WatchTarget = string | { dir: string; name: string };

/** Which directory to watch for `target`, and which entry names in it matter. */
export function watchPlan(target: WatchTarget): { dir: string; name: string | '*' } | undefined {
  if (typeof target !== 'string') return { dir: target.dir, name: target.name };
  const s = statOrUndefined(target);
  if (s?.isDirectory()) return { dir: target, name: '*' };
  let child = target;
  let dir = dirname(target);
  for (;;) {
    const d = statOrUndefined(dir);
    if (d?.isDirectory()) return { dir, name: basename(child) };
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    child = dir;
    dir = parent;
  }
}

export class DirectoryWatcher {
  private readonly armed = new Map<string, Armed>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;

  constructor(
    private readonly onChange: () => void,
    private readonly debounceMs = 150,
  ) {}

  /** Watched directories (for diagnostics and tests). */
  get watchedDirs(): string[] {
    return [...this.armed.keys()].sort();
  }

  /** Arms watchers for exactly these targets (directories or files, existing or not; or plans). */
  sync(targets: readonly WatchTarget[]): void {
    if (this.disposed) return;
    const wanted = new Map<string, Set<string> | '*'>();
    for (const t of targets) {
      const plan = watchPlan(t);
      if (!plan) continue;
      const prev = wanted.get(plan.dir);
      if (prev === '*' || plan.name === '*') wanted.set(plan.dir, '*');
      else wanted.set(plan.dir, new Set([...(prev ?? []), plan.name]));
    }
    for (const [dir, armed] of this.armed) {
      const s = statOrUndefined(dir);
      if (!wanted.has(dir) || !s || Number(s.ino) !== armed.ino) this.disarm(dir);
    }
    for (const [dir, names] of wanted) {
      const armed = this.armed.get(dir);
      if (armed) armed.names = names;
      else this.arm(dir, names);
    }
  }

  private arm(dir: string, names: Set<string> | '*'): void {
    const s = statOrUndefined(dir);
    if (!s) return;
    let watcher: FSWatcher;
    try {
      watcher = watch(dir, { persistent: false }, (_event, filename) => this.onEvent(dir, filename));
    } catch {
      return; // unwatchable (permissions, too many watchers): the next refresh tries again
    }
    // A watched directory that goes away errors on some platforms: drop it, re-arm on refresh.
    watcher.on('error', () => {
      this.disarm(dir);
      this.schedule();
    });
    this.armed.set(dir, { watcher, ino: Number(s.ino), names });
  }

  private disarm(dir: string): void {
    this.armed.get(dir)?.watcher.close();
    this.armed.delete(dir);
  }

  private onEvent(dir: string, filename: string | Buffer | null): void {
    const armed = this.armed.get(dir);
    if (!armed) return;
    if (armed.names !== '*' && filename !== null) {
      const name = String(filename).split(sep)[0];
      if (!armed.names.has(name)) return;
    }
    this.schedule();
  }

  private schedule(): void {
    if (this.disposed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (!this.disposed) this.onChange();
    }, this.debounceMs);
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    for (const dir of [...this.armed.keys()]) this.disarm(dir);
  }
}
