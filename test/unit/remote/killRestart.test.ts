// Issue 11 item 6, black box: a real `rawp serve` (the built CLI, `node dist/cli.js serve`) with the
// built-in agent is killed with SIGKILL mid-turn and started again on the same state folder and
// token. Real WebSocket masters (ws) watch, drive, leave early and reattach; nothing is faked.
import { strict as assert } from 'node:assert';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { buildFrame } from '../../../src/protocol/build';
import { buildCheckpointFrame, CHECKPOINT_CREATED_TYPE, CHECKPOINT_RESTORED_TYPE, CHECKPOINT_RESTORE_TYPE } from '../../../src/protocol/checkpointFrames';
import { EVERY_FEATURE } from '../../../src/protocol/capabilities';
import type { FrameOf, FrameType, PayloadOf } from '../../../src/protocol/frameTypes';
import { parseFrame } from '../../../src/protocol/parse';
import type { WireFrame } from '../../../src/session/connection';
import { generateToken } from '../../../src/remote/auth';
import { http, waitFor } from './harness';
import { isRunning } from '../../support/processes';
import { removeTree } from '../../support/removeTree';

const ROOT = join(__dirname, '..', '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');

interface Child {
  proc: ChildProcess;
  out: string;
  err: string;
  exited: boolean;
}

