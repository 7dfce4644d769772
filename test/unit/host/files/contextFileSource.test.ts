// The host's ContextFileSource (src/host/files/contextFileSource.ts) on a real store and real
// folders: what an adapter gets for each kind of §6.1.1 context_files URL, and the typed refusals.
import { strict as assert } from 'node:assert';
import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { FileStore } from '../../../../src/host/files/fileStore';
import { HostContextFiles } from '../../../../src/host/files/contextFileSource';
import { ContextFileError, type ContextFileErrorCode } from '../../../../src/session/contextFiles';
import { silentLogger } from '../../../../src/session/ports';
import { ONE_PIXEL_PNG } from '../../../support/images';

const PNG = ONE_PIXEL_PNG;
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

describe('host/files: context files an adapter reads (§6.1.1 context_files, §5.3.1 binary_ref)', () => {
  let dir: string;
  let ws: string;
  let store: FileStore;
  const source = (session_id = 's1') => new HostContextFiles({ session_id, store, workspaceRoots: () => [ws] });
  const refused = (code: ContextFileErrorCode) => (e: unknown) => e instanceof ContextFileError && e.code === code;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rawp-ctxf-'));
    ws = join(dir, 'ws');
    mkdirSync(join(ws, 'img'), { recursive: true });
    writeFileSync(join(ws, 'img', 'dot.png'), PNG);
    writeFileSync(join(dir, 'secret.txt'), 'outside\n');
    store = FileStore.open({ dir: join(dir, 'files'), maxBytes: 4096, logger: silentLogger });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('§6.1.1 a /v1/files URL of this host (relative or absolute on loopback) reads the session\'s stored file, with its name, type and SHA-256', async () => {
    const id = randomUUID();
    await store.upload({ session_id: 's1', transfer_id: id, mime_type: 'image/png', file_name: 'shot.png' }, [PNG]);
    for (const url of [`/v1/files/${id}`, `http://127.0.0.1:5555/v1/files/${id}`, `http://localhost:1/v1/files/${id.toUpperCase()}`]) {
      const got = await source().resolve(url);
      assert.ok(Buffer.from(got.bytes).equals(PNG), url);
      assert.equal(got.name, 'shot.png');
      assert.equal(got.mimeType, 'image/png');
      assert.equal(got.sha256, sha(PNG));
    }
    // A name the operator gave (--public-host) counts as this host; any other name is not fetched.
    const named = new HostContextFiles({ session_id: 's1', store, workspaceRoots: () => [ws], ownHostNames: () => new Set(['devbox.example']) });
    assert.equal((await named.resolve(`https://devbox.example/v1/files/${id}`)).sha256, sha(PNG));
    await assert.rejects(named.resolve(`https://other.example/v1/files/${id}`), refused('unsupported_url'));
    // Another session's file answers like a missing one.
    await assert.rejects(source('s2').resolve(`/v1/files/${id}`), refused('not_found'));
    await assert.rejects(source().resolve(`/v1/files/${randomUUID()}`), refused('not_found'));
    // The checksum the frame announced must be the bytes'.
    await assert.rejects(source().resolve(`/v1/files/${id}`, { sha256: sha(Buffer.from('x')) }), refused('checksum_mismatch'));
    assert.equal((await source().resolve(`/v1/files/${id}`, { sha256: sha(PNG) })).sha256, sha(PNG));
  });

  it('§6.1.1 file: URLs only inside the workspace: a symlink leading out and a path outside are refused', async () => {
    const got = await source().resolve(pathToFileURL(join(ws, 'img', 'dot.png')).href);
    assert.equal(got.mimeType, 'image/png');
    assert.equal(got.name, 'dot.png');
    await assert.rejects(source().resolve(pathToFileURL(join(dir, 'secret.txt')).href), refused('outside_workspace'));
    symlinkSync(join(dir, 'secret.txt'), join(ws, 'link.txt'));
    await assert.rejects(source().resolve(pathToFileURL(join(ws, 'link.txt')).href), refused('outside_workspace'));
    await assert.rejects(source().resolve(`${pathToFileURL(ws).href}/img/../../secret.txt`), refused('outside_workspace'));
    await assert.rejects(source().resolve(pathToFileURL(join(ws, 'nope.png')).href), refused('not_found'));
    writeFileSync(join(ws, 'big.bin'), Buffer.alloc(5000));
    await assert.rejects(source().resolve(pathToFileURL(join(ws, 'big.bin')).href), refused('too_large'));
  });

  it('§6.1.1 data: URLs are decoded within the limit; bad base64 and oversize are refused', async () => {
    const got = await source().resolve(`data:image/png;base64,${PNG.toString('base64')}`, { file_name: 'pasted.png' });
    assert.ok(Buffer.from(got.bytes).equals(PNG));
    assert.equal(got.mimeType, 'image/png');
    assert.equal(got.name, 'pasted.png');
    assert.equal(Buffer.from((await source().resolve('data:,hello%20there')).bytes).toString(), 'hello there');
    await assert.rejects(source().resolve('data:image/png;base64,@@@@'), refused('invalid'));
    await assert.rejects(source().resolve('data:text/plain,%E0%A4%A'), refused('invalid'));
    await assert.rejects(source().resolve(`data:application/octet-stream;base64,${Buffer.alloc(5000).toString('base64')}`), refused('too_large'));
    await assert.rejects(source().resolve(`data:text/plain,${'a'.repeat(100_000)}`), refused('too_large'));
  });

  it('§6.1.1 every other URL is refused without a fetch: http elsewhere, ftp:, javascript:, not a URL', async () => {
    for (const url of ['https://example.com/a.png', `http://evil.example/v1/files/${randomUUID()}`, 'ftp://x/y', 'javascript:alert(1)', 'not a url', 'http://127.0.0.1/v1/sessions']) {
      await assert.rejects(source().resolve(url), refused('unsupported_url'), url);
    }
    // Errors stay small even for a huge URL.
    const e = await source().resolve(`ftp://${'x'.repeat(10_000)}`).catch((x: unknown) => x);
    assert.ok(e instanceof ContextFileError && e.fileUrl.length < 200);
  });
});
