// Found while hardening (decision 562): with `ulimit -n 1024`, idle half-sent HTTP requests — no
// token needed — used up `rawp serve`'s file descriptors, and the next process it started (a
// turn's checkpoint git, a master's Bash command) ended it with an unhandled `spawn … EMFILE`; a
// token holder got there too by creating ~1,000 sessions (each holds its journal open). Real
// `rawp serve` processes under a real `ulimit -n`, flooded with real sockets.
import { strict as assert } from 'node:assert';
import { readdirSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { http, waitFor } from '../unit/remote/harness';
import { promptTurn } from './serveChild';
import { serve, stopAll, type ServeChild } from './serveProcess';

const fds = (pid: number) => readdirSync(`/proc/${pid}/fd`).length;

interface Flood {
  sockets: Socket[];
  /** When the server closed each socket (ms after the flood), undefined while open. */
  closedAt: (number | undefined)[];
}

/** `n` connections without a token, each a request whose headers never end. */
async function flood(s: ServeChild, n: number): Promise<Flood> {
  const port = Number(new URL(s.url).port);
  const started = Date.now();
  const f: Flood = { sockets: [], closedAt: [] };
  for (let i = 0; i < n; i++) {
    const sock = connect(port, '127.0.0.1');
    const at = i;
    f.closedAt.push(undefined);
    sock.on('error', () => undefined);
    sock.on('close', () => (f.closedAt[at] = Date.now() - started));
    sock.write('GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-a: ');
    f.sockets.push(sock);
    if (i % 100 === 99) await new Promise((r) => setTimeout(r, 20));
  }
  await new Promise((r) => setTimeout(r, 1000));
  return f;
}

/**
 * GET /v1/health right after the server shed a flood. On a loaded 2-core CI machine one new
 * connection was reset once (ECONNRESET) while the kernel still held the 700 closing sockets;
 * what this test holds the server to is that it answers, so a reset is tried again, a few times.
 */
async function healthAfterFlood(url: string): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    try {
      return (await http(`${url}/v1/health`)).status;
    } catch (e) {
      if (attempt >= 5 || (e as NodeJS.ErrnoException).code !== 'ECONNRESET') throw e;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

const runEcho = async (s: ServeChild, word: string) => {
  const m = await s.master();
  const t = await promptTurn(m, `run \`echo ${word}\``, 'allow_once');
  return t.results[0]?.payload;
};

describe('security/descriptors: running out of file descriptors never ends rawp serve', function () {
  this.timeout(120_000);
  const floods: Flood[] = [];
  afterEach(async () => {
    for (const f of floods.splice(0)) for (const s of f.sockets) s.destroy();
    await stopAll();
  });

  it('700 idle half-sent requests without a token under ulimit -n 512: at most 256 connections are held, a Bash command runs, and the server closes them all within 10 s + 1 s', async () => {
    const s = await serve({ fdLimit: 512 });
    const m = await s.master();
    const f = await flood(s, 700);
    floods.push(f);
    const held = fds(s.proc.pid!);
    const t = await promptTurn(m, 'run `echo hi`', 'allow_once');
    assert.deepEqual([t.results[0]?.payload.status, t.results[0]?.payload.output], ['success', 'hi\n'], 'the command ran during the flood');
    await waitFor(() => f.closedAt.every((c) => c !== undefined), 'every idle connection closed by the server', 30_000);
    const last = Math.max(...f.closedAt.map(Number));
    console.log(`      figures: ${JSON.stringify({ server_fds_during_flood: held, idle_connections_closed_by_ms: last })}`);
    assert.ok(held < 256 + 80, `the server held ${held} descriptors`);
    assert.ok(last < 14_000, `the last idle connection closed after ${last} ms`);
    assert.equal(await healthAfterFlood(s.url), 200);
    assert.ok(s.alive());
  });

  it('with the connection cap lifted under ulimit -n 256, descriptors do run out: the Bash command answers "could not start … too many open files", the turn\'s checkpoint fails in words, and after the flood the same command runs', async () => {
    const s = await serve({ fdLimit: 256, args: ['--max-connections', '5000', '--verbose'] });
    const m = await s.master();
    const f = await flood(s, 400);
    floods.push(f);
    assert.ok(fds(s.proc.pid!) >= 250, `descriptors in use: ${fds(s.proc.pid!)}`);
    const t = await promptTurn(m, 'run `echo hi`', 'allow_once');
    const r = t.results[0]?.payload;
    assert.equal(r?.status, 'error');
    assert.equal(r?.error_code, 'BASH_SPAWN_FAILED');
    assert.equal(r?.output, 'The command could not start: the host has too many open files (EMFILE); try again once some are closed.');
    assert.match(s.err, /checkpoints: a snapshot failed.*EMFILE/);
    assert.ok(s.alive(), `rawp serve ended: ${s.err}`);

    for (const sock of f.sockets) sock.destroy();
    await waitFor(() => fds(s.proc.pid!) < 100, 'descriptors given back', 20_000);
    assert.equal((await http(`${s.url}/v1/health`)).status, 200);
    const again = await promptTurn(m, 'run `echo back`', 'allow_once');
    assert.deepEqual([again.results[0]?.payload.status, again.results[0]?.payload.output], ['success', 'back\n']);
    assert.ok(s.alive());
  });

  it('POST /v1/sessions beyond --max-sessions 3 is a 503 in words, and nothing is created; after a DELETE one fits again', async () => {
    const s = await serve({ args: ['--max-sessions', '3'] });
    const post = () => http(`${s.url}/v1/sessions`, { method: 'POST', headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' }, body: '{}' });
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await post());
    assert.deepEqual(answers.map((a) => a.status), [201, 201, 503, 503], 'the served session is the first of the three');
    assert.equal(JSON.parse(answers[2].body).error, 'could not create the session: this host holds 3 sessions, the most it keeps is 3: delete one (DELETE /v1/sessions/{id}) before creating another');
    const list = JSON.parse((await http(`${s.url}/v1/sessions`, { headers: { authorization: `Bearer ${s.token}` } })).body) as { sessions: { session_id: string }[] };
    assert.equal(list.sessions.length, 3);
    const del = await http(`${s.url}/v1/sessions/${JSON.parse(answers[0].body).session_id}`, { method: 'DELETE', headers: { authorization: `Bearer ${s.token}` } });
    assert.equal(del.status, 204);
    assert.equal((await post()).status, 201);
    assert.equal((await runEcho(s, 'still'))?.output, 'still\n');
  });
});
