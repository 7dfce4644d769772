// Decision 718: Codex's session log is read as it grows. Each poll reads only the bytes appended
// since the last one (at most a few MiB), hands on each complete line once, keeps an unfinished
// last line (and a UTF-8 character split across appends) until its newline comes, reads a log that
// shrank, was replaced or was rewritten from its start, and skips a line over its bound with one
// warning. The tail on real files, its reads counted.
import { strict as assert } from 'node:assert';
import { appendFileSync, mkdirSync, mkdtempSync, renameSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openLogFile, SESSION_LOG_CHECK_BYTES, SessionLogTail, type LogFile, type OpenLogFile, type SessionLogTailOptions } from '../../../src/agents/codex/sessionLog';

/** The opener the tail uses, with every byte it reads counted. */
function countingOpen(): { open: OpenLogFile; read: { bytes: number; calls: number } } {
  const read = { bytes: 0, calls: 0 };
  const open: OpenLogFile = async (root, p) => {
    const f = await openLogFile(root, p);
    const counted: LogFile = {
      stat: () => f.stat(),
      read: async (buffer, offset, length, position) => {
        const r = await f.read(buffer, offset, length, position);
        read.bytes += r.bytesRead;
        read.calls++;
        return r;
      },
      close: () => f.close(),
    };
    return counted;
  };
  return { open, read };
}

