// Folders for the @ picker (issue 15, decision 363): the index holds files; a folder is every
// directory that holds a listed file, so an ignored or excluded folder never appears and the list
// follows the index as it changes. Folders are scored with the same matcher as files and merged
// into the file results by score, a folder slightly behind a file of the same score (a person
// typing a name is more often after a file). A folder candidate's path ends in `/`.
import type { Folder } from './fileIndex';
import { bestAlignment, normalizeScore, toRanges } from './fuzzyScore';
import { normalizeQuery, type SearchHit } from './fileSearch';

/** Directories looked at per folder (a giant tree still answers in a few ms). */
const MAX_DIRS = 50_000;
/** A folder ranks behind a file whose score is within this factor. */
const FOLDER_WEIGHT = 0.97;

const cache = new WeakMap<Folder, { version: number; size: number; dirs: string[] }>();

/** Every directory (relative, without the trailing `/`) that holds a listed file of the folder. */
export function folderDirectories(folder: Folder): string[] {
  const known = cache.get(folder);
  const size = folder.index.snapshot.size + folder.index.overlaySize;
  if (known && known.version === folder.index.version && known.size === size) return known.dirs;
  const dirs = new Set<string>();
  for (const p of folder.index.allPaths()) {
    for (let i = p.lastIndexOf('/'); i > 0 && dirs.size < MAX_DIRS; i = p.lastIndexOf('/', i - 1)) {
      const d = p.slice(0, i);
      if (dirs.has(d)) break; // its parents are in already
      dirs.add(d);
    }
    if (dirs.size >= MAX_DIRS) break;
  }
  const list = [...dirs].sort();
  cache.set(folder, { version: folder.index.version, size, dirs: list });
  return list;
}

/** The best folder hits for `query` in `folders`, as search hits with a trailing `/`. */
export function searchFolders(folders: readonly Folder[], query: string, multi: boolean, max: number): { hits: SearchHit[]; total: number } {
  const q = normalizeQuery(query);
  if (q.length === 0) return { hits: [], total: 0 };
  const hits: SearchHit[] = [];
  let total = 0;
  for (const folder of folders) {
    for (const dir of folderDirectories(folder)) {
      const path = multi ? `${folder.name}/${dir}` : dir;
      const lower = path.toLowerCase();
      const a = bestAlignment(path, lower, path.lastIndexOf('/') + 1, q);
      if (!a) continue;
      total++;
      const score = a.score * FOLDER_WEIGHT;
      hits.push({ folder, rel: `${dir}/`, path: `${path}/`, score, match_score: normalizeScore(score, q.length), match_ranges: toRanges(a.positions) });
    }
  }
  hits.sort((x, y) => y.score - x.score || x.path.length - y.path.length);
  return { hits: hits.slice(0, max), total };
}

/** File hits and folder hits merged by score, at most `max`. */
export function mergeHits(files: readonly SearchHit[], folders: readonly SearchHit[], max: number): SearchHit[] {
  const out: SearchHit[] = [];
  let i = 0;
  let j = 0;
  while (out.length < max && (i < files.length || j < folders.length)) {
    if (j >= folders.length || (i < files.length && files[i].score >= folders[j].score)) out.push(files[i++]);
    else out.push(folders[j++]);
  }
  return out;
}
