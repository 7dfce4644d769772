// The workspace folders of any URI scheme as the absolute path strings tools, the ledger and the
// @ index work with (issue 13, docs/decisions/220). A `file:` folder is its file system path; any
// other folder (a virtual workspace, an extension's in-memory file system) is the path of its URI,
// `rawpmem:/project` -> `/project`, unless that path is taken by (or nests with) another folder,
// then it is put under `/<scheme>/<authority>` so every path names one folder and one URI.
//
// Only types from `vscode` here, so this mapping is tested with plain objects (no extension host).
import { posix } from 'node:path';
import type { Uri } from 'vscode';

/** The part of a vscode.Uri the mapping needs. */
export type UriLike = Pick<Uri, 'scheme' | 'authority' | 'path' | 'fsPath'>;

export interface FolderRoot<U extends UriLike = Uri> {
  /** The folder as an absolute POSIX path (what `FsBackend.roots` lists). */
  root: string;
  uri: U;
}

function nests(a: string, b: string): boolean {
  const inside = (x: string, y: string) => x === y || x.startsWith(y.endsWith('/') ? y : y + '/');
  return inside(a, b) || inside(b, a);
}

/** The folders' root paths, in order; `file:` folders first claim their paths. */
export function folderRoots<U extends UriLike>(uris: readonly U[]): FolderRoot<U>[] {
  const taken: string[] = uris.filter((u) => u.scheme === 'file').map((u) => u.fsPath);
  return uris.map((uri) => {
    if (uri.scheme === 'file') return { root: uri.fsPath, uri };
    const own = posix.normalize(uri.path.startsWith('/') ? uri.path : '/' + uri.path).replace(/(.)\/$/, '$1');
    let root = own;
    if (taken.some((t) => nests(t, root))) {
      root = posix.join('/', uri.scheme, uri.authority || '_', own);
      for (let n = 2; taken.some((t) => nests(t, root)) && n < 1000; n++) root = posix.join('/', `${uri.scheme}-${n}`, uri.authority || '_', own);
    }
    taken.push(root);
    return { root, uri };
  });
}

/** The folder `abs` lies in and its relative path ('' for the folder itself), or undefined. */
export function locateIn<U extends UriLike>(roots: readonly FolderRoot<U>[], abs: string): { folder: FolderRoot<U>; rel: string } | undefined {
  let best: { folder: FolderRoot<U>; rel: string } | undefined;
  for (const folder of roots) {
    const r = folder.root;
    if (abs !== r && !abs.startsWith(r.endsWith('/') ? r : r + '/')) continue;
    // The deepest folder wins (a folder inside another one's tree is its own folder).
    if (!best || r.length > best.folder.root.length) best = { folder, rel: abs === r ? '' : abs.slice(r.length).replace(/^\//, '') };
  }
  return best;
}

/** The path of `uri` if it lies in one of the folders (same scheme and authority), else undefined. */
export function pathOfUri<U extends UriLike>(roots: readonly FolderRoot<U>[], uri: UriLike): string | undefined {
  let best: { folder: FolderRoot<U>; rel: string } | undefined;
  for (const folder of roots) {
    const f = folder.uri;
    if (f.scheme !== uri.scheme || f.authority !== uri.authority) continue;
    const base = f.scheme === 'file' ? f.fsPath : f.path;
    const p = f.scheme === 'file' ? uri.fsPath : uri.path;
    const sepChar = f.scheme === 'file' && base.includes('\\') ? '\\' : '/';
    if (p !== base && !p.startsWith(base.endsWith(sepChar) ? base : base + sepChar)) continue;
    if (!best || base.length > (best.folder.uri.scheme === 'file' ? best.folder.uri.fsPath : best.folder.uri.path).length) {
      best = { folder, rel: p === base ? '' : p.slice(base.length).replace(/^[\\/]/, '').split(sepChar).join('/') };
    }
  }
  return best ? (best.rel ? posix.join(best.folder.root, best.rel) : best.folder.root) : undefined;
}
