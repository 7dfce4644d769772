// The session journal on a real temp folder: what a HistoryBuffer records is written through, and
// a new process (a new Journal on the same folder) restores the same positions — so §13.7
// reattach after a restart is exact — despite torn last lines, corrupt lines and a lost index.
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { appendFileSync, chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildFrame, newId } from '../../../src/protocol/build';
import type { WireFrame } from '../../../src/session/connection';
import { HistoryBuffer } from '../../../src/session/history';
import type { Logger } from '../../../src/session/ports';
import { Journal, type RestoredSession } from '../../../src/host/journal/journal';
import type { SessionMeta } from '../../../src/host/journal/format';
import { defaultStateDir, workspaceStateDir } from '../../../src/host/journal/stateDir';
import { KEPT_ALIASES } from '../../../src/host/journal/sessionJournal';
import { frameBytes } from '../../../src/remote/frameBytes';

interface Logged {
  level: string;
  message: string;
}

function recordingLogger(into: Logged[]): Logger {
  const at = (level: string) => (message: string) => void into.push({ level, message });
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

function meta(session_id = newId(), name = 'work'): SessionMeta {
  return { session_id, name, agent: 'builtin', created_at: new Date().toISOString(), origin: 'remote', shared: true };
}

function delta(session_id: string, text: string, turn_id?: string): WireFrame {
  return buildFrame('agent.text.delta', { content_index: 0, text }, { session_id, ...(turn_id ? { turn_id } : {}) });
}

describe('host/journal: session journals that survive a restart', () => {
  let dir: string;
  let logs: Logged[];
  let journals: Journal[];
  let crashed: Journal[];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rawp-journal-'));
    logs = [];
    journals = [];
    crashed = [];
  });
  afterEach(() => {
    for (const j of [...journals, ...crashed]) j.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function openJournal(budgetBytes?: number): Journal {
    const j = Journal.open({ dir, logger: recordingLogger(logs), ...(budgetBytes ? { budgetBytes } : {}) });
    journals.push(j);
    return j;
  }

  /** A live session: a history buffer whose sink is its journal. */
  function liveSession(j: Journal, m: SessionMeta = meta(), restored?: RestoredSession): HistoryBuffer<WireFrame> {
    const h = new HistoryBuffer<WireFrame>({ policy: 'RING', maxBytes: 1024 * 1024 });
    if (restored) h.restore(restored.records);
    h.setSink(j.open(m, restored));
    return h;
  }

  /** Simulates the process dying: nothing is closed or flushed, the lock is left behind. */
  function crash(): void {
    crashed.push(...journals.splice(0)); // closed only after the test, as the OS would on exit
  }

  function restoreOnly(): RestoredSession[] {
    return openJournal().restore();
  }

  it('§13.7: after a crash, a restored history gives a peer exactly the frames after its last_message_id (truncated: false), aliases included', () => {
    const j = openJournal();
    const m = meta();
    const h = liveSession(j, m);
    const sent = Array.from({ length: 20 }, (_, i) => delta(m.session_id, `part ${i}`));
    for (const f of sent.slice(0, 12)) h.append(f);
    const handshake = newId(); // a per-connection frame, e.g. the attach's agent.state.changed
    h.alias(handshake);
    for (const f of sent.slice(12)) h.append(f);
    crash();

    const [r] = restoreOnly();
    assert.equal(r.meta.session_id, m.session_id);
    assert.deepEqual(r.frames.map((f) => f.message_id), sent.map((f) => f.message_id));
    assert.equal(r.torn, false);
    const again = new HistoryBuffer<WireFrame>();
    again.restore(r.records);
    const fromFrame = again.since(sent[4].message_id);
    assert.deepEqual(fromFrame.frames.map((f) => f.message_id), sent.slice(5).map((f) => f.message_id));
    assert.equal(fromFrame.buffer_status.truncated, false);
    assert.equal(fromFrame.buffer_status.lost_frame_count, 0);
    const fromAlias = again.since(handshake);
    assert.deepEqual(fromAlias.frames.map((f) => f.message_id), sent.slice(12).map((f) => f.message_id));
    assert.equal(fromAlias.buffer_status.truncated, false);
    // Frames come back typed and equal to what was sent.
    assert.deepEqual(r.frames[3], sent[3]);
  });

  it('each frame is one line, exactly JSON.stringify({ seq, frame }), in any script; its bytes are encoded once, for the journal and the sockets alike (decision 575)', () => {
    const j = openJournal();
    const m = meta();
    const h = liveSession(j, m);
    const texts = ['plain', '한국어 답변입니다', 'emoji 🧪 and \u2028 line separator', 'quotes " and \\ backslash\n', 'x'.repeat(70_000)];
    const sent = texts.map((t) => delta(m.session_id, t));
    for (const f of sent) {
      h.append(f);
      // The journal encoded it while recording it; the fan-out that follows gets the same Buffer.
      const bytes = frameBytes(f);
      assert.equal(frameBytes(f), bytes, 'not encoded again');
      assert.equal(bytes.toString('utf8'), JSON.stringify(f));
    }
    h.alias(newId());
    crash();
    const lines = readFileSync(join(dir, 'sessions', `${m.session_id}.jsonl`), 'utf8').split('\n');
    // The header, a line per frame, the alias, and the final newline.
    assert.equal(lines.length, 1 + sent.length + 1 + 1);
    sent.forEach((f, seq) => assert.equal(lines[1 + seq], JSON.stringify({ seq, frame: f })));
    assert.equal(lines.at(-1), '');
    const [r] = restoreOnly();
    assert.deepEqual(r.frames, sent);
  });

  it('a torn last line (crash mid-write) is skipped, never fatal, and appending resumes on a line of its own', () => {
    const j = openJournal();
    const m = meta();
    const h = liveSession(j, m);
    const sent = [delta(m.session_id, 'one'), delta(m.session_id, 'two')];
    for (const f of sent) h.append(f);
    crash();
    const file = join(dir, 'sessions', `${m.session_id}.jsonl`);
    appendFileSync(file, '{"seq":2,"frame":{"v":1,"type":"agent.text.de');

    const j2 = openJournal();
    const [r] = j2.restore();
    assert.equal(r.torn, true);
    assert.deepEqual(r.frames.map((f) => f.message_id), sent.map((f) => f.message_id));
    assert.ok(logs.some((l) => l.level === 'warn' && /cut short by a crash/.test(l.message)), JSON.stringify(logs));
    const h2 = liveSession(j2, r.meta, r);
    const next = delta(m.session_id, 'three');
    h2.append(next);
    crash();
    const [r2] = restoreOnly();
    assert.equal(r2.torn, false);
    assert.equal(r2.corruptLines, 0);
    assert.deepEqual(r2.frames.map((f) => f.message_id), [...sent, next].map((f) => f.message_id));
    assert.equal(new HistoryBuffer<WireFrame>().position, -1);
    const hb = new HistoryBuffer<WireFrame>();
    hb.restore(r2.records);
    assert.equal(hb.position, 2, 'the torn record never took a position');
  });

  it('a corrupt line in the middle gives a clear error naming the line, keeps a .corrupt copy, and loses nothing else (other sessions included)', () => {
    const j = openJournal();
    const a = meta();
    const b = meta();
    const ha = liveSession(j, a);
    const hb = liveSession(j, b);
    const framesA = [delta(a.session_id, 'a1'), delta(a.session_id, 'a2'), delta(a.session_id, 'a3')];
    const framesB = [delta(b.session_id, 'b1')];
    for (const f of framesA) ha.append(f);
    for (const f of framesB) hb.append(f);
    crash();
    const file = join(dir, 'sessions', `${a.session_id}.jsonl`);
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.splice(2, 0, '{"seq":1,"frame":{"this is":"not a frame"}}', 'garbage {{{');
    writeFileSync(file, lines.join('\n'));

    const restored = restoreOnly();
    const ra = restored.find((r) => r.meta.session_id === a.session_id);
    const rb = restored.find((r) => r.meta.session_id === b.session_id);
    assert.ok(ra && rb);
    assert.deepEqual(ra.frames.map((f) => f.message_id), framesA.map((f) => f.message_id));
    assert.equal(ra.corruptLines, 2);
    assert.deepEqual(rb.frames.map((f) => f.message_id), framesB.map((f) => f.message_id));
    const err = logs.find((l) => l.level === 'error' && l.message.includes(file));
    assert.ok(err, JSON.stringify(logs));
    assert.match(err.message, /2 unreadable line\(s\).*line 3: .*line 4: not JSON/);
    assert.ok(existsSync(`${file}.corrupt`));
    assert.equal(readFileSync(`${file}.corrupt`, 'utf8'), lines.join('\n'));
  });

  it('a journal is private (0600) when it is written, when it is compacted, and when an older one (0644) is resumed — as docs/security.md says (the CLI trial of 2026-12-06 found 0644)', () => {
    const mode = (file: string) => statSync(file).mode & 0o777;
    const j = openJournal(16 * 1024);
    const m = meta();
    const h = liveSession(j, m);
    const file = join(dir, 'sessions', `${m.session_id}.jsonl`);
    h.append(delta(m.session_id, 'one'));
    assert.equal(mode(file), 0o600, 'a new journal');
    for (let i = 0; i < 300; i++) h.append(delta(m.session_id, `chunk ${i} ${'x'.repeat(100)}`));
    assert.ok((JSON.parse(readFileSync(file, 'utf8').split('\n')[0]) as { compacted?: unknown }).compacted, 'it was compacted');
    assert.equal(mode(file), 0o600, 'a compacted journal');
    crash();
    chmodSync(file, 0o644);
    const j2 = openJournal();
    const [r] = j2.restore();
    liveSession(j2, r.meta, r);
    assert.equal(mode(file), 0o600, 'an older journal, resumed');
  });

  it('§7.1.1 budget: the file never grows past its byte budget, and a reattach from before what it dropped is honestly truncated (every frame not kept counts as lost)', () => {
    const budget = 64 * 1024;
    const j = openJournal(budget);
    const m = meta();
    const h = liveSession(j, m);
    const file = join(dir, 'sessions', `${m.session_id}.jsonl`);
    const sent: WireFrame[] = [];
    let largest = 0;
    for (let i = 0; i < 1500; i++) {
      const f = delta(m.session_id, `chunk ${i} ${'x'.repeat(100)}`);
      sent.push(f);
      h.append(f);
      largest = Math.max(largest, statSync(file).size);
    }
    assert.ok(largest <= budget, `largest ${largest} > budget ${budget}`);
    crash();

    const [r] = restoreOnly();
    assert.ok(r.frames.length > 100 && r.frames.length < sent.length, `kept ${r.frames.length}`);
    const keptIds = r.frames.map((f) => f.message_id);
    assert.deepEqual(keptIds, sent.slice(sent.length - keptIds.length).map((f) => f.message_id), 'the newest frames, in order, without a gap');
    const hb = new HistoryBuffer<WireFrame>();
    hb.restore(r.records);
    const old = hb.since(sent[10].message_id);
    assert.equal(old.buffer_status.truncated, true);
    // Its id went with the dropped records, so every frame not kept counts as lost (an upper bound).
    assert.equal(old.buffer_status.lost_frame_count, sent.length - keptIds.length);
    assert.deepEqual(old.frames.map((f) => f.message_id), keptIds);
    const recent = hb.since(sent[sent.length - 5].message_id);
    assert.equal(recent.buffer_status.truncated, false);
    assert.equal(recent.frames.length, 4);
    const header = JSON.parse(readFileSync(file, 'utf8').split('\n')[0]) as { compacted?: { dropped_records: number } };
    assert.ok((header.compacted?.dropped_records ?? 0) > 0, 'the header says records were dropped');
  });

  it('a flood of aliases (refused frames, reconnect storms) never pushes real frames out of the journal: compaction keeps every frame that fits and only the newest aliases', () => {
    const budget = 64 * 1024;
    const j = openJournal(budget);
    const m = meta();
    const h = liveSession(j, m);
    const file = join(dir, 'sessions', `${m.session_id}.jsonl`);
    const sent = Array.from({ length: 50 }, (_, i) => delta(m.session_id, `real ${i}`));
    for (const f of sent) h.append(f);
    let largest = 0;
    for (let i = 0; i < 5000; i++) {
      h.alias(newId());
      largest = Math.max(largest, statSync(file).size);
    }
    assert.ok(largest <= budget, `largest ${largest} > budget ${budget}`);
    crash();
    const [r] = restoreOnly();
    assert.deepEqual(r.frames.map((f) => f.message_id), sent.map((f) => f.message_id), 'every frame is still there');
    const aliases = r.records.filter((x) => 'alias' in x).length;
    // What compaction kept (≤ a quarter of the budget) plus what came after the last compaction.
    assert.ok(aliases > 0 && aliases <= KEPT_ALIASES + budget / 60, `aliases kept: ${aliases}`);
    const hb = new HistoryBuffer<WireFrame>();
    hb.restore(r.records);
    assert.equal(hb.since(sent[0].message_id).buffer_status.truncated, false, 'no frame was lost');
  });

  it('a journal far larger than any budget allows is not loaded into memory: a clear error, the file kept aside, the other sessions restored', () => {
    const j = openJournal(64 * 1024);
    const big = meta();
    const small = meta();
    liveSession(j, big).append(delta(big.session_id, 'x'));
    liveSession(j, small).append(delta(small.session_id, 'y'));
    crash();
    const file = join(dir, 'sessions', `${big.session_id}.jsonl`);
    appendFileSync(file, Buffer.alloc(65 * 1024 * 1024, 0x20));
    const restored = Journal.open({ dir, logger: recordingLogger(logs), budgetBytes: 64 * 1024 });
    journals.push(restored);
    assert.deepEqual(restored.restore().map((r) => r.meta.session_id), [small.session_id]);
    assert.ok(logs.some((l) => l.level === 'error' && l.message.includes(file) && /not restored, kept aside/.test(l.message)));
    assert.ok(existsSync(`${file}.oversized`));
  });

  it('renames and sharing are kept in the index; a lost index is rebuilt from the journal headers', () => {
    const j = openJournal();
    const m = meta(newId(), 'first name');
    liveSession(j, m).append(delta(m.session_id, 'hi'));
    j.update(m.session_id, { name: 'second name', shared: false });
    crash();
    let [r] = restoreOnly();
    assert.equal(r.meta.name, 'second name');
    assert.equal(r.meta.shared, false);
    journals.pop()?.close();

    writeFileSync(join(dir, 'sessions.json'), '{ this is not json');
    [r] = restoreOnly();
    assert.equal(r.meta.session_id, m.session_id);
    assert.equal(r.frames.length, 1);
    assert.ok(logs.some((l) => l.level === 'error' && /session index .* is unreadable/.test(l.message)));
    assert.ok(existsSync(join(dir, 'sessions.json.corrupt')));
    assert.ok(JSON.parse(readFileSync(join(dir, 'sessions.json'), 'utf8')).sessions.length === 1, 'the index is written again');
  });

  it('§7.7: a deleted session leaves no journal and is not restored', () => {
    const j = openJournal();
    const keep = meta();
    const gone = meta();
    liveSession(j, keep).append(delta(keep.session_id, 'stay'));
    liveSession(j, gone).append(delta(gone.session_id, 'go'));
    j.remove(gone.session_id);
    j.close();
    assert.deepEqual(readdirSync(join(dir, 'sessions')), [`${keep.session_id}.jsonl`]);
    assert.deepEqual(restoreOnly().map((r) => r.meta.session_id), [keep.session_id]);
  });

  it('one host per folder: a lock held by a live process is refused with a clear error; one left by a dead process (kill -9) is taken over', async () => {
    const sleeper = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      writeFileSync(join(dir, 'lock'), `${sleeper.pid}\n`);
      assert.throws(() => Journal.open({ dir, logger: recordingLogger(logs) }), new RegExp(`in use by process ${sleeper.pid}`));
    } finally {
      sleeper.kill('SIGKILL');
    }
    await new Promise<void>((resolve) => (sleeper.exitCode !== null || sleeper.signalCode !== null ? resolve() : sleeper.once('exit', () => resolve())));
    const j = openJournal();
    assert.equal(readFileSync(join(dir, 'lock'), 'utf8').trim(), String(process.pid));
    j.close();
    assert.ok(!existsSync(join(dir, 'lock')), 'released on close');
  });

  it('the default state folder follows XDG_STATE_HOME, then ~/.local/state; each workspace gets its own folder', () => {
    assert.equal(defaultStateDir({ XDG_STATE_HOME: '/x/state' }, 'linux', '/home/u'), '/x/state/rawp');
    assert.equal(defaultStateDir({ XDG_STATE_HOME: 'relative' }, 'linux', '/home/u'), '/home/u/.local/state/rawp');
    assert.equal(defaultStateDir({}, 'darwin', '/Users/u'), '/Users/u/.local/state/rawp');
    const a = workspaceStateDir('/s', '/work/project');
    assert.match(a, /^\/s\/workspaces\/project-[0-9a-f]{12}$/);
    assert.notEqual(a, workspaceStateDir('/s', '/other/project'));
    assert.equal(a, workspaceStateDir('/s', '/work/project/'));
  });
});