function spawnServe(args: string[], env: NodeJS.ProcessEnv): Child {
  const proc = spawn(process.execPath, [CLI, 'serve', ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const c: Child = { proc, out: '', err: '', exited: false };
  proc.stdout?.on('data', (d: Buffer) => (c.out += d.toString()));
  proc.stderr?.on('data', (d: Buffer) => (c.err += d.toString()));
  proc.on('exit', () => (c.exited = true));
  return c;
}

/** A plain WebSocket master: announces every feature (§13.1) and keeps every frame it gets. */
class RawMaster {
  readonly frames: WireFrame[] = [];
  readonly invalid: string[] = [];
  private constructor(
    private readonly ws: WebSocket,
    readonly session_id: string,
  ) {}

  static async attach(base: string, session_id: string, token: string, last_message_id?: string): Promise<RawMaster> {
    const q = last_message_id === undefined ? '' : `?last_message_id=${encodeURIComponent(last_message_id)}`;
    const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/v1/sessions/${session_id}/stream${q}`, ['rawp-dps-1.0'], { headers: { authorization: `Bearer ${token}` } });
    const m = new RawMaster(ws, session_id);
    ws.on('message', (data) => {
      const parsed = parseFrame(String(data));
      if (parsed.kind === 'accepted') m.frames.push(parsed.frame);
      else m.invalid.push(String(data).slice(0, 200));
    });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    m.send('session.capabilities', { protocol_version: 'rawp-dps-1.0', supported_namespaces: ['agent', 'tool', 'session', 'control'], features: EVERY_FEATURE });
    return m;
  }

  send<T extends FrameType>(type: T, payload: PayloadOf<T>): FrameOf<T> {
    const f = buildFrame(type, payload, { session_id: this.session_id });
    this.resend(f);
    return f;
  }

  /** A frame exactly as sent before (a retry after a reconnect). */
  resend(frame: { message_id: string; type: string }): void {
    this.ws.send(JSON.stringify(frame));
  }

  find<T extends FrameType>(type: T, where: (f: FrameOf<T>) => boolean = () => true): FrameOf<T> | undefined {
    return this.frames.find((f) => f.type === type && where(f as FrameOf<T>)) as FrameOf<T> | undefined;
  }

  async close(): Promise<void> {
    if (this.ws.readyState === WebSocket.CLOSED) return;
    await new Promise<void>((resolve) => {
      this.ws.once('close', () => resolve());
      this.ws.close(1000);
    });
  }

  get closed(): boolean {
    return this.ws.readyState === WebSocket.CLOSED;
  }
}


describe('remote/killRestart: rawp serve survives kill -9 through its journal (issue 11)', function () {
  this.timeout(180_000);
  let dir: string;
  let workspace: string;
  let stateDir: string;
  let token: string;
  let env: NodeJS.ProcessEnv;
  const children: Child[] = [];
  const masters: RawMaster[] = [];

  before(() => {
    // The test drives the product as users run it: the built CLI.
    execFileSync(process.execPath, ['esbuild.config.mjs'], { cwd: ROOT, stdio: 'ignore' });
  });
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rawp-kill-'));
    workspace = join(dir, 'ws');
    stateDir = join(dir, 'state');
    execFileSync('mkdir', ['-p', workspace]);
    writeFileSync(join(workspace, 'a.txt'), 'hello from a\n');
    writeFileSync(join(workspace, 'b.txt'), 'second file b\n');
    token = generateToken();
    // No default state folder of the user's is ever touched by a test.
    env = { ...process.env, XDG_STATE_HOME: join(dir, 'xdg-state') };
  });
  afterEach(async () => {
    await Promise.all(masters.splice(0).map((m) => m.close()));
    for (const c of children.splice(0)) if (!c.exited) c.proc.kill('SIGKILL');
    removeTree(dir);
  });

  async function serve(): Promise<{ child: Child; url: string; session_id: string }> {
    const child = spawnServe(['--workspace', workspace, '--agent', 'builtin', '--token', token, '--state-dir', stateDir, '--rules-file', join(dir, 'rules.json')], env);
    children.push(child);
    await waitFor(() => child.out.includes('\n') || child.exited, 'the listening line', 60_000);
    assert.ok(child.out.includes('\n'), `rawp serve exited before listening: ${child.err}`);
    const line = JSON.parse(child.out.split('\n')[0]) as { event: string; url: string; session_id: string };
    assert.equal(line.event, 'listening');
    return { child, url: line.url, session_id: line.session_id };
  }

  async function attach(url: string, session_id: string, last?: string): Promise<RawMaster> {
    const m = await RawMaster.attach(url, session_id, token, last);
    masters.push(m);
    return m;
  }

  function journalFile(session_id: string): string {
    const ws = readdirSync(join(stateDir, 'workspaces'));
    assert.equal(ws.length, 1, 'one folder for the one workspace');
    return join(stateDir, 'workspaces', ws[0], 'sessions', `${session_id}.jsonl`);
  }

  it('§7.8.2-1 §7.8.1-3 §13.7: after kill -9 mid-turn and a restart, GET /v1/sessions lists the same session, the interrupted turn is finalized with metadata.synthetic frames, and masters reattaching with their last_message_id get exactly the journaled frames they missed (truncated: false); a torn last line is skipped; a pre-crash prompt retried is not run twice', async () => {
    const first = await serve();
    const { session_id } = first;
    const watcher = await attach(first.url, session_id); // A: stays until the kill
    const leaver = await attach(first.url, session_id); // B: leaves after the first turn
    const driver = await attach(first.url, session_id); // C: sends prompts and answers

    const firstPrompt = driver.send('control.prompt.request', { prompt_text: 'read a.txt' });
    await waitFor(() => leaver.find('session.turn.end') !== undefined && watcher.find('session.turn.end') !== undefined, 'first turn ends');
    await waitFor(() => leaver.find('agent.state.changed', (f) => f.payload.current_state === 'idle' && f.payload.reason !== 'attached' && f.payload.reason !== 'initialized') !== undefined, 'agent idle after the turn');
    await leaver.close();
    const leaverLast = leaver.frames.at(-1)!.message_id;

    // Turn 1: a long command, allowed, left running when the host dies.
    driver.send('control.prompt.request', { prompt_text: 'run `echo $$ > pid.txt; exec sleep 30`' });
    await waitFor(() => driver.find('agent.interaction.request') !== undefined, 'permission question');
    const ask = driver.find('agent.interaction.request')!;
    driver.send('control.interaction.response', { interaction_id: ask.payload.interaction_id, selected_value: 'allow_once' });
    const pidFile = join(workspace, 'pid.txt');
    await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '', 'the command runs', 60_000);
    await waitFor(() => watcher.find('control.interaction.response') !== undefined, 'the answer reached the watcher');
    // And the engine's last frame before the command ran (it is journaled before it is sent: a
    // snapshot taken before it arrived counted it as "after the kill", the CI run of 2026-12-06).
    await waitFor(() => watcher.find('agent.state.changed', (f) => f.payload.reason === 'interaction_answered' && f.payload.current_state === 'tool_calling') !== undefined, 'the watcher saw the tool start');
    const running = watcher.find('tool.invoke.request', (f) => f.payload.tool_name === 'Bash');
    assert.ok(running, 'the watcher saw the tool call start');
    const turn1 = watcher.find('session.turn.start', (f) => f.payload.turn_index === 1);
    assert.ok(turn1);
    assert.equal(watcher.find('session.turn.end', (f) => f.payload.turn_id === turn1.payload.turn_id), undefined, 'the turn is still running');
    const seenBeforeKill = watcher.frames.map((f) => f.message_id);
    const watcherLast = seenBeforeKill.at(-1)!;

    first.child.proc.kill('SIGKILL');
    await waitFor(() => first.child.exited && watcher.closed, 'serve is gone and the sockets closed');
    const sleeper = Number(readFileSync(pidFile, 'utf8').trim());
    if (isRunning(sleeper)) process.kill(sleeper, 'SIGKILL');
    // A crash mid-write leaves a line cut short: it must be skipped, never fatal.
    appendFileSync(journalFile(session_id), '{"seq":99999,"frame":{"v":1,"type":"agent.text.delta","mess');

    const second = await serve();
    assert.match(second.child.err, /ends in a line cut short by a crash/, 'the torn line is reported on stderr, and skipped');
    const listed = JSON.parse((await http(`${second.url}/v1/sessions`, { headers: { authorization: `Bearer ${token}` } })).body) as { sessions: { session_id: string; created_at: string }[] };
    assert.ok(listed.sessions.some((s) => s.session_id === session_id), `the session is listed under the same id: ${JSON.stringify(listed)}`);
    assert.equal(second.session_id, session_id, 'the listening line names the restored session');

    // B missed the whole of turn 1: exactly what the watcher saw after B left, then the closing frames.
    const back = await attach(second.url, session_id, leaverLast);
    await waitFor(() => back.find('session.history') !== undefined, 'session.history for B');
    const history = back.find('session.history')!;
    assert.equal(history.payload.buffer_status.truncated, false);
    assert.equal(history.payload.buffer_status.lost_frame_count, 0);
    const missedIds = seenBeforeKill.slice(seenBeforeKill.indexOf(leaverLast) + 1);
    assert.ok(missedIds.length > 5, 'turn 1 had frames');
    const got = history.payload.frames.map((f) => String(f.message_id));
    assert.deepEqual(got.slice(0, missedIds.length), missedIds, 'exactly the journaled frames B missed, in order');
    const after = history.payload.frames.slice(missedIds.length).map((f) => {
      const p = parseFrame(f);
      assert.equal(p.kind, 'accepted');
      return (p as { frame: WireFrame }).frame;
    });

    // §7.8.1: the interrupted turn is finalized with synthetic frames the restarted host sent.
    const synthetic = after.filter((f) => f.metadata?.synthetic === true);
    const result = synthetic.find((f): f is FrameOf<'tool.invoke.result'> => f.type === 'tool.invoke.result');
    assert.ok(result && result.payload.invocation_id === running.payload.invocation_id && result.payload.status === 'cancelled');
    const end = synthetic.find((f): f is FrameOf<'session.turn.end'> => f.type === 'session.turn.end');
    assert.ok(end && end.payload.turn_id === turn1.payload.turn_id && end.payload.stop_reason === 'error');
    assert.ok(synthetic.some((f) => f.type === 'agent.state.changed' && f.payload.current_state === 'idle'));
    assert.deepEqual(after.slice(0, synthetic.length), synthetic, 'the closing frames come first, before the new engine speaks');

    // A saw everything up to the kill: its reattach gets only what the restart added, nothing twice.
    const a2 = await attach(second.url, session_id, watcherLast);
    await waitFor(() => a2.find('session.history') !== undefined, 'session.history for A');
    const h2 = a2.find('session.history')!;
    assert.equal(h2.payload.buffer_status.truncated, false);
    assert.deepEqual(h2.payload.frames.map((f) => String(f.message_id)), after.map((f) => f.message_id));
    assert.ok(!h2.payload.frames.some((f) => seenBeforeKill.includes(String(f.message_id))));

    // A retry of a prompt from before the crash is known from the journal: dropped, not run again.
    a2.resend(firstPrompt);
    await waitFor(() => a2.find('session.error', (f) => f.parent_id === firstPrompt.message_id) !== undefined, 'the duplicate is refused');
    assert.equal(a2.find('session.error', (f) => f.parent_id === firstPrompt.message_id)?.payload.error_code, 'DUPLICATE_MESSAGE_ID');

    // The restored session works: the next turn goes on counting (§7.5.1).
    a2.send('control.prompt.request', { prompt_text: 'read b.txt' });
    await waitFor(() => a2.find('session.turn.end', (f) => f.metadata?.synthetic !== true) !== undefined, 'a turn after the restart ends', 60_000);
    assert.equal(a2.find('session.turn.start')?.payload.turn_index, 2);
    assert.deepEqual([...watcher.invalid, ...back.invalid, ...a2.invalid], []);
  });

  it('§7.8.2 a turn cut off by kill -9 gets its checkpoint after the restart, and a master rewinds it without conflicts (decision 617)', async () => {
    const first = await serve();
    const { session_id } = first;
    const driver = await attach(first.url, session_id);
    driver.send('control.prompt.request', { prompt_text: "run `printf 'cut off\\n' > made.txt; echo $$ > pid.txt; exec sleep 30`" });
    await waitFor(() => driver.find('agent.interaction.request') !== undefined, 'permission question');
    driver.send('control.interaction.response', { interaction_id: driver.find('agent.interaction.request')!.payload.interaction_id, selected_value: 'allow_once' });
    const pidFile = join(workspace, 'pid.txt');
    await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '', 'the command runs', 60_000);
    const turn = driver.find('session.turn.start')!;
    first.child.proc.kill('SIGKILL');
    await waitFor(() => first.child.exited, 'serve is gone');
    const sleeper = Number(readFileSync(pidFile, 'utf8').trim());
    if (isRunning(sleeper)) process.kill(sleeper, 'SIGKILL');

    const second = await serve();
    const master = await attach(second.url, session_id);
    const all = () => [...master.frames, ...((master.find('session.history')?.payload.frames ?? []) as unknown as WireFrame[])];
    const created = () => all().find((f) => f.type === CHECKPOINT_CREATED_TYPE && (f.payload as { turn_id?: string }).turn_id === turn.payload.turn_id);
    await waitFor(() => created() !== undefined, "the cut-off turn's checkpoint", 60_000);
    const cp = created()!.payload as { checkpoint_id: string; files: { path: string; change: string }[] };
    assert.deepEqual(cp.files.map((f) => `${f.change} ${f.path}`).sort(), ['created made.txt', 'created pid.txt']);
    master.resend(buildCheckpointFrame(CHECKPOINT_RESTORE_TYPE, { checkpoint_id: cp.checkpoint_id }, session_id));
    await waitFor(() => master.frames.some((f) => f.type === CHECKPOINT_RESTORED_TYPE), 'the rewind answer', 60_000);
    const answer = master.frames.find((f) => f.type === CHECKPOINT_RESTORED_TYPE)!.payload as { restored: string[]; conflicts: string[] };
    assert.deepEqual([answer.restored, answer.conflicts], [['made.txt', 'pid.txt'], []], "the turn's own edits, not someone else's");
    assert.equal(existsSync(join(workspace, 'made.txt')), false);
  });

  it('a corrupt line in one session\'s journal gives one clear error line on stderr naming the file and line, the file is kept as .corrupt, and every other frame and session comes back', async () => {
    const first = await serve();
    const other = JSON.parse((await http(`${first.url}/v1/sessions`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ agent: 'builtin', name: 'second' }) })).body) as { session_id: string };
    const m = await attach(first.url, first.session_id);
    m.send('control.prompt.request', { prompt_text: 'read a.txt' });
    await waitFor(() => m.find('session.turn.end') !== undefined, 'a turn ends');
    const sent = m.frames.map((f) => f.message_id);
    first.child.proc.kill('SIGKILL');
    await waitFor(() => first.child.exited, 'serve is gone');

    // Damage one record in the middle of the first session's journal (a bad disk block, a stray edit).
    const file = journalFile(first.session_id);
    const lines = readFileSync(file, 'utf8').split('\n');
    const victim = lines.findIndex((l) => l.includes('"agent.text.delta"') || l.includes('"tool.invoke.result"'));
    assert.ok(victim > 0, 'the journal has a frame to damage');
    const lost = (JSON.parse(lines[victim]) as { frame: { message_id: string } }).frame.message_id;
    lines[victim] = lines[victim].slice(0, 20) + '<<garbage>>';
    writeFileSync(file, lines.join('\n'));

    const second = await serve();
    const errors = second.child.err.split('\n').filter((l) => l.includes('unreadable line'));
    assert.equal(errors.length, 1, second.child.err);
    assert.ok(errors[0].includes(file) && errors[0].includes(`line ${victim + 1}:`), errors[0]);
    assert.ok(existsSync(`${file}.corrupt`));
    const listed = JSON.parse((await http(`${second.url}/v1/sessions`, { headers: { authorization: `Bearer ${token}` } })).body) as { sessions: { session_id: string; name: string }[] };
    assert.deepEqual(listed.sessions.map((s) => s.session_id).sort(), [first.session_id, other.session_id].sort(), 'both sessions are back');

    // Reattach from the turn's start: everything the master got after it comes back but the damaged frame.
    const from = m.find('session.turn.start')!.message_id;
    const back = await attach(second.url, first.session_id, from);
    await waitFor(() => back.find('session.history') !== undefined, 'session.history');
    const ids = back.find('session.history')!.payload.frames.map((f) => String(f.message_id));
    const expected = sent.slice(sent.indexOf(from) + 1).filter((id) => id !== lost);
    assert.ok(sent.slice(sent.indexOf(from) + 1).includes(lost), 'the damaged frame was one the master had');
    assert.deepEqual(ids.slice(0, expected.length), expected);
    // Honest: the damaged record's position is a gap, so the history says a frame is missing.
    assert.equal(back.find('session.history')!.payload.buffer_status.truncated, true, 'a lost frame is reported, never hidden');
    assert.equal(back.find('session.history')!.payload.buffer_status.lost_frame_count, 1);
  });

  it('one rawp serve per workspace and state folder: a second is refused with a clear message and exit code 2 while the first runs; after kill -9 the next start takes the lock over at once', async () => {
    const first = await serve();
    const rival = spawnServe(['--workspace', workspace, '--agent', 'builtin', '--token', token, '--state-dir', stateDir, '--rules-file', join(dir, 'rules.json')], env);
    children.push(rival);
    await waitFor(() => rival.exited, 'the second serve exits', 60_000);
    assert.equal(rival.proc.exitCode, 2);
    assert.match(rival.err, new RegExp(`in use by process ${first.child.proc.pid}`));
    assert.equal(rival.out, '', 'it never listened');
    first.child.proc.kill('SIGKILL');
    await waitFor(() => first.child.exited, 'serve is gone');
    const again = await serve();
    assert.equal(again.session_id, first.session_id);
  });

  it('"allow for this session" survives kill -9: after the restart the same command runs without asking again, and a different one still asks', async () => {
    const first = await serve();
    const m = await attach(first.url, first.session_id);
    m.send('control.prompt.request', { prompt_text: 'run `echo granted-once`' });
    await waitFor(() => m.find('agent.interaction.request') !== undefined, 'permission question');
    const ask = m.find('agent.interaction.request')!;
    assert.ok(ask.payload.options?.some((o) => o.value === 'allow_session'), 'the question offers "for this session"');
    m.send('control.interaction.response', { interaction_id: ask.payload.interaction_id, selected_value: 'allow_session' });
    await waitFor(() => m.find('session.turn.end') !== undefined, 'the turn ends');
    first.child.proc.kill('SIGKILL');
    await waitFor(() => first.child.exited, 'serve is gone');
    // Where it survives: the session's entry in the state folder's index (not an "always" rule).
    const index = JSON.parse(readFileSync(join(journalFile(first.session_id), '..', '..', 'sessions.json'), 'utf8')) as { sessions: { session_id: string; session_rules?: { tool_name: string; command_prefix?: string; decision: string }[] }[] };
    const kept = index.sessions.find((x) => x.session_id === first.session_id)?.session_rules ?? [];
    assert.deepEqual(kept.map((r) => [r.tool_name, r.command_prefix, r.decision]), [['Bash', 'echo granted-once', 'allow']]);
    assert.ok(!existsSync(join(dir, 'rules.json')) || !readFileSync(join(dir, 'rules.json'), 'utf8').includes('granted-once'), 'not saved as an "always" rule');

    const second = await serve();
    assert.equal(second.session_id, first.session_id);
    const again = await attach(second.url, second.session_id);
    const before = again.frames.length;
    again.send('control.prompt.request', { prompt_text: 'run `echo granted-once`' });
    const fresh = () => again.frames.slice(before);
    await waitFor(() => fresh().some((f) => f.type === 'session.turn.end'), 'the turn after the restart ends', 60_000);
    assert.ok(!fresh().some((f) => f.type === 'agent.interaction.request'), 'no second question for what was allowed for this session');
    const result = fresh().find((f): f is FrameOf<'tool.invoke.result'> => f.type === 'tool.invoke.result');
    assert.equal(result?.payload.status, 'success');
    assert.match(JSON.stringify(result?.payload.output), /granted-once/);

    again.send('control.prompt.request', { prompt_text: 'run `echo something-else`' });
    await waitFor(() => fresh().some((f) => f.type === 'agent.interaction.request'), 'a different command still asks');
  });
});
