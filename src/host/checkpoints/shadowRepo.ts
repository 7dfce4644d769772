// One shadow git repository for one work tree (the workspace, or a nested repository inside it):
// a snapshot stages what changed since the last one (ls-files lists only untracked, modified and
// deleted paths; the index's stat cache makes an unchanged 10,000-file workspace a few
// milliseconds of git) and writes a tree. Trees are content-addressed, so a checkpoint is a tree id.
import { existsSync, promises as fsp } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { CheckpointFile, CheckpointSkipped } from '../../protocol/checkpointFrames';
import { mapLimit, type FileFilter } from './fileFilter';
import { EMPTY_TREE, shadowGit } from './git';
import { writeLooseBlob } from './looseObjects';
import { readPinned } from './pinnedReads';
import type { GitRunner } from './gitRunner';

export interface RepoSnapshot {
  tree: string;
  /** Files not kept (large, binary, symlinks), relative to this work tree. */
  skipped: CheckpointSkipped[];
  /** Nested repositories (folders with their own `.git`), relative, with a trailing `/`. */
  nested: string[];
}

/** One file's change between two trees (the checkpoint frame's own shape). */
export type TreeChange = CheckpointFile;

/** Neutral attributes: no filter, no line-ending or encoding conversion — blobs are the bytes. */
const ATTRIBUTES = '* -text -ident -filter -eol -working-tree-encoding\n';
const BASE_EXCLUDES = ['.git', '.DS_Store'];
const NOT_UTF8_NOTE = 'the file name is not valid UTF-8';
/** Paths per `update-index --index-info` (what one batch reads is staged even if a later one fails). */
const ADD_BATCH = 4096;
/** Entries staged without stat data that make a snapshot refresh the index (see `snapshot`). */
const REFRESH_AFTER = 64;
/** `--index-info`'s mode-0 entry removes a path from the index. */
const NO_OBJECT = '0'.repeat(40);

export class ShadowRepo {
  private readonly git: GitRunner;
  private ready?: Promise<void>;
  /** The tree the index held after the last snapshot: nothing staged since means the same tree. */
  private lastTree?: string;
  /** Entries staged since the index last learned their stat data (`update-index --refresh`). */
  private unrefreshed = 0;
  private refreshed = false;

  constructor(
    readonly gitDir: string,
    readonly workTree: string,
    private readonly filter: FileFilter,
  ) {
    this.git = shadowGit({ gitDir, workTree });
  }

  private init(): Promise<void> {
    this.ready ??= (async () => {
      if (!existsSync(join(this.gitDir, 'HEAD'))) {
        await fsp.mkdir(this.gitDir, { recursive: true, mode: 0o700 });
        await this.git.raw(['init', '-q']);
      }
      // Ours, written every start (a repository from an older version gets them too).
      const config: [string, string][] = [
        ['core.bare', 'false'],
        ['core.autocrlf', 'false'],
        ['core.safecrlf', 'false'],
        ['core.untrackedCache', 'true'],
        ['core.quotePath', 'false'],
        ['core.symlinks', 'true'],
        ['gc.auto', '0'],
        ['user.name', 'RAWP checkpoints'],
        ['user.email', 'checkpoints@rawp.invalid'],
      ];
      for (const [k, v] of config) await this.git.raw(['config', k, v]);
      await fsp.mkdir(join(this.gitDir, 'info'), { recursive: true });
      await fsp.writeFile(join(this.gitDir, 'info', 'attributes'), ATTRIBUTES);
    })();
    this.ready.catch(() => (this.ready = undefined));
    return this.ready;
  }

