// ACP fs/* requests served through the FsBackend and the read-before-write ledger, without an
// agent: the refusals an external agent gets are the ones our own tools get.
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { AcpFsBridge, engineWriteCheck, sliceLines } from '../../../src/agents/acp/fsBridge';
import { baseAcpCatalog } from '../../../src/agents/acp/toolNames';
import { checkTool } from '../../../src/session/toolPolicy';
import { FsEvents } from '../../../src/tools/fsEvents';
import { attachObservationPolicy } from '../../../src/tools/ledger/policy';
import { NodeFsBackend } from '../../../src/workspace/nodeFsBackend';
import { MAX_READ_BYTES } from '../../../src/tools/read';

describe('ACP fs bridge: fs/read_text_file and fs/write_text_file through FsBackend and the ledger', () => {
  let dir: string;
  let bridge: AcpFsBridge;
  let policy: ReturnType<typeof attachObservationPolicy>['policy'];
  const file = () => path.join(dir, 'a.txt');

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'rawp-acpfs-'));
    writeFileSync(file(), 'one\ntwo\nthree\n');
    const events = new FsEvents();
    policy = attachObservationPolicy(events).policy;
    bridge = new AcpFsBridge({ fs: new NodeFsBackend([dir]), fsEvents: events, actor: 'session-1', cwd: dir });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  async function refusal(p: Promise<unknown>): Promise<{ code: number; message: string; data?: { code?: string } }> {
    try {
      await p;
    } catch (e) {
      return e as { code: number; message: string; data?: { code?: string } };
    }
    throw new Error('expected a refusal');
  }

  it('read-before-write: overwriting an existing file the agent never read is refused with FS_EXISTS', async () => {
    const e = await refusal(bridge.writeTextFile({ path: file(), content: 'unread overwrite\n' }));
    assert.equal(e.data?.code, 'FS_EXISTS');
    assert.match(e.message, /read it before overwriting/);
    assert.equal(readFileSync(file(), 'utf8'), 'one\ntwo\nthree\n');
  });

  it('read-before-write: after a read the write goes through; a change by someone else in between refuses it (FS_STALE_VERSION)', async () => {
    await bridge.readTextFile({ path: file() });
    await bridge.writeTextFile({ path: file(), content: 'agent v1\n' });
    assert.equal(readFileSync(file(), 'utf8'), 'agent v1\n');
    writeFileSync(file(), 'a person typed this\n');
    const e = await refusal(bridge.writeTextFile({ path: file(), content: 'agent v2\n' }));
    assert.equal(e.data?.code, 'FS_STALE_VERSION');
    assert.equal(readFileSync(file(), 'utf8'), 'a person typed this\n');
  });

  it('read-before-write: a Latin-1 file and a file with a NUL read through the bridge are marked in the ledger as Read marks them, and their writes are refused as not text (decision 608)', async () => {
    const latin1 = Buffer.from('caf\xe9\n', 'latin1');
    writeFileSync(path.join(dir, 'l.txt'), latin1);
    writeFileSync(path.join(dir, 'n.db'), 'page\u0000data\n');
    const read = await bridge.readTextFile({ path: path.join(dir, 'l.txt') });
    assert.equal(read.content, 'caf\ufffd\n');
    await bridge.readTextFile({ path: path.join(dir, 'n.db') });
    assert.equal((policy.ledger.get('session-1', path.join(dir, 'l.txt')) as { notText?: string }).notText, 'not-utf8');
    assert.equal((policy.ledger.get('session-1', path.join(dir, 'n.db')) as { notText?: string }).notText, 'binary');
    const e = await refusal(bridge.writeTextFile({ path: path.join(dir, 'l.txt'), content: 'café\n' }));
    assert.equal(e.data?.code, 'FS_NOT_TEXT');
    assert.match(e.message, /not UTF-8 text/);
    assert.ok(readFileSync(path.join(dir, 'l.txt')).equals(latin1));
  });

  it('read-before-write: a new file needs no read, and a missing file reads as resource-not-found', async () => {
    const missing = path.join(dir, 'new.txt');
    const e = await refusal(bridge.readTextFile({ path: missing }));
    assert.equal(e.code, -32002);
    await bridge.writeTextFile({ path: missing, content: 'fresh\n' });
    assert.equal(readFileSync(missing, 'utf8'), 'fresh\n');
  });

  it('§6.3.2-1 decision 640: a write the engine\'s policy refuses (review mode) is answered TOOL_NOT_ALLOWED with the engine\'s words, after the agent read the file, and the file stays; reads still go through', async () => {
    const review = new AcpFsBridge({
      fs: new NodeFsBackend([dir]),
      fsEvents: new FsEvents(),
      actor: 'session-1',
      cwd: dir,
      mayWrite: engineWriteCheck({ checkTool: (tool_name, input) => checkTool({ tools: baseAcpCatalog(), diagnostics: [], mode: 'review' }, tool_name, input) }),
    });
    assert.equal((await review.readTextFile({ path: file() })).content, 'one\ntwo\nthree\n', 'review mode reads');
    const e = await refusal(review.writeTextFile({ path: file(), content: 'written in review mode\n' }));
    assert.equal(e.data?.code, 'TOOL_NOT_ALLOWED');
    assert.match(e.message, /a\.txt: Tool not allowed in current mode/);
    assert.equal(readFileSync(file(), 'utf8'), 'one\ntwo\nthree\n');
    const denied = new AcpFsBridge({ fs: new NodeFsBackend([dir]), fsEvents: new FsEvents(), actor: 's', cwd: dir, mayWrite: engineWriteCheck({ checkTool: (t, i) => checkTool({ tools: baseAcpCatalog(), diagnostics: [], mode: 'default', denied_tools: ['Edit'] }, t, i) }) });
    assert.match((await refusal(denied.writeTextFile({ path: path.join(dir, 'new.txt'), content: 'x' }))).message, /not allowed for this prompt/, 'a prompt that denies Edit: a new file is refused too');
  });

  it('paths outside the workspace are refused', async () => {
    const e = await refusal(bridge.readTextFile({ path: path.join(dir, '..', 'elsewhere.txt') }));
    assert.equal(e.data?.code, 'FS_OUTSIDE_WORKSPACE');
  });

  it('ACP line (1-based) and limit select lines', async () => {
    assert.equal((await bridge.readTextFile({ path: file(), line: 2, limit: 1 })).content, 'two');
    assert.equal(sliceLines('a\nb\nc', 2, undefined), 'b\nc');
    assert.equal(sliceLines('a\nb\nc', undefined, 2), 'a\nb');
  });

  it('decision 716: lines are found by walking their newlines, as splitting the whole text found them', () => {
    const bySplit = (text: string, line: number | undefined, limit: number | undefined) => {
      if (line === undefined && limit === undefined) return text;
      const lines = text.split('\n');
      const start = Math.max(0, (line ?? 1) - 1);
      return lines.slice(start, limit === undefined ? lines.length : start + Math.max(0, limit)).join('\n');
    };
    const texts = ['', '\n', 'a', 'a\n', 'a\nb', 'a\nb\n', '\n\nx\n\n', 'one\ntwo\nthree\n'];
    const picks = [undefined, -1, 0, 1, 2, 3, 4, 7];
    for (const t of texts) for (const line of picks) for (const limit of picks) assert.equal(sliceLines(t, line, limit), bySplit(t, line, limit), JSON.stringify({ t, line, limit }));
  });

  describe('decision 716: a file over Read\'s bound (MAX_READ_BYTES, 32 MiB)', function () {
    this.timeout(30_000);
    const big = () => path.join(dir, 'big.log');
    /** The backend, counting whole reads; `prefixes`: it reads a file's first bytes too (as the editor's and, since decision 720, the Node one do). */
    function bridgeOver(prefixes: boolean) {
      const fs = new NodeFsBackend([dir]);
      const counted = { wholeReads: 0 };
      const readText = fs.readText.bind(fs);
      fs.readText = (p: string) => (counted.wholeReads++, readText(p));
      if (!prefixes) (fs as { readTextPrefix?: unknown }).readTextPrefix = undefined;
      const fsEvents = new FsEvents();
      attachObservationPolicy(fsEvents);
      return { bridge: new AcpFsBridge({ fs, fsEvents, actor: 'session-1', cwd: dir }), counted };
    }
    beforeEach(() => writeFileSync(big(), Buffer.alloc(MAX_READ_BYTES + 1024 * 1024, 'a line of a big log\n')));

    it('is refused before it is read, in words (its size, the bound, what to do instead), and is not marked as read', async () => {
      const { bridge: b, counted } = bridgeOver(false);
      const e = await refusal(b.readTextFile({ path: big() }));
      assert.equal(e.data?.code, 'FILE_TOO_LARGE');
      assert.match(e.message, /^FILE_TOO_LARGE: "big\.log" is 33\.0 MB; files are read up to 32\.0 MB\. To see a part of it, read it with a shell command/);
      assert.equal(counted.wholeReads, 0, 'not a byte read');
      const line = await refusal(b.readTextFile({ path: big(), line: 1, limit: 10 }));
      assert.equal(line.data?.code, 'FILE_TOO_LARGE', 'a backend without prefix reads cannot serve a window either');
      const write = await refusal(b.writeTextFile({ path: big(), content: 'x' }));
      assert.equal(write.data?.code, 'FS_EXISTS', 'not read: a write of it is refused as unread');
    });

    it('a window of its start (line and limit) is served from a prefix where the backend reads one; past the prefix, or without a limit, it is refused', async () => {
      const { bridge: b, counted } = bridgeOver(true);
      assert.equal((await b.readTextFile({ path: big(), line: 3, limit: 2 })).content, 'a line of a big log\na line of a big log');
      const lines = Math.floor(MAX_READ_BYTES / 20);
      const last = await b.readTextFile({ path: big(), line: lines - 1, limit: 1 });
      assert.equal(last.content, 'a line of a big log');
      assert.equal((await refusal(b.readTextFile({ path: big(), line: lines + 10, limit: 1 }))).data?.code, 'FILE_TOO_LARGE');
      const whole = await refusal(b.readTextFile({ path: big(), line: 1 }));
      assert.match(whole.message, /ask for some of its first lines with line and limit \(only its first 32\.0 MB are read\)/);
      assert.equal(counted.wholeReads, 0);
    });
  });
});
