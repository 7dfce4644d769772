// The host's §4.5.1 file store on a real folder: limits per file and per session, nothing left
// behind by a refused upload, ids used once, what a restart finds, and the session's files going.
import { strict as assert } from 'node:assert';
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileStore } from '../../../../src/host/files/fileStore';
import { FileRefusal, type FileRefusalCode } from '../../../../src/remote/fileApi';
import { silentLogger } from '../../../../src/session/ports';

const refused = (code: FileRefusalCode) => (e: unknown) => e instanceof FileRefusal && e.code === code;
const text = (n: number) => [Buffer.alloc(n, 'a')];
/** An upload body of `chunks` chunks of `size` bytes, one a turn of the event loop (uploads at once interleave). */
async function* slowly(chunks: number, size: number) {
  for (let k = 0; k < chunks; k++) {
    await new Promise((r) => setImmediate(r));
    yield Buffer.alloc(size, 'a');
  }
}

describe('host/files: the file store (§4.5.1)', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'rawp-store-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const open = (o: { maxBytes?: number; maxSessionBytes?: number; maxHostBytes?: number } = {}) => FileStore.open({ dir, logger: silentLogger, ...o });
  const put = (s: FileStore, session_id: string, n: number, id = randomUUID()) => s.upload({ session_id, transfer_id: id, mime_type: 'text/plain' }, text(n));

  it('§4.5.1 a session holds at most its quota; other sessions are not affected; deleting the session frees it', async () => {
    const s = open({ maxBytes: 100, maxSessionBytes: 250 });
    await put(s, 'a', 100);
    await put(s, 'a', 100);
    await assert.rejects(put(s, 'a', 100), refused('too_large'));
    await put(s, 'a', 50);
    await put(s, 'b', 100);
    s.removeSession('a');
    assert.equal(s.filesOf('a').length, 0);
    await put(s, 'a', 100);
    // Nothing half-written is left by the refusals.
    for (const d of readdirSync(dir)) assert.deepEqual(readdirSync(join(dir, d)).filter((n) => n.endsWith('.part')), []);
  });

  it('§4.5.1 the host holds at most its quota across every session (decision 559): a master cannot fill the disk one session at a time; deleting a session frees it; a restart counts what is stored', async () => {
    assert.equal(open({ maxBytes: 100 }).maxHostBytes, 100 * 10 * 5, 'by default five sessions\' quotas');
    const s = open({ maxBytes: 100, maxSessionBytes: 250, maxHostBytes: 400 });
    for (const session of ['a', 'a', 'b', 'b']) await put(s, session, 100);
    await assert.rejects(put(s, 'c', 100), (e: unknown) => refused('too_large')(e) && /this host's stored files/.test((e as Error).message), 'a new session finds the host full');
    await assert.rejects(put(s, 'c', 1), refused('too_large'));
    assert.deepEqual(s.filesOf('c'), []);
    for (const d of readdirSync(dir)) assert.deepEqual(readdirSync(join(dir, d)).filter((n) => n.endsWith('.part')), [], 'nothing half-written is left');
    const again = open({ maxBytes: 100, maxSessionBytes: 250, maxHostBytes: 400 });
    await assert.rejects(put(again, 'd', 1), refused('too_large'), 'after a restart the stored files still count');
    again.removeSession('a');
    await put(again, 'c', 100);
    await put(again, 'd', 100);
    await assert.rejects(put(again, 'e', 1), refused('too_large'));
  });

  it('§4.5.1 uploads to several sessions at once cannot pass the host quota together (checked chunk by chunk, decision 559)', async () => {
    const s = open({ maxBytes: 200, maxSessionBytes: 200, maxHostBytes: 250 });
    const results = await Promise.allSettled(['x', 'y'].map((session_id) => s.upload({ session_id, transfer_id: randomUUID(), mime_type: 'text/plain' }, slowly(3, 50))));
    assert.deepEqual(results.map((r) => r.status).sort(), ['fulfilled', 'rejected'], 'one of the two 150-byte uploads fits in 250');
    const rejected = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    assert.ok(rejected && refused('too_large')(rejected.reason));
    await put(s, 'z', 100);
  });

  it('§4.5.1 uploads to one session at once cannot pass its quota together (checked chunk by chunk against what is stored and streaming)', async () => {
    const s = open({ maxBytes: 100, maxSessionBytes: 250, maxHostBytes: 10_000 });
    // Five 100-byte uploads at once into a 250-byte session: at most two fit whole.
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => s.upload({ session_id: 'a', transfer_id: randomUUID(), mime_type: 'text/plain' }, slowly(4, 25))));
    const stored = s.filesOf('a').reduce((n, f) => n + f.size_bytes, 0);
    assert.ok(stored <= 250, `the session holds ${stored} bytes`);
    assert.ok(results.filter((r) => r.status === 'fulfilled').length <= 2);
    for (const r of results) if (r.status === 'rejected') assert.ok(refused('too_large')(r.reason) && /the session's files/.test((r.reason as Error).message));
    // What the refused ones streamed is given back: the session still has room for what is left.
    for (let room = 250 - stored; room > 0; room -= Math.min(room, 100)) await put(s, 'a', Math.min(room, 100));
    await assert.rejects(put(s, 'a', 1), refused('too_large'));
  });

  it('§4.5.1 an id names one file for ever (409); SHA-256 computed while streaming; a restart finds the files, drops partial ones', async () => {
    const s = open();
    const id = randomUUID();
    const f = await put(s, 'a', 10, id);
    assert.equal(f.sha256, createHash('sha256').update(Buffer.alloc(10, 'a')).digest('hex'));
    await assert.rejects(put(s, 'a', 10, id), refused('exists'));
    const folder = join(dir, readdirSync(dir)[0]);
    writeFileSync(join(folder, `${randomUUID()}.part`), 'half');
    const again = open();
    assert.equal(again.get(id)?.sha256, f.sha256);
    assert.equal(readdirSync(folder).filter((n) => n.endsWith('.part')).length, 0);
    again.prune(new Set(['other']));
    assert.equal(again.get(id), undefined, 'files of sessions that are gone are pruned');
    assert.equal(existsSync(folder), false);
  });

  it('§4.5.1 an announced upload binds the PUT: type (415), size and checksum (422), session (400)', async () => {
    const s = open();
    const id = randomUUID();
    s.announce(id, { session_id: 'a', file_name: 'hello.txt', mime_type: 'text/plain', size_bytes: 5, checksum: createHash('sha256').update('hello').digest('hex') });
    await assert.rejects(s.upload({ session_id: 'a', transfer_id: id, mime_type: 'text/markdown' }, [Buffer.from('hello')]), refused('unsupported_type'));
    await assert.rejects(s.upload({ session_id: 'b', transfer_id: id, mime_type: 'text/plain' }, [Buffer.from('hello')]), refused('invalid'));
    await assert.rejects(s.upload({ session_id: 'a', transfer_id: id, mime_type: 'text/plain' }, [Buffer.from('hellO')]), refused('checksum_mismatch'));
    await assert.rejects(s.upload({ session_id: 'a', transfer_id: id, mime_type: 'text/plain', file_name: 'other.txt' }, [Buffer.from('hello')]), refused('invalid'), 'not under another name than the one announced');
    const ok = await s.upload({ session_id: 'a', transfer_id: id, mime_type: 'text/plain' }, [Buffer.from('hello')]);
    assert.equal(ok.size_bytes, 5);
    assert.equal(ok.file_name, 'hello.txt', 'a PUT without a name takes the announced one');
  });
});
