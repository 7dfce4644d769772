// An in-memory FileSystemProvider on the scheme `rawpmem` (issue 13's tests): a file system VS Code
// opens only through an extension, like a virtual workspace. Registered once per extension host;
// `outside` changes go straight to the provider (and fire its change events, as a real one would).
import * as vscode from 'vscode';

export const MEM_SCHEME = 'rawpmem';

type Entry = { type: vscode.FileType.File; data: Uint8Array; ctime: number; mtime: number } | { type: vscode.FileType.Directory; ctime: number; mtime: number };

export class MemFs implements vscode.FileSystemProvider {
  private readonly entries = new Map<string, Entry>([['/', { type: vscode.FileType.Directory, ctime: Date.now(), mtime: Date.now() }]]);
  private readonly emitter = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.emitter.event;
  private clock = Date.now();

  private now(): number {
    // Strictly increasing: two writes in one millisecond still have different mtimes.
    this.clock = Math.max(this.clock + 1, Date.now());
    return this.clock;
  }

  private norm(uri: vscode.Uri): string {
    const p = uri.path.replace(/\/+$/, '');
    return p === '' ? '/' : p;
  }

  private parent(p: string): string {
    const i = p.lastIndexOf('/');
    return i <= 0 ? '/' : p.slice(0, i);
  }

  private fire(kind: vscode.FileChangeType, path: string): void {
    this.emitter.fire([{ type: kind, uri: vscode.Uri.from({ scheme: MEM_SCHEME, path }) }]);
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined); // every change is reported anyway
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    const e = this.entries.get(this.norm(uri));
    if (!e) throw vscode.FileSystemError.FileNotFound(uri);
    return { type: e.type, ctime: e.ctime, mtime: e.mtime, size: e.type === vscode.FileType.File ? e.data.byteLength : 0 };
  }

  readDirectory(uri: vscode.Uri): [string, vscode.FileType][] {
    const dir = this.norm(uri);
    const e = this.entries.get(dir);
    if (!e) throw vscode.FileSystemError.FileNotFound(uri);
    if (e.type !== vscode.FileType.Directory) throw vscode.FileSystemError.FileNotADirectory(uri);
    const out: [string, vscode.FileType][] = [];
    for (const [p, child] of this.entries) if (p !== dir && this.parent(p) === dir) out.push([p.slice(p.lastIndexOf('/') + 1), child.type]);
    return out;
  }

  createDirectory(uri: vscode.Uri): void {
    const p = this.norm(uri);
    if (this.entries.has(p)) throw vscode.FileSystemError.FileExists(uri);
    if (this.entries.get(this.parent(p))?.type !== vscode.FileType.Directory) throw vscode.FileSystemError.FileNotFound(uri.with({ path: this.parent(p) }));
    const t = this.now();
    this.entries.set(p, { type: vscode.FileType.Directory, ctime: t, mtime: t });
    this.fire(vscode.FileChangeType.Created, p);
  }

  readFile(uri: vscode.Uri): Uint8Array {
    const e = this.entries.get(this.norm(uri));
    if (!e) throw vscode.FileSystemError.FileNotFound(uri);
    if (e.type !== vscode.FileType.File) throw vscode.FileSystemError.FileIsADirectory(uri);
    return e.data;
  }

  writeFile(uri: vscode.Uri, content: Uint8Array, options: { create: boolean; overwrite: boolean }): void {
    const p = this.norm(uri);
    const e = this.entries.get(p);
    if (e?.type === vscode.FileType.Directory) throw vscode.FileSystemError.FileIsADirectory(uri);
    if (!e && !options.create) throw vscode.FileSystemError.FileNotFound(uri);
    if (e && options.create && !options.overwrite) throw vscode.FileSystemError.FileExists(uri);
    if (this.entries.get(this.parent(p))?.type !== vscode.FileType.Directory) throw vscode.FileSystemError.FileNotFound(uri.with({ path: this.parent(p) }));
    const t = this.now();
    this.entries.set(p, { type: vscode.FileType.File, data: new Uint8Array(content), ctime: e?.ctime ?? t, mtime: t });
    this.fire(e ? vscode.FileChangeType.Changed : vscode.FileChangeType.Created, p);
  }

  delete(uri: vscode.Uri, options: { recursive: boolean }): void {
    const p = this.norm(uri);
    if (!this.entries.has(p)) throw vscode.FileSystemError.FileNotFound(uri);
    const under = [...this.entries.keys()].filter((k) => k.startsWith(p + '/'));
    if (under.length && !options.recursive) throw vscode.FileSystemError.NoPermissions('directory not empty');
    for (const k of [p, ...under]) this.entries.delete(k);
    this.fire(vscode.FileChangeType.Deleted, p);
  }

  rename(from: vscode.Uri, to: vscode.Uri, options: { overwrite: boolean }): void {
    const a = this.norm(from);
    const b = this.norm(to);
    const e = this.entries.get(a);
    if (!e) throw vscode.FileSystemError.FileNotFound(from);
    if (this.entries.has(b) && !options.overwrite) throw vscode.FileSystemError.FileExists(to);
    for (const [k, v] of [...this.entries]) {
      if (k === a || k.startsWith(a + '/')) {
        this.entries.delete(k);
        this.entries.set(b + k.slice(a.length), v);
      }
    }
    this.fire(vscode.FileChangeType.Deleted, a);
    this.fire(vscode.FileChangeType.Created, b);
  }

  // --- changes behind VS Code's back (a person, another program): straight into the provider ---

  put(path: string, content: string | Uint8Array): void {
    const parts = path.split('/').filter(Boolean);
    for (let i = 1; i < parts.length; i++) {
      const dir = '/' + parts.slice(0, i).join('/');
      if (!this.entries.has(dir)) this.createDirectory(vscode.Uri.from({ scheme: MEM_SCHEME, path: dir }));
    }
    this.writeFile(vscode.Uri.from({ scheme: MEM_SCHEME, path }), typeof content === 'string' ? Buffer.from(content, 'utf8') : content, { create: true, overwrite: true });
  }

  get(path: string): Uint8Array | undefined {
    const e = this.entries.get(path);
    return e?.type === vscode.FileType.File ? e.data : undefined;
  }

  remove(path: string): void {
    if (this.entries.has(path)) this.delete(vscode.Uri.from({ scheme: MEM_SCHEME, path }), { recursive: true });
  }
}

let registered: MemFs | undefined;

/** The extension host's one MemFs (registered on first use). */
export function memFs(): MemFs {
  if (!registered) {
    registered = new MemFs();
    vscode.workspace.registerFileSystemProvider(MEM_SCHEME, registered, { isCaseSensitive: true });
  }
  return registered;
}

/** The folder the test workspace opens as its second workspace folder (test/unit/e2e/vscodeHost.test.ts). */
export const VIRTUAL_FOLDER = '/rawp-virtual';

/** Registers the provider and puts the virtual folder's files in place (the runner, at activation). */
export function seedVirtualFolder(): MemFs {
  const mem = memFs();
  mem.put(`${VIRTUAL_FOLDER}/notes/plan.md`, '# Plan\nstatus: draft\n');
  mem.put(`${VIRTUAL_FOLDER}/src/app.ts`, 'export const app = 1;\n');
  mem.put(`${VIRTUAL_FOLDER}/private/hideme-virtual.txt`, 'hidden by files.exclude\n');
  return mem;
}
