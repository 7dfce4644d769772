// One critical section per key (a path, a document URI): every write of a backend for one file
// runs after the earlier ones ended, so "check guard -> transform -> write" cannot interleave with
// another write of ours. Both FsBackends (Node, VS Code) use it.

export class PathLocks {
  private readonly tails = new Map<string, Promise<unknown>>();

  /** Runs `fn` after every earlier critical section for `key` has ended (whether it failed or not). */
  run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.tails.get(key) ?? Promise.resolve();
    const run = prev.then(fn, fn);
    const tail = run.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return run;
  }
}