  /** Stage the work tree as it is now and return its tree. */
  async snapshot(): Promise<RepoSnapshot> {
    await this.init();
    await this.writeExcludes();
    // `-c` lists every kept file too (tag H, skipped below): simple-git, our runner until decision
    // 562, waited 50 ms more for a command that printed nothing (decision 335); parsing is cheap.
    const listed = await this.git.raw(['ls-files', '-z', '-t', '-c', '-o', '-m', '-d', '--exclude-standard']);
    const tracked = new Set<string>();
    const candidates = new Set<string>();
    const nested: string[] = [];
    const skipped: CheckpointSkipped[] = [];
    const untracked = new Set<string>();
    for (const entry of listed.split('\0')) {
      if (entry.length < 3) continue;
      const tag = entry[0];
      if (tag === 'H') continue;
      const path = entry.slice(2);
      // A name that is not UTF-8 reaches us with U+FFFD for its bad bytes (decision 338): it cannot
      // be named back to git or the file system, so it is skipped with a note — never taken for a
      // file whose real name has U+FFFD (that one exists under the decoded name; a second,
      // undecodable twin of it is listed twice).
      if (path.includes('\uFFFD') && tag === '?' && (untracked.has(path) || !existsSync(join(this.workTree, path)))) {
        if (!untracked.has(path) || existsSync(join(this.workTree, path))) skipped.push({ path, reason: 'unreadable', note: NOT_UTF8_NOTE });
        untracked.add(path);
        continue;
      }
      if (tag === '?') untracked.add(path);
      if (path.endsWith('/')) {
        // ls-files does not descend into a folder with its own `.git`: a nested repository.
        if (existsSync(join(this.workTree, path, '.git'))) nested.push(path);
        continue;
      }
      if (tag !== '?') tracked.add(path);
      candidates.add(path);
    }
    const untrack: string[] = [];
    // A tracked file whose folder became a symlink (a branch checked out): git refuses to stage a
    // path beyond a link, and the whole snapshot failed every turn (decision 671). It is untracked,
    // and nothing is read through the link.
    const linked = await beyondLinks(this.workTree, [...candidates]);
    for (const path of linked) {
      candidates.delete(path);
      skipped.push({ path, reason: 'symlink' });
      if (tracked.has(path)) untrack.push(path);
    }
    // Each file is read once, through a pinned handle, and those bytes are what the index gets
    // (decision 681): `git add` would open it again by its path. In batches of ADD_BATCH, so the
    // bytes in memory are at most 16 files' and a stopped snapshot goes on where it ended.
    const paths = [...candidates];
    let staged = 0;
    for (let i = 0; i < paths.length; i += ADD_BATCH) {
      const batch = paths.slice(i, i + ADD_BATCH);
      const entries: string[] = [];
      const lines = await readPinned(this.workTree, batch, this.filter, async (path, v) =>
        'bytes' in v ? `${v.executable ? '100755' : '100644'} ${await writeLooseBlob(this.gitDir, v.bytes)}\t${path}` : v,
      );
      lines.forEach((line, k) => {
        const path = batch[k];
        if (typeof line === 'string') entries.push(line);
        else if (!('reason' in line)) {
          if (tracked.has(path)) entries.push(`0 ${NO_OBJECT}\t${path}`); // staged as deleted
        } else {
          skipped.push({ path, reason: line.reason });
          if (tracked.has(path)) untrack.push(path);
        }
      });
      if (entries.length === 0) continue;
      await this.git.raw(['update-index', '--add', '--remove', '-z', '--index-info'], Buffer.from(entries.join('\0') + '\0'));
      staged += entries.length;
    }
    // Entries staged from our bytes have no stat data, so every later `ls-files -m` hashes their
    // files again to know they are unchanged. A refresh gives them theirs by hashing them once more
    // (it writes no object, and a file changed or swapped since stays "modified"); it costs a git
    // process, so it runs once a session and whenever REFRESH_AFTER such entries have gathered —
    // a few hashed per turn meanwhile cost less than a process per snapshot.
    this.unrefreshed += staged;
    if (this.unrefreshed > 0 && (!this.refreshed || this.unrefreshed >= REFRESH_AFTER)) {
      await this.git.raw(['update-index', '-q', '--refresh']);
      this.refreshed = true;
      this.unrefreshed = 0;
    }
    if (untrack.length > 0) await this.withPathFile(untrack, (file) => this.git.raw(['rm', '--cached', '--force', '--ignore-unmatch', `--pathspec-from-file=${file}`, '--pathspec-file-nul']));
    // Nothing staged: the index, and so its tree, is what the last snapshot wrote (one spawn less per idle turn).
    const tree = staged === 0 && untrack.length === 0 && this.lastTree ? this.lastTree : (await this.git.raw(['write-tree'])).trim();
    this.lastTree = tree;
    return { tree, skipped, nested };
  }

  /** What changed from one tree to another, renames detected (git's default 50% similarity). */
  async changes(from: string, to: string): Promise<TreeChange[]> {
    if (from === to) return [];
    await this.init();
    const out = await this.git.raw(['diff-tree', '-r', '-z', '-M', '--name-status', '--no-commit-id', from, to]);
    const parts = out.split('\0');
    const changes: TreeChange[] = [];
    for (let i = 0; i < parts.length; ) {
      const status = parts[i++];
      if (!status) continue;
      const kind = status[0];
      if (kind === 'R' || kind === 'C') {
        const src = parts[i++];
        const dst = parts[i++];
        if (kind === 'R') changes.push({ path: dst, change: 'renamed', from: src });
        else changes.push({ path: dst, change: 'created' });
        continue;
      }
      const path = parts[i++];
      if (kind === 'A') changes.push({ path, change: 'created' });
      else if (kind === 'D') changes.push({ path, change: 'deleted' });
      else changes.push({ path, change: 'modified' });
    }
    return changes;
  }

