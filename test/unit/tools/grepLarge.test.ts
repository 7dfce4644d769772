// Decision 577: Grep searches big files (up to GREP_MAX_FILE_BYTES, in pieces), names every file it
// did not search, and says the true count whenever its lines are not all the matches. Before, a
// file over 2,000,000 bytes was skipped in silence ("no matches" with matches on disk), a cut
// result's lines were taken for its count, and a binary or unreadable file simply did not appear.
// Real files on a temp workspace, the real search worker.
import { strict as assert } from 'node:assert';
import { closeSync, constants, openSync, promises as fsp, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { basename } from 'node:path';
import { makeEnv, type Env } from './_env';
import { GREP_MAX_FILE_BYTES, PIECE_CHARS, pieceEnd, searchFileText, type AskPiece } from '../../../src/tools/grepFile';
import { grepTally, tallyLine, Unsearched } from '../../../src/tools/grepReport';
import { compileLinear } from '../../../src/tools/search/linearRegex';
import { grepPiece, wholeTextOnly } from '../../../src/tools/search/grepPiece';
import type { SearchQuery } from '../../../src/tools/search/searchProtocol';
import { decodeUtf8 } from '../../../src/workspace/bytesInTurns';

const LOG_LINE = 'some ordinary log line with words and numbers 12345\n'; // 52 characters

/** A file of `lines` log lines; the lines named in `hits` (1-based) read `ERROR at <n>`. */
function writeLog(path: string, lines: number, hits: readonly number[], lastNewline = true): void {
  const fd = openSync(path, 'w');
  try {
    const hit = new Set(hits);
    let batch = '';
    for (let n = 1; n <= lines; n++) {
      batch += hit.has(n) ? `ERROR at ${n}\n` : LOG_LINE;
      if (batch.length > 1 << 20) {
        writeSync(fd, batch);
        batch = '';
      }
    }
    writeSync(fd, lastNewline ? batch : batch.replace(/\n$/, ''));
  } finally {
    closeSync(fd);
  }
}

describe('tools: Grep over big files, with every skip said and the true count (decision 577)', function () {
  this.timeout(60_000);
  let env: Env;
  beforeEach(() => {
    env = makeEnv();
  });
  afterEach(() => env.cleanup());

  it('a folder\'s files are each read once (their sizes come from the backend\'s times; a stat read and hashed each whole file first), with the same answer', async () => {
    for (let i = 0; i < 30; i++) writeFileSync(env.p(`f${i}.txt`), `line\n${i % 3 === 0 ? 'needle' : 'hay'} ${i}\n`);
    const opened = new Map<string, number>();
    const open = fsp.open;
    const readFile = fsp.readFile;
    const note = (path: unknown) => opened.set(basename(String(path)), (opened.get(basename(String(path))) ?? 0) + 1);
    fsp.open = ((path: string, flags?: number | string, mode?: number) => {
      if (typeof flags !== 'number' || (flags & constants.O_DIRECTORY) === 0) note(path);
      return open(path, flags, mode);
    }) as typeof fsp.open;
    fsp.readFile = ((...args: Parameters<typeof fsp.readFile>) => {
      note(args[0]);
      return readFile(...args);
    }) as typeof fsp.readFile;
    let r;
    try {
      r = await env.call('Grep', { pattern: 'needle', output_mode: 'count' });
    } finally {
      fsp.open = open;
      fsp.readFile = readFile;
    }
    assert.equal(String(r.output).split('\n').length, 10, String(r.output));
    for (let i = 0; i < 30; i++) assert.equal(opened.get(`f${i}.txt`), 1, `f${i}.txt opened ${opened.get(`f${i}.txt`)} times`);
  });

  it('a 2.2 MB file is searched: its files, count and content answers all find the matches', async () => {
    writeFileSync(env.p('big.log'), 'ERROR here\n'.repeat(200_000));
    const files = await env.call('Grep', { pattern: 'ERROR' });
    assert.deepEqual(files.output, ['big.log']);
    const count = await env.call('Grep', { pattern: 'ERROR', output_mode: 'count' });
    assert.equal(count.output, 'big.log:200000');
    const content = await env.call('Grep', { pattern: 'ERROR', output_mode: 'content', '-n': true });
    const lines = String(content.output).split('\n');
    assert.equal(lines[0], 'big.log:1:ERROR here');
    assert.equal(lines.pop(), `(200000 matching lines in 1 file; ${lines.length} shown, the output is cut at 30000 characters)`);
    assert.equal(content.truncated, true);
  });

  it('a 30 MB file: matches at its start, on piece edges and on its last line (no final newline) are found, with their line numbers', async () => {
    const lines = 600_000; // 31.2 MB
    const perPiece = Math.floor(PIECE_CHARS / LOG_LINE.length);
    const hits = [1, perPiece, perPiece + 1, 5 * perPiece + 1, 300_000, lines];
    writeLog(env.p('big.log'), lines, hits, false);
    const r = await env.call('Grep', { pattern: 'ERROR at \\d+$', output_mode: 'content', '-n': true });
    assert.equal(r.status, 'success', String(r.output));
    assert.deepEqual(String(r.output).split('\n'), hits.map((n) => `big.log:${n}:ERROR at ${n}`));
    const count = await env.call('Grep', { pattern: 'ERROR', output_mode: 'count' });
    assert.equal(count.output, `big.log:${hits.length}`);
    // A pattern that spans lines gets the whole text (as bytes moved to the worker), not pieces.
    const spanning = await env.call('Grep', { pattern: 'at 300000\\nsome', output_mode: 'content', '-n': true });
    assert.equal(spanning.output, 'big.log:300000:ERROR at 300000');
  });

  it('a file over GREP_MAX_FILE_BYTES is named as not searched, in every mode, next to what was found', async () => {
    writeFileSync(env.p('huge.log'), '');
    truncateSync(env.p('huge.log'), GREP_MAX_FILE_BYTES + 1); // sparse: instant, and never read
    writeFileSync(env.p('small.txt'), 'ERROR\n');
    const note = '(not searched, over the 32.0 MB Grep reads: huge.log (32.0 MB) — search such a file with Bash, e.g. `grep -n PATTERN huge.log`)';
    const files = await env.call('Grep', { pattern: 'ERROR' });
    assert.equal(files.output_type, 'text');
    assert.equal(files.output, ['small.txt', '(1 matching file; 1 file not searched)', note].join('\n'));
    const content = await env.call('Grep', { pattern: 'ERROR', output_mode: 'content', '-n': true });
    assert.equal(content.output, ['small.txt:1:ERROR', '(1 matching line in 1 file; 1 file not searched)', note].join('\n'));
    const none = await env.call('Grep', { pattern: 'nothing', output_mode: 'content' });
    assert.equal(none.output, ['(no matching lines; 1 file not searched)', note].join('\n'));
    assert.deepEqual(grepTally(String(none.output)), { matches: 0, atLeast: false, notSearched: 1 });
  });

  it('the true count when the output is cut: 1,740 matching lines in 100 KB, not the lines left after the cut', async () => {
    const text = Array.from({ length: 2000 }, (_, i) => (i < 1740 ? `line ${i} TODO: ${'x'.repeat(40)}` : `line ${i} plain`)).join('\n');
    writeFileSync(env.p('h.txt'), text);
    const r = await env.call('Grep', { pattern: 'TODO', output_mode: 'content', '-n': true });
    const out = String(r.output);
    assert.equal(r.truncated, true);
    assert.ok(out.length < 30_000 + 200, `${out.length} characters`);
    assert.match(out, /\n\(1740 matching lines in 1 file; \d+ shown, the output is cut at 30000 characters\)$/);
    assert.deepEqual(grepTally(out), { matches: 1740, atLeast: false, notSearched: 0 });
    const limited = await env.call('Grep', { pattern: 'TODO', output_mode: 'content', head_limit: 3 });
    assert.deepEqual(grepTally(String(limited.output)), { matches: 1740, atLeast: true, notSearched: 0 }, 'the file is counted to the end of its piece, so "at least"');
  });

  it('a binary file that matches says so (it was left out in silence), and a name with a line break stays one line', async () => {
    writeFileSync(env.p('data.bin'), Buffer.from('ERROR\u0000\u0001\nERROR\n'));
    writeFileSync(env.p('a\nb.txt'), 'ERROR\n');
    const r = await env.call('Grep', { pattern: 'ERROR', output_mode: 'content', '-n': true });
    assert.equal(r.output, ['"a\\nb.txt":1:ERROR', 'data.bin: binary file matches (2 lines, not shown)', '(3 matching lines in 2 files; 1 shown)'].join('\n'));
    const files = await env.call('Grep', { pattern: 'ERROR' });
    assert.deepEqual(files.output, ['a\nb.txt', 'data.bin']);
  });

  it('a file whose name is not UTF-8 is named as not searched (the backend cannot open it by that name)', async function () {
    try {
      writeFileSync(Buffer.from(`${env.dir}/n\xff.txt`, 'latin1'), 'ERROR\n');
    } catch {
      this.skip(); // a file system that refuses such names (APFS) cannot have the problem
    }
    const r = await env.call('Grep', { pattern: 'ERROR', output_mode: 'content' });
    assert.equal(r.output, ['(no matching lines; 1 file not searched)', '(not searched, could not be read: n\uFFFD.txt (its name is not valid UTF-8, so it cannot be opened by name))'].join('\n'));
  });

  it('CRLF lines across pieces: `$` matches before the CR, and the lines are shown without it', async () => {
    const line = 'a line with an end\r\n';
    const n = Math.ceil((2 * PIECE_CHARS) / line.length) + 10;
    writeFileSync(env.p('crlf.txt'), line.repeat(n - 1) + 'the END\r\n');
    const r = await env.call('Grep', { pattern: '(?i)end$', output_mode: 'content', '-n': true, head_limit: 1 });
    assert.equal(String(r.output).split('\n')[0], 'crlf.txt:1:a line with an end');
    const last = await env.call('Grep', { pattern: 'END$', output_mode: 'content', '-n': true });
    assert.equal(last.output, `crlf.txt:${n}:the END`);
  });
});

describe('Grep pieces (decision 577)', () => {
  const recording = (re: ReturnType<typeof compileLinear>) => {
    const sent: { chars: number; bytes: boolean }[] = [];
    const ask: AskPiece = async (q) => {
      const req = (typeof q === 'function' ? await q() : q) as Extract<SearchQuery, { op: 'grep' }>;
      const text = req.utf8 ? decodeUtf8(req.utf8) : req.text!;
      sent.push({ chars: text.length, bytes: req.utf8 !== undefined });
      return grepPiece(re, text, req.mode, req.want);
    };
    return { sent, ask };
  };

  it('a big text goes in pieces of at most PIECE_CHARS that end at line breaks; only a longer line goes whole, as moved bytes', async () => {
    const longLine = `${'y'.repeat(PIECE_CHARS * 2)} ERROR\n`;
    const text = LOG_LINE.repeat(20_000) + longLine + LOG_LINE.repeat(20_000) + 'ERROR last';
    const re = compileLinear('ERROR');
    const { sent, ask } = recording(re);
    const hits = await searchFileText(text, { pattern: 'ERROR', options: {}, mode: 'content' }, 10, false, ask);
    assert.deepEqual(hits.lines, [20_000, 40_001]);
    assert.deepEqual(hits.starts, [text.indexOf(longLine), text.lastIndexOf('\n') + 1]);
    assert.equal(sent.reduce((n, s) => n + s.chars, 0), text.length);
    for (const s of sent) assert.ok(s.bytes ? s.chars > PIECE_CHARS : s.chars <= PIECE_CHARS, JSON.stringify(s));
    assert.equal(sent.filter((s) => s.bytes).length, 1, 'the long line');
    for (let at = 0; at < text.length; at = pieceEnd(text, at)) assert.ok(at === 0 || text[at - 1] === '\n');
  });

  it('a pattern that can span lines or sees the text edges gets the whole text; others go in pieces', async () => {
    for (const p of ['\\n', 'a\\s+b', '[^x]', '\\W', '\\A', '\\z', '(?-m)^a', '(?s).']) assert.equal(wholeTextOnly(compileLinear(p)), true, p);
    assert.equal(wholeTextOnly(compileLinear('.', { multiline: true })), true);
    for (const p of ['ERROR', '^foo$', 'a.b', '\\bword\\b', '(?i)error', '[a-z]+\\d']) assert.equal(wholeTextOnly(compileLinear(p)), false, p);
    const text = `${LOG_LINE.repeat(10_000)}XA\nXB\n${LOG_LINE.repeat(10_000)}`;
    const re = compileLinear('XA\\nXB');
    const { sent, ask } = recording(re);
    const hits = await searchFileText(text, { pattern: 'XA\\nXB', options: {}, mode: 'content' }, 10, wholeTextOnly(re), ask);
    assert.deepEqual([hits.count, hits.lines, sent.length], [1, [10_000], 1]);
  });

  it('the worker answers a count and at most `want` positions, however many lines match', () => {
    const r = grepPiece(compileLinear('a'), 'a\n'.repeat(200_000), 'content', 5);
    assert.deepEqual([r.count, r.lines, r.starts, r.breaks], [200_000, [0, 1, 2, 3, 4], [0, 2, 4, 6, 8], 200_000]);
    assert.deepEqual(grepPiece(compileLinear('a'), 'a\n'.repeat(10), 'content', 0).lines, undefined);
  });

  it('the place after a final line break is not a line: an empty match does not add one (per piece, it would add one a piece)', () => {
    assert.equal(grepPiece(compileLinear('^'), 'a\nb\n', 'count').count, 2);
    assert.equal(grepPiece(compileLinear('^'), 'a\nb', 'count').count, 2);
    assert.deepEqual(grepPiece(compileLinear('x*'), 'a\nb\n', 'content', 9).lines, [0, 1]);
    assert.equal(grepPiece(compileLinear('^'), '', 'files_with_matches').count, 0);
    assert.deepEqual(grepPiece(compileLinear('b$'), 'a\r\nb\r\n', 'content', 9).starts, [3], 'a start in the piece as sent, CR included');
  });
});

describe("Grep's tally and notes (decision 577)", () => {
  const base = { total: 0, files: 0, atLeast: false, maxChars: 30_000, notSearched: 0 };

  it('reads back what it writes, past the notes, and no result line can pass for it', () => {
    const u = new Unsearched();
    u.tooBig('huge.log', 70 * 1024 * 1024);
    u.cannotRead('x\uFFFD.txt', 'FS_NOT_FOUND');
    u.walkCut = 50_000;
    const tally = tallyLine('content', { ...base, total: 12, files: 3, atLeast: true, shown: 5, cut: 'limit', headLimit: 5, notSearched: u.count, walkCut: u.walkCut });
    assert.equal(tally, '(at least 12 matching lines in 3 files; 5 shown, head_limit 5 reached; 2 files not searched; the files past the first 50000 not searched)');
    const notes = u.notes(64 * 1024 * 1024);
    assert.equal(notes.length, 3);
    assert.ok(notes.every((n) => n.startsWith('(not searched')));
    assert.deepEqual(grepTally(['a.ts:1:x', tally, ...notes].join('\n')), { matches: 12, atLeast: true, notSearched: 2, more: true });
    // Result lines are `path:…`: a path that reads like a tally still has its colon after it.
    for (const line of ['(3 matching lines in 1 file):1:x', '(3 matching lines in 1 file; 2 shown:1:x)', '(no matches)', 'a.ts: binary file matches (2 lines, not shown)']) {
      assert.equal(grepTally(`a.ts:1:x\n${line}`), undefined, line);
    }
  });

  it('names at most five files a reason, then how many more', () => {
    const u = new Unsearched();
    for (let i = 0; i < 8; i++) u.tooBig(`f${i}.log`, 65 * 1024 * 1024);
    assert.match(u.notes(64 * 1024 * 1024)[0], /: f0\.log \(65\.0 MB\), f1\.log .* f4\.log \(65\.0 MB\), and 3 more — /);
    assert.equal(u.count, 8);
  });
});
