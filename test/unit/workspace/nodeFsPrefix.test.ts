// Decision 720: NodeFsBackend.readTextPrefix, the bounded read the editor's backend already had.
// The same checks as the whole read (inside the workspace, no symlink on the way or at the leaf,
// no FIFO opened blocking, regular files only), and never more bytes read than asked: counted on
// the file handles themselves, and a 3 GiB (sparse) file's prefix costs no memory.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { promises as fsp, mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AcpFsBridge } from '../../../src/agents/acp/fsBridge';
import { MAX_READ_BYTES } from '../../../src/tools/read';
import { FsEvents } from '../../../src/tools/fsEvents';
import { attachObservationPolicy } from '../../../src/tools/ledger/policy';
import { FsError } from '../../../src/workspace/fsBackend';
import { readTextPrefix } from '../../../src/workspace/localFiles';
import { NodeFsBackend } from '../../../src/workspace/nodeFsBackend';

const MiB = 1024 * 1024;

/** Bytes read through any FileHandle while `run` runs, and how many whole-file reads (readFile). */
async function handleReads<T>(run: () => Promise<T>): Promise<{ result: T; bytes: number; wholeReads: number }> {
  const probe = await fsp.open(__filename, 'r');
  const proto = Object.getPrototypeOf(probe) as { read: (...a: unknown[]) => Promise<{ bytesRead: number }>; readFile: (...a: unknown[]) => Promise<Buffer | string> };
  await probe.close();
  const { read, readFile } = proto;
  const counted = { bytes: 0, wholeReads: 0 };
  proto.read = async function (this: unknown, ...a: unknown[]) {
    const r = await read.apply(this, a);
    counted.bytes += r.bytesRead;
    return r;
  };
  proto.readFile = async function (this: unknown, ...a: unknown[]) {
    counted.wholeReads++;
    const r = await readFile.apply(this, a);
    counted.bytes += Buffer.byteLength(r);
    return r;
  };
  try {
    return { result: await run(), ...counted };
  } finally {
    proto.read = read;
    proto.readFile = readFile;
  }
}

async function fsError(p: Promise<unknown>): Promise<FsError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof FsError, String(e));
    return e;
  }
  throw new Error('expected an FsError');
}