describe('agents/codex: the session log read as it grows (decision 718)', () => {
  let dir: string;
  let root: string;
  let log: string;
  let lines: string[];
  let skips: string[];
  let restarts: number;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rawp-codex-log-'));
    root = join(dir, 'sessions');
    mkdirSync(join(root, '2026', '12', '07'), { recursive: true });
    log = join(root, '2026', '12', '07', 'rollout-2026-12-07T00-00-00-thread-1.jsonl');
    lines = [];
    skips = [];
    restarts = 0;
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function tail(opts: Partial<SessionLogTailOptions> = {}): SessionLogTail {
    return new SessionLogTail({ root, path: log, mark: 'FileChange"', onLine: (l) => lines.push(l), onSkip: (m) => skips.push(m), onRestart: () => restarts++, ...opts });
  }

  /** Polls until the tail says nothing more is waiting. */
  async function drain(t: SessionLogTail): Promise<void> {
    for (let n = 0; (await t.poll()) && n < 100_000; n++);
  }

  const marked = (text: string) => `{"item":{"type":"FileChange","text":${JSON.stringify(text)}}}`;

  it('appended lines come once each, in order, whatever the appends and polls cut: lines split across appends, multi-byte characters split across appends and across polls', async () => {
    const want = Array.from({ length: 60 }, (_, i) => marked(`line ${i}: café ✓ 😀 ${'ü'.repeat(i % 7)}`));
    const bytes = Buffer.from(want.map((l) => l + '\n').join(''), 'utf8');
    writeFileSync(log, '');
    // Reads of 5 bytes cut nearly every character of more than one byte somewhere.
    const t = tail({ pollBytes: 5 });
    let at = 0;
    for (let n = 1; at < bytes.length; n++) {
      const next = Math.min(bytes.length, at + ((n * 37) % 113) + 1);
      appendFileSync(log, bytes.subarray(at, next));
      at = next;
      await t.poll();
      if (n % 3 === 0) await drain(t);
    }
    await drain(t);
    await drain(t);
    assert.deepEqual(lines, want);
    assert.equal(t.offset, bytes.length);
    assert.deepEqual(skips, []);
  });

  it('a line and a character split across two appends: nothing before its newline, then the line whole', async () => {
    writeFileSync(log, '');
    const t = tail();
    const whole = Buffer.from(marked('naïve café') + '\n', 'utf8');
    const cut = whole.indexOf(Buffer.from('é', 'utf8')) + 1; // between the two bytes of é
    appendFileSync(log, whole.subarray(0, cut));
    assert.equal(await t.poll(), false);
    assert.deepEqual(lines, []);
    appendFileSync(log, whole.subarray(cut));
    await t.poll();
    assert.deepEqual(lines, [marked('naïve café')]);
    await t.poll();
    assert.deepEqual(lines, [marked('naïve café')], 'not handed on twice');
  });

  it('only lines with the mark are decoded and handed on; an empty log, a missing log and a poll with nothing new hand on nothing', async () => {
    const t = tail();
    assert.equal(await t.poll(), false, 'no log yet: nothing, no throw');
    writeFileSync(log, '');
    assert.equal(await t.poll(), false);
    appendFileSync(log, '{"type":"token_count"}\n' + marked('a') + '\n{"type":"message"}\n');
    await t.poll();
    assert.deepEqual(lines, [marked('a')]);
  });

  it('a poll reads only the bytes appended since the last one (and the few before them it checks), and a poll with nothing new reads nothing', async () => {
    const filler = '{"type":"response_item","payload":{"text":"' + 'x'.repeat(1000) + '"}}\n';
    writeFileSync(log, filler.repeat(1000) + marked('first') + '\n');
    const { open, read } = countingOpen();
    const t = tail({ open });
    await drain(t);
    const size = filler.length * 1000 + marked('first').length + 1;
    assert.equal(read.bytes, size, 'the first poll reads the log once');
    assert.equal(t.offset, size);
    let total = size;
    for (let i = 0; i < 20; i++) {
      const before = read.bytes;
      const more = filler.repeat(3) + marked(`appended ${i}`) + '\n';
      appendFileSync(log, more);
      total += more.length;
      await drain(t);
      assert.equal(read.bytes - before, more.length + SESSION_LOG_CHECK_BYTES, `poll ${i} read the appended bytes only`);
      assert.equal(t.offset, total);
      const idle = read.bytes;
      assert.equal(await t.poll(), false);
      assert.equal(read.bytes, idle, 'nothing appended: nothing read');
    }
    assert.deepEqual(lines, [marked('first'), ...Array.from({ length: 20 }, (_, i) => marked(`appended ${i}`))]);
  });

  it('a backlog is read a slice at a time: each poll at most pollBytes, `true` while more is waiting', async () => {
    writeFileSync(log, (marked('y'.repeat(90)) + '\n').repeat(100));
    const { open, read } = countingOpen();
    const t = tail({ open, pollBytes: 1000 });
    let polls = 0;
    let last = 0;
    while (await t.poll()) {
      polls++;
      assert.ok(read.bytes - last <= 1000 + SESSION_LOG_CHECK_BYTES, `poll ${polls} read ${read.bytes - last} bytes`);
      last = read.bytes;
    }
    assert.ok(polls >= 10, `${polls} polls`);
    assert.equal(lines.length, 100);
  });

  it('a log that shrank is read again from its start', async () => {
    writeFileSync(log, marked('one') + '\n' + marked('two') + '\n');
    const t = tail();
    await drain(t);
    truncateSync(log, 0);
    appendFileSync(log, marked('3') + '\n');
    await drain(t);
    assert.deepEqual(lines, [marked('one'), marked('two'), marked('3')]);
    assert.equal(restarts, 1);
    assert.equal(t.offset, marked('3').length + 1);
  });

  it('a log replaced by another file (another inode), longer than the offset, is read from its start', async () => {
    writeFileSync(log, marked('old') + '\n');
    const t = tail();
    await drain(t);
    const fresh = join(dir, 'fresh.jsonl');
    writeFileSync(fresh, marked('new one') + '\n' + marked('new two') + '\n' + marked('new three') + '\n');
    renameSync(fresh, log);
    await drain(t);
    assert.deepEqual(lines, [marked('old'), marked('new one'), marked('new two'), marked('new three')]);
    assert.equal(restarts, 1);
  });

  it('a log rewritten in place (same file, other bytes before the offset) is read from its start', async () => {
    writeFileSync(log, marked('aaaa') + '\n');
    const t = tail();
    await drain(t);
    writeFileSync(log, marked('bbbb') + '\n' + marked('cccc') + '\n'); // same inode, grown, first line changed
    await drain(t);
    assert.deepEqual(lines, [marked('aaaa'), marked('bbbb'), marked('cccc')]);
    assert.equal(restarts, 1);
  });

  it('a restart drops an unfinished line: its start is never joined to another file\'s bytes', async () => {
    writeFileSync(log, marked('whole') + '\n{"item":{"type":"FileChange","text":"cut');
    const t = tail();
    await drain(t);
    writeFileSync(join(dir, 'x'), marked('fresh') + '\n');
    renameSync(join(dir, 'x'), log);
    await drain(t);
    assert.deepEqual(lines, [marked('whole'), marked('fresh')]);
  });

  it('a line over the bound is skipped with one warning, never handed on, whether it came in one read or many; the lines after it arrive', async () => {
    const long = marked('z'.repeat(500));
    writeFileSync(log, marked('before') + '\n' + long + '\n' + marked('between') + '\n');
    const t = tail({ maxLineBytes: 200, pollBytes: 64 });
    await drain(t);
    appendFileSync(log, long.slice(0, 300));
    await drain(t);
    appendFileSync(log, long.slice(300) + '\n' + marked('after') + '\n');
    await drain(t);
    assert.deepEqual(lines, [marked('before'), marked('between'), marked('after')]);
    assert.equal(skips.length, 2, skips.join('\n'));
    const start = marked('before').length + 1;
    assert.match(skips[0], new RegExp(`^Codex's session log rollout-2026-12-07T00-00-00-thread-1\\.jsonl has a line longer than 200 bytes \\(from byte ${start}\\); it was skipped unread`));
    // The same with the whole log in one read.
    lines = [];
    skips = [];
    const one = tail({ maxLineBytes: 200 });
    await drain(one);
    assert.deepEqual(lines, [marked('before'), marked('between'), marked('after')]);
    assert.equal(skips.length, 2);
  });

  it('a line exactly at the bound is kept', async () => {
    const line = marked('q'.repeat(100));
    writeFileSync(log, line + '\n');
    const t = tail({ maxLineBytes: Buffer.byteLength(line), pollBytes: 16 });
    await drain(t);
    assert.deepEqual(lines, [line]);
    assert.deepEqual(skips, []);
  });

  it('polls asked for at once share one read: no line twice', async () => {
    writeFileSync(log, (marked('p') + '\n').repeat(50));
    const { open, read } = countingOpen();
    const t = tail({ open });
    await Promise.all([t.poll(), t.poll(), t.poll()]);
    await drain(t);
    assert.equal(lines.length, 50);
    assert.equal(read.bytes, (marked('p').length + 1) * 50);
  });
});
