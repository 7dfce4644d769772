// §2.4 + §4.5.1: when one master uploads a file (PUT /v1/files/{id}) and announces it with
// `agent.file.transfer` (direction upload), every other master of the session learns of it the
// same way — the same frame, the same message_id, never echoed to its sender, kept in history for
// a later attach — once the host accepted it; a refused announcement and its refusal stay with the
// sender. A prompt's context_files reach the others with the prompt. Two real masters (the
// reconnecting client, and `rawp attach` as a child process) on a real `rawp serve` child.
import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import type { Frame, FrameOf, VendorFrame } from '../../../src/protocol/frameTypes';
import { webviewMessage } from '../../../src/protocol/webviewMessages';
import { HostSharing } from '../../../src/host/sharing';
import { generateToken } from '../../../src/remote/auth';
import { silentLogger } from '../../../src/session/ports';
import { CLI, ROOT, serve, stopAll, type ServeChild } from '../../security/serveProcess';
import { controllerFor, harness, viewRecorder } from '../host/harness';
import { TestMaster, waitFor } from './harness';

const NOTES = Buffer.from('shopping list: milk, eggs\n');
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

function put(child: Pick<ServeChild, 'url' | 'session_id' | 'token'>, id: string, body: Buffer, file_name: string): Promise<number> {
  const q = new URLSearchParams({ session_id: child.session_id, file_name });
  return new Promise((resolve, reject) => {
    const req = request(`${child.url}/v1/files/${id}?${q}`, { method: 'PUT', headers: { authorization: `Bearer ${child.token}`, 'content-type': 'text/plain', 'x-checksum-sha256': sha(body) } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const transfers = (m: TestMaster) => m.frames.filter((f): f is FrameOf<'agent.file.transfer'> => f.type === 'agent.file.transfer');
const errorsAbout = (frames: Array<Frame | VendorFrame>, parent_id: string) => frames.filter((f) => f.type === 'session.error' && f.parent_id === parent_id);

describe('remote: §2.4 §4.5.1 a master\'s upload announcement reaches the other masters (real rawp serve, two masters)', function () {
  this.timeout(120_000);
  let attach: ChildProcess | undefined;
  let attachOut = '';
  afterEach(async () => {
    if (attach && attach.exitCode === null) attach.kill('SIGKILL');
    attach = undefined;
    attachOut = '';
    await stopAll();
  });

  it('§4.5.1 upload + announcement by master A: master B (rawp attach) shows "⇧ file 1 uploaded by a master" and /save gets the bytes; master C gets the same frame; A gets no echo; a later attach finds it in history', async () => {
    const child = await serve();
    const a = await child.master();
    const c = await child.master();
    attach = spawn(process.execPath, [CLI, 'attach', child.url, '--session', child.session_id], { cwd: ROOT, env: { ...process.env, RAWP_TOKEN: child.token }, stdio: ['pipe', 'pipe', 'pipe'] });
    attach.stdout!.on('data', (d: Buffer) => (attachOut += d.toString()));
    attach.stderr!.on('data', (d: Buffer) => (attachOut += d.toString()));
    await waitFor(() => attachOut.includes('[attached to session'), 'rawp attach attached', 60_000);

    const id = randomUUID();
    assert.equal(await put(child, id, NOTES, 'notes.txt'), 201);
    const sent = a.client.send('agent.file.transfer', { transfer_id: id, direction: 'upload', file_url: `/v1/files/${id}`, file_name: 'notes.txt', mime_type: 'text/plain', size_bytes: NOTES.length, checksum: sha(NOTES) });
    assert.ok(sent);

    await waitFor(() => transfers(c).length === 1, 'master C gets the announcement', 30_000);
    const relayed = transfers(c)[0];
    assert.equal(relayed.message_id, sent.message_id, '§2.4 relayed as sent, same message_id');
    assert.deepEqual(relayed.payload, sent.payload);
    await waitFor(() => attachOut.includes('⇧ file 1 uploaded by a master: notes.txt'), 'rawp attach shows it', 30_000);
    assert.match(attachOut, new RegExp(`⇧ file 1 uploaded by a master: notes\\.txt \\(text/plain, ${NOTES.length} B\\)\\n {2}type /save 1 to keep a copy here · GET ${child.url.replace(/[.]/g, '\\.')}/v1/files/${id} with the access token\\n`));

    const dir = join(child.dir, 'saved');
    mkdirSync(dir);
    attach.stdin!.write(`/save 1 ${dir}\n`);
    await waitFor(() => attachOut.includes('[saved file 1'), 'B saves it', 30_000);
    assert.ok(readFileSync(join(dir, 'notes.txt')).equals(NOTES), 'B fetched the bytes A uploaded');

    // A later master finds the announcement in the session's history (§7.1, §13.7).
    const d = await child.master();
    await waitFor(() => d.transcript.timeline.some((e) => e.kind === 'file_transfer' && e.transfer.transfer_id === id), 'history holds the announcement', 30_000);
    assert.equal(transfers(a).length, 0, '§2.4 never echoed to its sender');
    assert.deepEqual(a.invalid, []);
  });

  it('§4.5.1 a refused announcement (checksum, name not the uploaded file\'s; a hostile name; a file_url elsewhere) and its INVALID_FILE_TRANSFER stay with the sender; the next valid one is relayed', async () => {
    const child = await serve();
    const a = await child.master();
    const c = await child.master();
    const id = randomUUID();
    assert.equal(await put(child, id, NOTES, 'notes.txt'), 201);
    const bad = a.client.send('agent.file.transfer', { transfer_id: id, direction: 'upload', file_url: `/v1/files/${id}`, file_name: 'notes.txt', mime_type: 'text/plain', size_bytes: NOTES.length, checksum: sha(Buffer.from('other bytes')) });
    assert.ok(bad);
    await waitFor(() => errorsAbout(a.frames, bad.message_id).length === 1, 'A is told why', 30_000);
    const [refusal] = errorsAbout(a.frames, bad.message_id) as FrameOf<'session.error'>[];
    assert.equal(refusal.payload.error_code, 'INVALID_FILE_TRANSFER');
    assert.match(refusal.payload.message, /does not match the uploaded file's SHA-256/);
    // Another name than the upload's, or a name the PUT would refuse, misleads the others too.
    const renamed = a.client.send('agent.file.transfer', { transfer_id: id, direction: 'upload', file_url: `/v1/files/${id}`, file_name: 'invoice.pdf', mime_type: 'text/plain', size_bytes: NOTES.length, checksum: sha(NOTES) });
    const hostile = a.client.send('agent.file.transfer', { transfer_id: id, direction: 'upload', file_url: `/v1/files/${id}`, file_name: '\u202etxt.exe', mime_type: 'text/plain', size_bytes: NOTES.length, checksum: sha(NOTES) });
    assert.ok(renamed && hostile);
    await waitFor(() => errorsAbout(a.frames, renamed.message_id).length === 1 && errorsAbout(a.frames, hostile.message_id).length === 1, 'A is told why, twice', 30_000);
    assert.match((errorsAbout(a.frames, renamed.message_id)[0] as FrameOf<'session.error'>).payload.message, /file_name "invoice\.pdf" does not match the uploaded file's "notes\.txt"/);
    assert.match((errorsAbout(a.frames, hostile.message_id)[0] as FrameOf<'session.error'>).payload.message, /bidirectional text controls/);
    // Nothing uploaded here yet, pointing elsewhere: shown to everyone as "uploaded by a master" (the trial).
    const other = randomUUID();
    const foreign = a.client.send('agent.file.transfer', { transfer_id: other, direction: 'upload', file_url: 'http://evil.example/steal', file_name: 'notes.txt', mime_type: 'text/plain', size_bytes: 5 });
    assert.ok(foreign);
    await waitFor(() => errorsAbout(a.frames, foreign.message_id).length === 1, 'A is told why', 30_000);
    assert.match((errorsAbout(a.frames, foreign.message_id)[0] as FrameOf<'session.error'>).payload.message, /file_url must be this host's \/v1\/files\/[0-9a-f-]{36} \(PUT the file there, then announce it; §4\.5\.1\), not "http:\/\/evil\.example\/steal"/);

    // Frames reach C in order: once the valid announcement after it is there, the refused one would have been.
    const good = a.client.send('agent.file.transfer', { transfer_id: id, direction: 'upload', file_url: `/v1/files/${id}`, file_name: 'notes.txt', mime_type: 'text/plain', size_bytes: NOTES.length, checksum: sha(NOTES) });
    assert.ok(good);
    await waitFor(() => transfers(c).length > 0, 'C gets the valid one', 30_000);
    assert.deepEqual(transfers(c).map((f) => f.message_id), [good.message_id], 'only the accepted announcement was relayed');
    assert.deepEqual(errorsAbout(c.frames, bad.message_id), [], 'the refusal stayed with A');
  });

  it('§6.1.1 §2.4 a prompt with context_files (an uploaded file) reaches the other masters with its files listed: rawp attach shows "+ attached"', async () => {
    const child = await serve();
    const a = await child.master();
    const c = await child.master();
    attach = spawn(process.execPath, [CLI, 'attach', child.url, '--session', child.session_id], { cwd: ROOT, env: { ...process.env, RAWP_TOKEN: child.token }, stdio: ['pipe', 'pipe', 'pipe'] });
    attach.stdout!.on('data', (d: Buffer) => (attachOut += d.toString()));
    await waitFor(() => attachOut.includes('[attached to session'), 'rawp attach attached', 60_000);
    const id = randomUUID();
    assert.equal(await put(child, id, NOTES, 'notes.txt'), 201);
    const prompt = a.client.send('control.prompt.request', { prompt_text: 'read a.txt', context_files: [{ file_url: `/v1/files/${id}`, file_name: 'notes.txt', mime_type: 'text/plain', intent: 'context' }] });
    assert.ok(prompt);
    await waitFor(() => attachOut.includes('+ attached: notes.txt (text/plain)'), 'rawp attach lists the file under the prompt', 30_000);
    assert.match(attachOut, /› read a\.txt\n {2}\+ attached: notes\.txt \(text\/plain\)\n/);
    await waitFor(() => c.frames.some((f) => f.type === 'control.prompt.request' && f.message_id === prompt.message_id), 'C gets the prompt', 30_000);
    const got = c.frames.find((f): f is FrameOf<'control.prompt.request'> => f.type === 'control.prompt.request' && f.message_id === prompt.message_id)!;
    assert.deepEqual(got.payload.context_files?.map((f) => f.file_name), ['notes.txt']);
  });

  it('§2.4 §4.5.1 the editor\'s own view (a local connection of the host) gets a remote master\'s upload announcement too', async () => {
    const h = harness();
    let sharing: HostSharing | undefined;
    let m: TestMaster | undefined;
    try {
      const host = h.makeHost();
      const c = controllerFor(host, h);
      const view = viewRecorder();
      c.setView(view.post);
      await c.receive(webviewMessage('ready', { version: 1 }));
      await waitFor(() => c.activeSessionId !== undefined && view.frames().some((f) => f.type === 'agent.state.changed'), 'the view is attached');
      const session_id = c.activeSessionId!;
      const token = generateToken();
      sharing = new HostSharing({ host, logger: silentLogger, settings: async () => ({ token }) });
      const server = await sharing.share(session_id);
      m = await new TestMaster({ server, token, session: { session_id } }).open();
      const id = randomUUID();
      assert.equal(await put({ url: server.url, session_id, token }, id, NOTES, 'notes.txt'), 201);
      const sent = m.client.send('agent.file.transfer', { transfer_id: id, direction: 'upload', file_url: `/v1/files/${id}`, file_name: 'notes.txt', mime_type: 'text/plain', size_bytes: NOTES.length, checksum: sha(NOTES) });
      assert.ok(sent);
      await waitFor(() => view.frames().some((f) => f.type === 'agent.file.transfer'), 'the view gets it', 30_000);
      const got = view.frames().filter((f) => f.type === 'agent.file.transfer');
      assert.deepEqual(got.map((f) => f.message_id), [sent.message_id]);
      assert.equal((got[0].payload as { direction?: string }).direction, 'upload');
    } finally {
      m?.client.stop();
      await sharing?.close();
      await h.cleanup();
    }
  });
});
