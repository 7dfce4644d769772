// `rawp attach` and §4.5.1 file transfers: each transfer is shown as plain lines (number, name,
// type, size, who sent it, the host URL to fetch it) instead of the frame's JSON, and `/save N DIR`
// fetches the file with the token, checks its SHA-256 and writes it without overwriting. The host
// is the real SessionHost behind the real sharing server; `rawp attach` is the built CLI as a
// child process; the "lying host" of the checksum test is a real loopback HTTP server.
import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { safeName, saveTransfer, sizeText } from '../../../src/cli/attach/fileTransfers';
import { parseSaveArgs } from '../../../src/cli/attach/saveArgs';
import { transcriptText } from '../../../src/cli/attach/render';
import { HostSharing } from '../../../src/host/sharing';
import { buildFrame } from '../../../src/protocol/build';
import type { Frame } from '../../../src/protocol/frameTypes';
import { createTranscript } from '../../../src/protocol/transcript';
import { applyFrame } from '../../../src/protocol/transcript/reduce';
import { generateToken } from '../../../src/remote/auth';
import { silentLogger } from '../../../src/session/ports';
import { harness, type Harness } from '../host/harness';
import { waitFor } from '../remote/harness';
import { ONE_PIXEL_PNG } from '../../support/images';
import { buildCliOnce, CLI, ROOT } from '../../support/rawpRun';

const S = '11111111-1111-4111-8111-111111111111';
const ID1 = '5f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b';
const ID2 = '6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b';

