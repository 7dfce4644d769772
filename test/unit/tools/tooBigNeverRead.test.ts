// "A file too big is never read" (decisions 539, 716), counted by the kernel: the bytes this process
// read (`rchar` of /proc/self/io) while Read, an ACP read, Grep and an @ reference meet a 512 MiB
// file. Each asked `FsBackend.stat` for the size first, and the Node backend's stat reads and hashes
// the whole file for its version: 512 MiB read (and held) before the refusal. Now the size comes
// from the file's metadata (src/tools/sizeBeforeRead.ts). Real files (sparse), the real NodeFsBackend.
import { strict as assert } from 'node:assert';
import { readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { AcpFsBridge } from '../../../src/agents/acp/fsBridge';
import { convertFileReferences } from '../../../src/agents/fileReferences';
import { encodePrompt } from '../../../src/protocol/fileReference';
import { FsEvents } from '../../../src/tools/fsEvents';
import { attachObservationPolicy } from '../../../src/tools/ledger/policy';
import { makeEnv, type Env } from './_env';

const BIG = 512 * 1024 * 1024;
/** Far below the file, far above what a refusal or a 64 KiB inline read costs. */
const READ_AT_MOST = 8 * 1024 * 1024;

/** Bytes this process read through read(2) and friends so far (Linux). */
function bytesRead(): number {
  const m = /^rchar:\s*(\d+)/m.exec(readFileSync('/proc/self/io', 'utf8'));
  assert.ok(m, 'rchar in /proc/self/io');
  return Number(m[1]);
}

async function readWhile(fn: () => Promise<unknown>): Promise<number> {
  const before = bytesRead();
  await fn();
  return bytesRead() - before;
}

describe('tools: a file over the read bound is never read, by the kernel\'s count (decisions 539, 716)', function () {
  this.timeout(60_000);
  let env: Env;
  beforeEach(() => {
    env = makeEnv();
    writeFileSync(env.p('huge.log'), '');
    truncateSync(env.p('huge.log'), BIG); // sparse: nothing written
  });
  afterEach(() => env.cleanup());

  it('Read refuses it with FILE_TOO_LARGE having read none of it', async () => {
    let r: Awaited<ReturnType<Env['call']>> | undefined;
    const read = await readWhile(async () => (r = await env.call('Read', { file_path: 'huge.log' })));
    assert.equal(r?.error_code, 'FILE_TOO_LARGE');
    assert.ok(read < READ_AT_MOST, `${read} bytes read`);
  });

  it('an ACP fs/read_text_file is refused in words having read none of it', async () => {
    const events = new FsEvents();
    attachObservationPolicy(events);
    const bridge = new AcpFsBridge({ fs: env.shared.fs, fsEvents: events, actor: 's', cwd: env.dir });
    let error: unknown;
    const read = await readWhile(() => bridge.readTextFile({ path: env.p('huge.log') }).catch((e: unknown) => (error = e)));
    assert.match(String((error as Error | undefined)?.message), /FILE_TOO_LARGE/);
    assert.ok(read < READ_AT_MOST, `${read} bytes read`);
  });

  it('Grep of the file skips it as too big having read none of it', async () => {
    let r: Awaited<ReturnType<Env['call']>> | undefined;
    const read = await readWhile(async () => (r = await env.call('Grep', { pattern: 'x', path: 'huge.log', output_mode: 'content' })));
    assert.equal(r?.status, 'success', String(r?.output));
    assert.ok(read < READ_AT_MOST, `${read} bytes read`);
  });

  it('an @ reference through the backend inlines its start and reads little more', async () => {
    const prompt = encodePrompt([{ kind: 'text', text: 'see ' }, { kind: 'file', path: 'huge.log' }]);
    let converted: Awaited<ReturnType<typeof convertFileReferences>> | undefined;
    const read = await readWhile(async () => (converted = await convertFileReferences(prompt.prompt_text, prompt.file_references, { roots: [env.dir], fs: env.shared.fs, strategy: { kind: 'inline' } })));
    assert.deepEqual(converted?.files.map((f) => f.path), ['huge.log']);
    assert.match(converted?.text ?? '', /^see \[File: huge\.log\]/);
    assert.ok(read < READ_AT_MOST, `${read} bytes read`);
  });
});
