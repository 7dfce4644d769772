// The workspace's shadow repositories: one for the workspace, one more for each nested repository
// or submodule inside it (decision 333). git does not descend into a folder that has its own
// `.git`, so each such folder gets a shadow repository of its own, with that folder as its work
// tree; a workspace snapshot is the tree of each, by folder. Paths outside are workspace-relative.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { CheckpointSkipped } from '../../protocol/checkpointFrames';
import { FileFilter } from './fileFilter';
import { EMPTY_TREE } from './git';
import { ShadowRepo, type TreeChange } from './shadowRepo';

/** Folder prefix ('' for the workspace, 'sub/' for a nested repository) -> its tree. */
export type Trees = Record<string, string>;

export interface WorkspaceSnapshot {
  trees: Trees;
  skipped: CheckpointSkipped[];
}

/** Nested repositories are followed this deep and this many (a vendored node_modules of repos stops here). */
const MAX_DEPTH = 6;
const MAX_NESTED = 200;

export class WorkspaceRepos {
  private readonly repos = new Map<string, ShadowRepo>();
  private readonly filter: FileFilter;

  constructor(
    private readonly dir: string,
    readonly workspace: string,
    maxFileBytes?: number,
  ) {
    this.filter = new FileFilter(maxFileBytes);
  }

  private repo(prefix: string): ShadowRepo {
    let r = this.repos.get(prefix);
    if (!r) {
      const gitDir = prefix === '' ? join(this.dir, 'workspace.git') : join(this.dir, 'nested', `${createHash('sha256').update(prefix).digest('hex').slice(0, 24)}.git`);
      r = new ShadowRepo(gitDir, join(this.workspace, prefix), this.filter);
      this.repos.set(prefix, r);
    }
    return r;
  }

  async snapshot(): Promise<WorkspaceSnapshot> {
    const trees: Trees = {};
    const skipped: CheckpointSkipped[] = [];
    const queue: { prefix: string; depth: number }[] = [{ prefix: '', depth: 0 }];
    while (queue.length > 0) {
      const { prefix, depth } = queue.shift()!;
      const s = await this.repo(prefix).snapshot();
      trees[prefix] = s.tree;
      for (const k of s.skipped) skipped.push({ ...k, path: prefix + k.path });
      if (depth >= MAX_DEPTH) continue;
      for (const n of s.nested) if (Object.keys(trees).length + queue.length < MAX_NESTED) queue.push({ prefix: prefix + n, depth: depth + 1 });
    }
    return { trees, skipped };
  }

  /** Workspace-relative changes from one snapshot to another. */
  async changes(from: Trees, to: Trees): Promise<TreeChange[]> {
    const out: TreeChange[] = [];
    for (const prefix of unionKeys(from, to)) {
      const a = from[prefix] ?? EMPTY_TREE;
      const b = to[prefix] ?? EMPTY_TREE;
      if (a === b) continue;
      for (const c of await this.repo(prefix).changes(a, b)) out.push({ ...c, path: prefix + c.path, ...(c.from !== undefined ? { from: prefix + c.from } : {}) });
    }
    return out.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
  }

  /** Workspace-relative path -> { prefix, blob } of every kept file of a snapshot. */
  async entries(trees: Trees): Promise<Map<string, { prefix: string; blob: string }>> {
    const map = new Map<string, { prefix: string; blob: string }>();
    // Shorter prefixes first: a nested repository's own entries win over anything above it.
    for (const prefix of Object.keys(trees).sort((a, b) => a.length - b.length)) {
      for (const [p, blob] of await this.repo(prefix).entries(trees[prefix])) map.set(prefix + p, { prefix, blob });
    }
    return map;
  }

  /** Prunes every shadow repository of this run down to what the `keep` snapshots need (decision 337). */
  async prune(keep: readonly Trees[]): Promise<void> {
    const byPrefix = new Map<string, string[]>();
    for (const trees of keep) for (const [prefix, tree] of Object.entries(trees)) byPrefix.set(prefix, [...(byPrefix.get(prefix) ?? []), tree]);
    // Every repository a kept snapshot names (from an earlier run too), and those opened in this one.
    for (const prefix of new Set([...byPrefix.keys(), ...this.repos.keys()])) await this.repo(prefix).prune(byPrefix.get(prefix) ?? []);
  }

  /** Objects in all shadow repositories of this run (tests, diagnostics). */
  async objectCount(): Promise<number> {
    let n = 0;
    for (const r of this.repos.values()) n += await r.objectCount();
    return n;
  }

  text(prefix: string, blob: string): Promise<string> {
    return this.repo(prefix).text(blob);
  }
}

function unionKeys(a: Trees, b: Trees): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
}
