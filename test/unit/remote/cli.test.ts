// `rawp serve` and `rawp attach` as real child processes (run from the sources through tsx), with
// the built-in agent on a temp workspace, and a TCP relay in between to cut the attach's socket.
import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FrameOf } from '../../../src/protocol/frameTypes';
import { generateToken } from '../../../src/remote/auth';
import { http, TestMaster, waitFor } from './harness';
import { isRunning } from '../../support/processes';

const ROOT = join(__dirname, '..', '..', '..');

interface Child {
  proc: ChildProcess;
  out: string;
  err: string;
  exit?: number | null;
}

/** Where the children journal their sessions (never the user's own state directory). */
const STATE_HOME = mkdtempSync(join(tmpdir(), 'rawp-cli-state-'));
after(() => rmSync(STATE_HOME, { recursive: true, force: true }));

function rawp(args: string[]): Child {
  const proc = spawn(process.execPath, ['--require', 'tsx/cjs', join(ROOT, 'src', 'cli', 'main.ts'), ...args], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, XDG_STATE_HOME: STATE_HOME } });
  const c: Child = { proc, out: '', err: '' };
  proc.stdout?.on('data', (d: Buffer) => (c.out += d.toString()));
  proc.stderr?.on('data', (d: Buffer) => (c.err += d.toString()));
  proc.on('exit', (code) => (c.exit = code));
  return c;
}