  /** path -> blob id of every file of a tree. */
  async entries(tree: string): Promise<Map<string, string>> {
    const map = new Map<string, string>();
    if (tree === EMPTY_TREE) return map;
    await this.init();
    const out = await this.git.raw(['ls-tree', '-r', '-z', '--full-tree', tree]);
    for (const line of out.split('\0')) {
      if (!line) continue;
      // "<mode> <type> <id>\t<path>"
      const tab = line.indexOf('\t');
      const [mode, type, id] = line.slice(0, tab).split(' ');
      if (type === 'blob' && mode !== '120000') map.set(line.slice(tab + 1), id);
    }
    return map;
  }

  /** The text of a blob (every kept file is UTF-8 text, fileFilter.ts). */
  async text(blob: string): Promise<string> {
    await this.init();
    return this.git.raw(['cat-file', 'blob', blob]);
  }

  /**
   * Deletes the objects no kept checkpoint needs (decision 337): everything not reachable from
   * `keep` (tree ids), the index (git counts it as reachable) or the last snapshot's tree. Objects
   * are loose (gc.auto=0), so `git prune` frees them at once; nothing else runs meanwhile (the
   * service's queue), so no object is being written while it walks.
   */
  async prune(keep: readonly string[]): Promise<void> {
    if (!existsSync(join(this.gitDir, 'HEAD'))) return;
    await this.init();
    const heads = [...new Set([...keep, ...(this.lastTree ? [this.lastTree] : [])])].filter((t) => t !== EMPTY_TREE && /^[0-9a-f]{40,64}$/.test(t));
    await this.git.raw(['prune', '--', ...heads]);
  }

  /** Loose and packed objects of the shadow repository (what pruning shrinks). */
  async objectCount(): Promise<number> {
    await this.init();
    const out = await this.git.raw(['count-objects', '-v']);
    const field = (k: string) => Number(new RegExp(`^${k}: (\\d+)$`, 'm').exec(out)?.[1] ?? 0);
    return field('count') + field('in-pack');
  }

  /**
   * Our excludes, plus the user's own: the repository's `.git/info/exclude` and git's default
   * global ignore file (`$XDG_CONFIG_HOME/git/ignore`, else `~/.config/git/ignore`) — read, never
   * written; the user's config itself is never loaded (git.ts), so a custom core.excludesFile is not.
   */
  private async writeExcludes(): Promise<void> {
    const xdg = process.env.XDG_CONFIG_HOME || join(homedir(), '.config');
    const parts = await Promise.all([join(this.workTree, '.git', 'info', 'exclude'), join(xdg, 'git', 'ignore')].map((f) => fsp.readFile(f, 'utf8').catch(() => '')));
    await fsp.writeFile(join(this.gitDir, 'info', 'exclude'), `${BASE_EXCLUDES.join('\n')}\n${parts.join('\n')}\n`);
  }

  private async withPathFile<T>(paths: readonly string[], run: (file: string) => Promise<T>): Promise<T> {
    const file = join(this.gitDir, `paths-${process.pid}-${Date.now()}`);
    await fsp.writeFile(file, paths.join('\0') + '\0');
    try {
      return await run(file);
    } finally {
      await fsp.rm(file, { force: true });
    }
  }
}

/** The paths (relative, `/`-separated) under a folder that is a symlink in `workTree`. */
async function beyondLinks(workTree: string, paths: readonly string[]): Promise<string[]> {
  const folders = new Set<string>();
  for (const p of paths) for (let at = p.indexOf('/'); at > 0; at = p.indexOf('/', at + 1)) folders.add(p.slice(0, at));
  if (folders.size === 0) return [];
  const list = [...folders];
  const isLink = await mapLimit(list, 16, async (f) => {
    try {
      return (await fsp.lstat(join(workTree, f))).isSymbolicLink();
    } catch {
      return false; // gone: git lists its files as deleted, which it stages
    }
  });
  const links = new Set(list.filter((_, i) => isLink[i]));
  if (links.size === 0) return [];
  return paths.filter((p) => {
    for (let at = p.indexOf('/'); at > 0; at = p.indexOf('/', at + 1)) if (links.has(p.slice(0, at))) return true;
    return false;
  });
}