describe('workspace: NodeFsBackend.readTextPrefix (decision 720)', function () {
  this.timeout(60_000);
  let dir: string;
  let ws: string;
  let fs: NodeFsBackend;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rawp-nodefs-prefix-'));
    ws = join(dir, 'ws');
    mkdirSync(ws);
    mkdirSync(join(dir, 'outside'));
    writeFileSync(join(dir, 'outside', 'secret.txt'), 'the secret\n');
    fs = new NodeFsBackend([ws]);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('gives what the inline reader gives: cut on a character boundary, the whole size, binary for a NUL', async () => {
    const files: Record<string, string | Buffer> = { 't.txt': 'ab\u00e9cd', 'e.txt': 'x\u{1F600}y', 'n.txt': 'abc\u0000', 'empty.txt': '', 'lines.txt': 'one\ntwo\nthree\n' };
    for (const [name, content] of Object.entries(files)) writeFileSync(join(ws, name), content);
    for (const name of Object.keys(files)) {
      for (const limit of [0, 1, 2, 3, 4, 5, 6, 100]) {
        assert.deepEqual(await fs.readTextPrefix(join(ws, name), limit), await readTextPrefix(join(ws, name), limit, ws), `${name} ${limit}`);
      }
    }
    assert.deepEqual(await fs.readTextPrefix('lines.txt', 6), { text: 'one\ntw', total: 14, cut: true, binary: false }, 'a relative path is the first root\'s');
  });

  it('refuses what the whole read refuses: a symlink at the leaf or on the way, a FIFO (at once), a directory, a missing file, a path outside', async () => {
    symlinkSync(join(dir, 'outside', 'secret.txt'), join(ws, 'link.txt'));
    symlinkSync(join(dir, 'outside'), join(ws, 'linkdir'));
    execFileSync('mkfifo', [join(ws, 'fifo')]);
    mkdirSync(join(ws, 'sub'));
    const link = await fsError(fs.readTextPrefix(join(ws, 'link.txt'), 100));
    assert.equal(link.code, 'FS_OUTSIDE_WORKSPACE');
    assert.equal((await fsError(fs.readTextPrefix(join(ws, 'linkdir', 'secret.txt'), 100))).code, 'FS_OUTSIDE_WORKSPACE');
    // A FIFO opened blocking would wait here for a writer that never comes (mocha's timeout).
    const fifo = await fsError(fs.readTextPrefix(join(ws, 'fifo'), 100));
    assert.equal(fifo.code, 'FS_IO');
    assert.match(fifo.message, /is not a regular file/);
    assert.equal((await fsError(fs.readTextPrefix(join(ws, 'sub'), 100))).code, 'FS_IS_DIRECTORY');
    assert.equal((await fsError(fs.readTextPrefix(join(ws, 'nope.txt'), 100))).code, 'FS_NOT_FOUND');
    assert.equal((await fsError(fs.readTextPrefix(join(dir, 'outside', 'secret.txt'), 100))).code, 'FS_OUTSIDE_WORKSPACE');
    assert.equal((await fsError(fs.readTextPrefix('../outside/secret.txt', 100))).code, 'FS_OUTSIDE_WORKSPACE');
    // Each refused the same way by the whole read.
    for (const p of ['link.txt', 'linkdir/secret.txt', 'fifo', 'sub', 'nope.txt', '../outside/secret.txt']) {
      assert.equal((await fsError(fs.readTextPrefix(p, 100))).code, (await fsError(fs.readText(p))).code, p);
    }
  });

  it('a prefix of a 40 MiB file reads that many bytes and no more, never the whole file', async () => {
    const big = join(ws, 'big.log');
    writeFileSync(big, Buffer.alloc(40 * MiB, 'a line of a big log\n'));
    const bounded = await handleReads(() => fs.readTextPrefix(big, MAX_READ_BYTES));
    assert.equal(bounded.wholeReads, 0);
    assert.equal(bounded.bytes, MAX_READ_BYTES);
    assert.equal(bounded.result.total, 40 * MiB);
    assert.equal(bounded.result.cut, true);
    assert.equal(bounded.result.text.length, MAX_READ_BYTES);
    const small = await handleReads(() => fs.readTextPrefix(big, 1000));
    assert.equal(small.bytes, 1000);
    assert.equal(small.result.text, 'a line of a big log\n'.repeat(50));
    // The whole read, for scale: the counter sees it.
    const whole = await handleReads(() => fs.readText(big));
    assert.equal(whole.bytes, 40 * MiB);
  });

  it('the prefix of a 3 GiB (sparse) file costs no memory: a whole read could not even hold it', async () => {
    const huge = join(ws, 'huge.log');
    writeFileSync(huge, 'first line\nsecond line\n');
    truncateSync(huge, 3 * 1024 * MiB);
    global.gc?.();
    const before = process.memoryUsage().rss;
    const { result, bytes } = await handleReads(() => fs.readTextPrefix(huge, 23));
    const grown = process.memoryUsage().rss - before;
    assert.deepEqual(result, { text: 'first line\nsecond line\n', total: 3 * 1024 * MiB, cut: true, binary: false });
    assert.equal(bytes, 23);
    assert.ok(grown < 32 * MiB, `RSS grew ${(grown / MiB).toFixed(1)} MiB`);
  });

  describe('through the ACP bridge: a file swapped between its size check and the prefix read', () => {
    /** The bridge over the Node backend; `swap` runs right after the bridge learns big.log's size (`times`, decision 724). */
    function bridgeSwapping(swap: () => void) {
      const backend = new NodeFsBackend([ws]);
      const times = backend.times.bind(backend);
      let swapped = false;
      backend.times = async (paths: readonly string[], signal?: AbortSignal) => {
        const answer = await times(paths, signal);
        if (!swapped && paths.some((p) => p.endsWith('big.log'))) {
          swapped = true;
          swap();
        }
        return answer;
      };
      const fsEvents = new FsEvents();
      attachObservationPolicy(fsEvents);
      return new AcpFsBridge({ fs: backend, fsEvents, actor: 'session-1', cwd: ws });
    }
    async function refusal(p: Promise<unknown>): Promise<{ message: string; data?: { code?: string } }> {
      try {
        await p;
      } catch (e) {
        return e as { message: string; data?: { code?: string } };
      }
      throw new Error('expected a refusal');
    }
    beforeEach(() => writeFileSync(join(ws, 'big.log'), Buffer.alloc(MAX_READ_BYTES + MiB, 'a line of a big log\n')));

    it('to a symlink to an outside file: refused, none of its content', async () => {
      const bridge = bridgeSwapping(() => {
        unlinkSync(join(ws, 'big.log'));
        symlinkSync(join(dir, 'outside', 'secret.txt'), join(ws, 'big.log'));
      });
      const e = await refusal(bridge.readTextFile({ path: join(ws, 'big.log'), line: 1, limit: 1 }));
      assert.equal(e.data?.code, 'FS_OUTSIDE_WORKSPACE');
      assert.ok(!e.message.includes('the secret'));
    });

    it('to a FIFO: refused at once, never opened blocking', async () => {
      const bridge = bridgeSwapping(() => {
        unlinkSync(join(ws, 'big.log'));
        execFileSync('mkfifo', [join(ws, 'big.log')]);
      });
      const e = await refusal(bridge.readTextFile({ path: join(ws, 'big.log'), line: 1, limit: 1 }));
      assert.equal(e.data?.code, 'FS_IO');
      assert.match(e.message, /is not a regular file/);
    });
  });
});