/** A TCP relay whose live sockets can be cut, as a network drop would. */
function relay(targetPort: number): Promise<{ port: number; cut: () => number; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((inbound) => {
    const outbound = connect(targetPort, '127.0.0.1');
    for (const s of [inbound, outbound]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {});
    }
    inbound.pipe(outbound).pipe(inbound);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      resolve({
        port,
        cut: () => {
          const n = sockets.size;
          for (const s of sockets) s.destroy();
          return n;
        },
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}


/** A port nothing listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

describe('remote/cli: rawp serve and rawp attach as child processes', function () {
  this.timeout(120_000);
  let dir: string;
  let token: string;
  const children: Child[] = [];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rawp-serve-'));
    writeFileSync(join(dir, 'a.txt'), 'hello from a\n');
    writeFileSync(join(dir, 'b.txt'), 'second file b\n');
    token = generateToken();
  });
  afterEach(async () => {
    for (const c of children.splice(0)) if (c.exit === undefined) c.proc.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  async function serve(extra: string[] = []): Promise<{ child: Child; url: string; session_id: string }> {
    const child = rawp(['serve', '--workspace', join(dir), '--agent', 'builtin', '--token', token, '--rules-file', join(dir, 'rules.json'), ...extra]);
    children.push(child);
    await waitFor(() => child.out.includes('\n') || child.exit !== undefined, 'the listening line');
    assert.ok(child.out.includes('\n'), `rawp serve exited (${child.exit}) before listening: ${child.err}`);
    const line = JSON.parse(child.out.split('\n')[0]) as { event: string; url: string; session_id: string };
    assert.equal(line.event, 'listening');
    return { child, url: line.url, session_id: line.session_id };
  }

  it('§7.8 rawp serve prints one listening line, serves the session; on SIGTERM mid-turn it closes the master with 1001 (no session.deleted: the session is kept), exits 0 and leaves no agent process; started again on its port, the master reattaches by itself and sees the interrupted turn finalized (decision 581)', async () => {
    const port = await freePort();
    const { child, url, session_id } = await serve(['--port', String(port)]);
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.match(session_id, /^[0-9a-f-]{36}$/);
    assert.ok(!child.out.includes(token) && !child.err.includes(token), 'a given token is never printed');
    assert.equal(JSON.parse((await http(`${url}/v1/health`)).body).ok, true);

    const m = await new TestMaster({ server: { attachUrl: (id: string) => `${url.replace('http', 'ws')}/v1/sessions/${id}/stream` } as never, token, session: { session_id } }).open();
    m.client.send('control.prompt.request', { prompt_text: 'read a.txt' });
    await waitFor(() => m.transcript.turns[0]?.usage !== undefined, 'first turn');
    assert.match(JSON.stringify(m.transcript.turns[0].blocks), /hello from a/);

    // A long command, allowed through the permission question, then SIGTERM mid-turn.
    m.client.send('control.prompt.request', { prompt_text: 'run `echo $$ > pid.txt; exec sleep 30`' });
    await waitFor(() => m.frames.some((f) => f.type === 'agent.interaction.request'), 'permission question');
    const ask = m.frames.find((f): f is FrameOf<'agent.interaction.request'> => f.type === 'agent.interaction.request');
    m.client.send('control.interaction.response', { interaction_id: ask!.payload.interaction_id, selected_value: 'allow_once' });
    await waitFor(() => existsSync(join(dir, 'pid.txt')) && readFileSync(join(dir, 'pid.txt'), 'utf8').trim() !== '', 'the command runs');
    const pid = Number(readFileSync(join(dir, 'pid.txt'), 'utf8').trim());
    assert.ok(isRunning(pid));
    child.proc.kill('SIGTERM');
    await waitFor(() => child.exit !== undefined, 'serve exits');
    assert.equal(child.exit, 0);
    assert.ok(!m.types().includes('session.deleted'), 'the session was not deleted (before: session.deleted, and every master gave up)');
    assert.deepEqual([m.closes[0]?.code, m.closes[0]?.reason], [1001, 'server shutting down']);
    assert.equal(m.ended, undefined, 'the master keeps trying');
    await waitFor(() => !isRunning(pid), 'the agent command is gone');
    const turn = m.frames.find((f): f is FrameOf<'session.turn.start'> => f.type === 'session.turn.start' && f.payload.turn_id !== m.transcript.turns[0].turnId)?.payload.turn_id;
    assert.ok(turn, 'the second turn started');
    // Started again on the same port and state folder: the same session, and the master is back.
    const again = await serve(['--port', String(port)]);
    assert.equal(again.session_id, session_id);
    await waitFor(() => m.connects >= 2, 'the master reattached by itself');
    // The history a reattach gets (§7.1.1) holds what was missed, the restore's closing frames too.
    const seen = () => m.frames.flatMap((f) => (f.type === 'session.history' ? (f.payload.frames as typeof m.frames) : [f]));
    await waitFor(() => seen().some((f) => f.type === 'session.turn.end' && f.payload.turn_id === turn), 'the interrupted turn ends (finalized at restore, §7.8.2)');
    assert.equal(m.ended, undefined);
    m.client.stop();
  });

  it('§17.3.1 rawp serve --permission-timeout sets the host\'s permission policy: the question carries it and silence rejects; a bad value is refused', async () => {
    const bad = rawp(['serve', '--workspace', dir, '--token', token, '--permission-timeout', 'soon']);
    children.push(bad);
    await waitFor(() => bad.exit !== undefined, 'serve refuses the value');
    assert.equal(bad.exit, 2);
    assert.match(bad.err, /--permission-timeout must be a whole number of seconds/);
    const { url, session_id } = await serve(['--permission-timeout', '1']);
    const m = await new TestMaster({ server: { attachUrl: (id: string) => `${url.replace('http', 'ws')}/v1/sessions/${id}/stream` } as never, token, session: { session_id } }).open();
    m.client.send('control.prompt.request', { prompt_text: 'run `touch made.txt`' });
    await waitFor(() => m.frames.some((f) => f.type === 'agent.interaction.request'), 'permission question');
    const ask = m.frames.find((f): f is FrameOf<'agent.interaction.request'> => f.type === 'agent.interaction.request')!;
    assert.equal(ask.payload.timeout_sec, 1);
    assert.equal(ask.payload.default_value, 'reject');
    await waitFor(() => m.frames.some((f) => f.type === 'session.turn.end'), 'the turn ends without an answer', 30_000);
    const result = m.frames.find((f): f is FrameOf<'tool.invoke.result'> => f.type === 'tool.invoke.result');
    assert.equal(result?.payload.status, 'error');
    assert.match(String(result?.payload.output), /PERMISSION_TIMEOUT/);
    assert.equal(existsSync(join(dir, 'made.txt')), false, 'nothing ran');
  });

  it('§16.1 rawp serve announces file_search_fuzzy and answers a master\'s control.file.search with workspace candidates (§16.1.2)', async () => {
    const { url, session_id } = await serve();
    const m = await new TestMaster({ server: { attachUrl: (id: string) => `${url.replace('http', 'ws')}/v1/sessions/${id}/stream` } as never, token, session: { session_id } }).open();
    const caps = m.frames.find((f): f is FrameOf<'session.capabilities'> => f.type === 'session.capabilities');
    assert.equal(caps?.payload.features?.file_search_fuzzy, true);
    const search = m.client.send('control.file.search', { query_id: 'q-1', query: 'b.tx' });
    await waitFor(() => m.frames.some((f) => f.type === 'session.file.candidates'), 'candidates');
    const found = m.frames.find((f): f is FrameOf<'session.file.candidates'> => f.type === 'session.file.candidates')!;
    assert.equal(found.payload.query_id, 'q-1');
    assert.ok(search, 'the search was sent');
    assert.equal(found.parent_id, search.message_id);
    assert.equal(found.payload.candidates[0]?.path, 'b.txt');
  });

  it('rawp attach sends a prompt to the built-in agent, shows the answer, reconnects by itself after its socket is cut, answers a question by number and cancels on Ctrl-C', async () => {
    const { url } = await serve();
    const r = await relay(Number(new URL(url).port));
    try {
      const attach = rawp(['attach', `http://127.0.0.1:${r.port}`, '--token', token]);
      children.push(attach);
      attach.proc.stdin?.write('read a.txt\n');
      await waitFor(() => /hello from a[\s\S]*turn 1 ended: end_turn/.test(attach.out), 'first answer shown');
      assert.ok(r.cut() > 0, 'the relay had live sockets to cut');
      await waitFor(() => attach.out.includes('[reconnected'), 'reconnected');
      assert.match(attach.out, /\[connection lost/);
      attach.proc.stdin?.write('read b.txt\n');
      await waitFor(() => /second file b[\s\S]*turn 2 ended: end_turn/.test(attach.out), 'second answer after the reconnect');

      attach.proc.stdin?.write('run `sleep 30`\n');
      await waitFor(() => attach.out.includes('[question waiting'), 'permission question shown');
      attach.proc.stdin?.write('1\n');
      await waitFor(() => attach.out.includes('✓ allow_once'), 'answer recorded');
      attach.proc.kill('SIGINT');
      await waitFor(() => /turn 3 ended: cancelled/.test(attach.out), 'turn cancelled');
      assert.match(attach.out, /\[cancelling the turn/);
      attach.proc.kill('SIGINT');
      await waitFor(() => attach.exit !== undefined, 'attach exits on the second Ctrl-C');
      assert.equal(attach.exit, 0);
      // Nothing was lost or shown twice across the cut.
      assert.equal(attach.out.match(/hello from a/g)?.length, 1, 'the tool output of turn 0 once (the answer does not repeat it, issue 15 Why 7)');
      assert.ok(!attach.out.includes('Connection lost'), 'no synthetic result left behind');
    } finally {
      await r.close();
    }
  });

  it('§6.1.2 a piped `/cancel` waits for the attach and cancels the running turn (it quit at once and the turn ran on); a piped attach to a session that is not there exits 1 with the 404, not 0 (the CLI trial of 2026-12-06)', async () => {
    const { url, session_id } = await serve();
    const m = await new TestMaster({ server: { attachUrl: (id: string) => `${url.replace('http', 'ws')}/v1/sessions/${id}/stream` } as never, token, session: { session_id } }).open();
    m.client.send('control.prompt.request', { prompt_text: 'run `sleep 30`' });
    await waitFor(() => m.types().includes('agent.interaction.request'), 'the permission question');
    const ask = m.frames.find((f): f is FrameOf<'agent.interaction.request'> => f.type === 'agent.interaction.request')!;
    m.client.send('control.interaction.response', { interaction_id: ask.payload.interaction_id, selected_value: 'allow_once' });
    await waitFor(() => m.types().includes('tool.invoke.stream') || m.frames.some((f) => f.type === 'agent.state.changed' && (f as FrameOf<'agent.state.changed'>).payload.current_state === 'tool_calling'), 'the command runs');
    const attach = rawp(['attach', url, '--token', token]);
    children.push(attach);
    attach.proc.stdin?.end('/cancel\n');
    await waitFor(() => m.frames.some((f) => f.type === 'session.turn.end' && (f as FrameOf<'session.turn.end'>).payload.stop_reason === 'cancelled'), 'the turn is cancelled', 20_000);
    await waitFor(() => attach.exit !== undefined, 'attach leaves once the turn it cancelled ended');
    assert.equal(attach.exit, 0, attach.err);
    assert.match(attach.out, /\[cancelling the turn/);

    const lost = rawp(['attach', url, '--token', token, '--session', '0b7c1d2e-1111-4222-8333-444455556666']);
    children.push(lost);
    lost.proc.stdin?.end();
    await waitFor(() => lost.exit !== undefined, 'attach ends');
    assert.equal(lost.exit, 1, lost.out + lost.err);
    assert.match(lost.out + lost.err, /404/);
  });

  it('§12.2.1 a typed prompt over the host\'s max_frame_size is refused by attach itself, in words, and attach stays attached (a 5 MB line closed it with 1009, the CLI trial of 2026-12-06)', async () => {
    const { url } = await serve();
    const attach = rawp(['attach', url, '--token', token]);
    children.push(attach);
    await waitFor(() => attach.out.includes('[attached'), 'attached');
    attach.proc.stdin?.write(`read a.txt ${'z'.repeat(5_000_000)}\n`);
    await waitFor(() => attach.out.includes('nothing was sent'), 'the refusal');
    assert.match(attach.out, /\[the prompt is 5 MB, more than the 4\.2 MB the host takes in one frame; nothing was sent \(share a long text as a file instead\)\]/);
    assert.ok(attach.out.length < 100_000, 'the line was not echoed');
    attach.proc.stdin?.write('read a.txt\n');
    await waitFor(() => /hello from a[\s\S]*turn 1 ended: end_turn/.test(attach.out), 'the next prompt is answered on the same attach');
    assert.doesNotMatch(attach.out, /disconnected|connection lost/);
    attach.proc.stdin?.write('/quit\n');
    await waitFor(() => attach.exit !== undefined, 'attach quits');
  });

  it('rawp attach takes the browser link rawp serve prints (…/#token=…&session=…): it attaches with that token and session, and warns that the token is in the process list (decision 585); /help lists attach\'s own commands too (decision 666), and /mode is confirmed', async () => {
    const { url, session_id } = await serve();
    const attach = rawp(['attach', `${url}/#token=${token}&session=${session_id}`]);
    children.push(attach);
    attach.proc.stdin?.write('read a.txt\n');
    await waitFor(() => /hello from a[\s\S]*turn 1 ended: end_turn/.test(attach.out), 'the answer shown');
    assert.match(attach.err, /warning: the link's token is in the process list/);
    assert.doesNotMatch(attach.err, /a token is needed/);
    // /help lists attach's own commands after the session's (they were listed nowhere: the CLI trial of 2026-12-06).
    attach.proc.stdin?.write('/help\n');
    await waitFor(() => attach.out.includes("rawp attach's own"), 'attach\'s own commands');
    assert.match(attach.out, /\/help — List the available slash commands[\s\S]*\[and rawp attach's own: \/cancel — cancel the running turn; \/save \[N\] \[DIR\] — keep a copy of shared file N; \/quit — leave\]/);
    // /mode is confirmed (it printed nothing: the CLI trial of 2026-12-06), once.
    attach.proc.stdin?.write('/mode plan\n');
    await waitFor(() => attach.out.includes('[The mode is now plan.]'), 'the mode confirmed');
    assert.equal(attach.out.split('The mode is now').length - 1, 1, 'said once');
    attach.proc.stdin?.write('/quit\n');
    await waitFor(() => attach.exit !== undefined, 'attach quits');
  });

  it('rawp attach holds a number typed after another master answered the question (it went out as a prompt "4"); typed again, it is sent (decision 586)', async () => {
    const { url, session_id } = await serve();
    const m = await new TestMaster({ server: { attachUrl: (id: string) => `${url.replace('http', 'ws')}/v1/sessions/${id}/stream` } as never, token, session: { session_id } }).open();
    const attach = rawp(['attach', url, '--token', token]);
    children.push(attach);
    await waitFor(() => attach.out.length > 0, 'attach shows the session');
    m.client.send('control.prompt.request', { prompt_text: 'run `echo from-m`' });
    await waitFor(() => attach.out.includes('[question waiting'), 'attach sees the question');
    const ask = m.frames.find((f): f is FrameOf<'agent.interaction.request'> => f.type === 'agent.interaction.request')!;
    m.client.send('control.interaction.response', { interaction_id: ask.payload.interaction_id, selected_value: 'allow_once' });
    await waitFor(() => /turn 1 ended: end_turn/.test(attach.out), 'the turn ended');
    attach.proc.stdin?.write('1\n');
    await waitFor(() => attach.out.includes('no question is waiting'), 'attach says why it held the line');
    await new Promise((r) => setTimeout(r, 300));
    const prompts = () => m.frames.filter((f): f is FrameOf<'control.prompt.request'> => f.type === 'control.prompt.request').map((f) => f.payload.prompt_text);
    assert.deepEqual(prompts(), [], 'nothing was sent');
    attach.proc.stdin?.write('1\n');
    await waitFor(() => prompts().includes('1'), 'typed again, it goes out as a prompt');
    attach.proc.stdin?.write('/quit\n');
  });

  it('rawp attach refuses a wrong token with a clear message and exit code 1', async () => {
    const { url } = await serve();
    const attach = rawp(['attach', url, '--token', generateToken()]);
    children.push(attach);
    await waitFor(() => attach.exit !== undefined, 'attach exits');
    assert.equal(attach.exit, 1);
    assert.match(attach.err, /401/);
  });
});
