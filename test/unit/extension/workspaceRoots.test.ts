// Workspace folders of any URI scheme as the path strings tools and the ledger use (issue 13,
// docs/decisions/220): plain objects stand in for vscode.Uri (the mapping needs no extension host).
import assert from 'node:assert/strict';
import { folderRoots, locateIn, pathOfUri, type UriLike } from '../../../src/extension/workspaceRoots';

const file = (p: string): UriLike => ({ scheme: 'file', authority: '', path: p, fsPath: p });
const virt = (scheme: string, p: string, authority = ''): UriLike => ({ scheme, authority, path: p, fsPath: p });

describe('workspace folders of every scheme as root paths (issue 13)', () => {
  it('a file: folder is its path; another scheme is its URI path', () => {
    assert.deepEqual(folderRoots([file('/home/me/proj'), virt('rawpmem', '/notes/')]).map((r) => r.root), ['/home/me/proj', '/notes']);
  });

  it('a virtual folder whose path nests with another folder moves under /<scheme>/<authority>, so each path names one folder', () => {
    const roots = folderRoots([virt('vscode-vfs', '/home/me/proj', 'github'), file('/home/me/proj'), virt('rawpmem', '/home'), virt('rawpmem', '/x'), virt('other', '/x')]);
    assert.deepEqual(roots.map((r) => r.root), ['/vscode-vfs/github/home/me/proj', '/home/me/proj', '/rawpmem/_/home', '/x', '/other/_/x']);
    assert.equal(new Set(roots.map((r) => r.root)).size, roots.length);
  });

  it('locateIn gives the deepest folder and the relative path; outside paths are undefined', () => {
    const roots = folderRoots([file('/a'), virt('rawpmem', '/a/b')]);
    // '/a/b' nests in '/a': the virtual one moved away, so '/a/b/c' is the disk's.
    assert.equal(roots[1].root, '/rawpmem/_/a/b');
    assert.deepEqual(locateIn(roots, '/a/b/c.txt') && { root: locateIn(roots, '/a/b/c.txt')!.folder.root, rel: locateIn(roots, '/a/b/c.txt')!.rel }, { root: '/a', rel: 'b/c.txt' });
    assert.equal(locateIn(roots, '/rawpmem/_/a/b/x/y.md')?.rel, 'x/y.md');
    assert.equal(locateIn(roots, '/a')?.rel, '');
    assert.equal(locateIn(roots, '/ab/c'), undefined);
    assert.equal(locateIn(roots, '/rawpmem/_/a'), undefined);
  });

  it('pathOfUri maps a URI of a folder back to its path (same scheme and authority only)', () => {
    const roots = folderRoots([file('/w'), virt('rawpmem', '/proj')]);
    assert.equal(pathOfUri(roots, virt('rawpmem', '/proj/src/a.ts')), '/proj/src/a.ts');
    assert.equal(pathOfUri(roots, virt('rawpmem', '/proj')), '/proj');
    assert.equal(pathOfUri(roots, file('/w/x.txt')), '/w/x.txt');
    assert.equal(pathOfUri(roots, virt('other', '/proj/a.ts')), undefined);
    assert.equal(pathOfUri(roots, virt('rawpmem', '/project/a.ts')), undefined);
    assert.equal(pathOfUri(roots, virt('rawpmem', '/proj/a.ts', 'host')), undefined);
  });
});