describe('rawp attach: §4.5.1 file transfers in plain words, /save fetches and checks them', function () {
  this.timeout(120_000);

  it('§4.5.1 a download and an upload read as lines (who, name, type, size, URL on the host); no frame JSON; a file elsewhere is shown, not offered to /save', () => {
    const t = createTranscript({ sessionId: S });
    const f = (frame: Frame) => applyFrame(t, frame);
    f(buildFrame('agent.file.transfer', { transfer_id: ID1, direction: 'download', file_url: `/v1/files/${ID1}`, file_name: 'chart.png', mime_type: 'image/png', size_bytes: 2345, checksum: 'a'.repeat(64), context: { workspace_relative_path: 'out/chart.png' } }, { session_id: S }) as Frame);
    f(buildFrame('agent.file.transfer', { transfer_id: ID2, direction: 'upload', file_url: `/v1/files/${ID2}`, file_name: 'notes.txt', mime_type: 'text/plain', size_bytes: 12 }, { session_id: S }) as Frame);
    f(buildFrame('agent.file.transfer', { transfer_id: ID2, direction: 'download', file_url: 'https://storage.example/x.bin', file_name: 'x.bin', mime_type: 'application/octet-stream', size_bytes: 3_400_000 }, { session_id: S }) as Frame);
    const text = transcriptText(t, { httpBase: 'http://127.0.0.1:8123' });
    assert.equal(
      text,
      '⇩ file 1 from the agent: chart.png (image/png, 2.3 kB) for out/chart.png\n' +
        `  type /save 1 to keep a copy here · GET http://127.0.0.1:8123/v1/files/${ID1} with the access token\n` +
        '⇧ file 2 uploaded by a master: notes.txt (text/plain, 12 B)\n' +
        `  type /save 2 to keep a copy here · GET http://127.0.0.1:8123/v1/files/${ID2} with the access token\n` +
        '⇩ file 3 from the agent: x.bin (application/octet-stream, 3.4 MB)\n' +
        '  at https://storage.example/x.bin\n',
    );
    assert.doesNotMatch(text, /[{}]/, 'no JSON of the frame');
    assert.equal(sizeText(0), '0 B');
    assert.equal(sizeText(999), '999 B');
    assert.equal(sizeText(20_000_000), '20 MB');
  });

  it('security: /save keeps only a plain base name of the frame\'s file_name — no folders, control characters or leading dots', () => {
    assert.equal(safeName('../../etc/passwd'), 'passwd');
    assert.equal(safeName('..\\..\\Windows\\win.ini'), 'win.ini');
    assert.equal(safeName('.bashrc'), 'bashrc');
    assert.equal(safeName('\u001b[31mred\u0007.txt'), '_[31mred_.txt');
    assert.equal(safeName('a:b*c?.png'), 'a_b_c_.png');
    assert.equal(safeName('..'), 'file');
    assert.equal(safeName('/'), 'file');
    assert.equal(safeName('x'.repeat(300)).length, 200);
  });

  it('§6.1.1 a prompt\'s context_files are listed under it, whichever master sent it', () => {
    const t = createTranscript({ sessionId: S });
    applyFrame(t, buildFrame('control.prompt.request', { prompt_text: 'look at this', context_files: [{ file_url: `/v1/files/${ID1}`, file_name: 'dot.png', mime_type: 'image/png', intent: 'context' }, { file_url: `/v1/files/${ID2}`, file_name: 'README' }] }, { session_id: S }) as Frame);
    assert.equal(transcriptText(t), '\n› look at this\n  + attached: dot.png (image/png)\n  + attached: README\n');
  });

  describe('against the real host (SessionHost + sharing server) and the built CLI', () => {
    let h: Harness;
    let sharing: HostSharing | undefined;
    let attach: ChildProcess | undefined;
    let out = '';
    const token = generateToken();
    before(() => buildCliOnce());
    beforeEach(() => {
      h = harness();
      out = '';
    });
    afterEach(async () => {
      if (attach && attach.exitCode === null) attach.kill('SIGKILL');
      attach = undefined;
      await sharing?.close();
      sharing = undefined;
      await h.cleanup();
    });

    it('§4.5.1 an agent\'s file shows in rawp attach as "⇩ file 1 from the agent"; /save 1 DIR writes the same bytes (SHA-256 checked), a second /save never overwrites, a wrong number is explained', async () => {
      const host = h.makeHost();
      const id = await host.create({ agent: 'builtin' });
      sharing = new HostSharing({ host, logger: silentLogger, settings: async () => ({ token }) });
      const server = await sharing.share(id);
      attach = spawn(process.execPath, [CLI, 'attach', server.url, '--session', id], { cwd: ROOT, env: { ...process.env, RAWP_TOKEN: token }, stdio: ['pipe', 'pipe', 'pipe'] });
      attach.stdout!.on('data', (d: Buffer) => (out += d.toString()));
      attach.stderr!.on('data', (d: Buffer) => (out += d.toString()));
      await waitFor(() => out.includes('[attached to session'), 'rawp attach attached', 60_000);

      const payload = await host.publishFile(id, { bytes: ONE_PIXEL_PNG, file_name: 'dot.png', mime_type: 'image/png' });
      await waitFor(() => out.includes('⇩ file 1 from the agent: dot.png'), 'the transfer line', 30_000);
      assert.match(out, new RegExp(`⇩ file 1 from the agent: dot\\.png \\(image/png, 67 B\\)\\n {2}type /save 1 to keep a copy here · GET ${server.url.replace(/[.]/g, '\\.')}/v1/files/${payload.transfer_id} with the access token\\n`));
      assert.ok(!out.includes('"transfer_id"'), 'the frame is not printed as JSON');
      assert.ok(!out.includes(token), 'the token is never printed');

      const dir = join(h.dir, 'downloads');
      mkdirSync(dir);
      attach.stdin!.write(`/save 1 ${dir}\n`);
      await waitFor(() => out.includes('[saved file 1'), 'the first save', 30_000);
      assert.match(out, /\[saved file 1, dot\.png \(67 B, SHA-256 checked\), to .*dot\.png\]/);
      assert.ok(readFileSync(join(dir, 'dot.png')).equals(ONE_PIXEL_PNG), 'the same bytes');
      attach.stdin!.write(`/save 1 ${dir}\n`);
      await waitFor(() => out.split('[saved file 1').length === 3, 'the second save', 30_000);
      assert.deepEqual(readdirSync(dir).sort(), ['dot (1).png', 'dot.png']);
      attach.stdin!.write('/save 7\n');
      await waitFor(() => out.includes('[/save: there is no file 7; files 1-1 were shared]'), 'the wrong number explained', 30_000);
    });
  });

  describe('a host that sends other bytes than it announced (a real loopback HTTP server)', () => {
    let server: Server;
    let base: string;
    let dir: string;
    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'rawp-attach-save-'));
      server = createServer((req, res) => {
        // Only with the token; the bytes are not the ones the frame's checksum names.
        if (req.headers.authorization !== 'Bearer t0k') return void res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"wrong token"}');
        res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from('not the png'));
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
      base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    });
    after(async () => {
      await new Promise((r) => server.close(r));
      rmSync(dir, { recursive: true, force: true });
    });

    const transfer = { transfer_id: ID1, direction: 'download' as const, file_url: `/v1/files/${ID1}`, file_name: 'dot.png', mime_type: 'image/png', size_bytes: 11, checksum: createHash('sha256').update(ONE_PIXEL_PNG).digest('hex') };

    it('§4.5.1 a SHA-256 mismatch is refused and nothing is saved; a 401 says what the host said; a file on another origin is never fetched with the token', async () => {
      await assert.rejects(saveTransfer(transfer, { httpBase: base, token: 't0k', dir }), /SHA-256 is [0-9a-f]{64}, not the announced [0-9a-f]{64}; nothing was saved/);
      await assert.rejects(saveTransfer(transfer, { httpBase: base, token: 'other', dir }), /the host answered 401: wrong token/);
      await assert.rejects(saveTransfer({ ...transfer, file_url: `http://127.0.0.2:1/v1/files/${ID1}` }, { httpBase: base, token: 't0k', dir }), /is not on this host/);
      await assert.rejects(saveTransfer(transfer, { httpBase: base, token: 't0k', dir: join(dir, 'missing') }), /the folder .*missing does not exist; nothing was fetched/);
      assert.deepEqual(readdirSync(dir), []);
    });

    it('/save says what is wrong with its folder in words: a file given as the folder, a folder that takes no files (it said "does not exist", or a raw ENOENT)', async () => {
      const file = join(dir, 'afile');
      writeFileSync(file, 'x');
      await assert.rejects(saveTransfer(transfer, { httpBase: base, token: 't0k', dir: file }), /afile is a file, not a folder; give the folder to save into; nothing was fetched/);
      rmSync(file);
      const good = { ...transfer, checksum: createHash('sha256').update('not the png').digest('hex') };
      await assert.rejects(saveTransfer(good, { httpBase: base, token: 't0k', dir: '/proc' }), /^Error: cannot save into \/proc: .*; nothing was saved$/);
    });

    it('/save [N] [DIR] reads N and DIR as typed at a shell: ~ is home, quotes are not part of the name, N outside 1..files is said', () => {
      assert.deepEqual(parseSaveArgs('', 3, '/home/u'), { n: 3 });
      assert.deepEqual(parseSaveArgs('2', 3, '/home/u'), { n: 2 });
      assert.deepEqual(parseSaveArgs('2 ~/dl', 3, '/home/u'), { n: 2, dir: '/home/u/dl' });
      assert.deepEqual(parseSaveArgs('~', 3, '/home/u'), { n: 3, dir: '/home/u' });
      assert.deepEqual(parseSaveArgs('1 "my files"', 3, '/home/u'), { n: 1, dir: 'my files' });
      assert.deepEqual(parseSaveArgs("'dl'", 3, '/home/u'), { n: 3, dir: 'dl' });
      assert.deepEqual(parseSaveArgs('2024-notes', 3, '/home/u'), { n: 3, dir: '2024-notes' }, 'a folder that starts with digits');
      assert.deepEqual(parseSaveArgs('-1', 3, '/home/u'), { error: 'there is no file -1; files 1-3 were shared' });
      assert.deepEqual(parseSaveArgs('0 dl', 3, '/home/u'), { error: 'there is no file 0; files 1-3 were shared' });
      assert.deepEqual(parseSaveArgs('4', 3, '/home/u'), { error: 'there is no file 4; files 1-3 were shared' });
    });
  });
});
