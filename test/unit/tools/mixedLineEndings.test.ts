// Edit and MultiEdit of a file whose line endings are mixed change only the bytes they replace
// (decision 704): each untouched line keeps its own ending. Through the real tools and the Node
// backend on a temp folder; the byte comparisons are of the file on disk.
import { strict as assert } from 'node:assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { makeEnv, type Env } from './_env';
import type { DiffOutput } from '../../../src/tools/diff';

describe('tools: edits of a file with mixed line endings', () => {
  let env: Env;
  beforeEach(() => {
    env = makeEnv();
    env.host.answer = () => ({ kind: 'response', selected_value: 'allow_session' });
  });
  afterEach(() => {
    env.host.assertAllFramesAccepted();
    env.cleanup();
  });

  async function readThenCall(file: string, content: string, tool: string, input: Record<string, unknown>) {
    writeFileSync(env.p(file), content);
    await env.call('Read', { file_path: env.p(file) });
    const r = await env.call(tool, { file_path: env.p(file), ...input });
    assert.equal(r.status, 'success', String(r.output));
    return r;
  }

  it('Edit of one line keeps the CRLF and LF endings of every other line', async () => {
    const r = await readThenCall('mixed.txt', 'a\r\nb\nold\nc\r\nd\n', 'Edit', { old_string: 'old', new_string: 'new' });
    assert.equal(readFileSync(env.p('mixed.txt'), 'latin1'), 'a\r\nb\nnew\nc\r\nd\n');
    const out = r.output as DiffOutput;
    assert.deepEqual(out.hunks.flatMap((h) => h.lines.filter((l) => l[0] !== ' ')), ['-old', '+new'], 'the diff shows the edited line only');
  });

  it('Edit across lines gives the new text the endings of the region it replaces, and added lines the dominant one', async () => {
    // Three LF breaks and two CRLF: LF dominates. The region holds a CRLF then an LF.
    await readThenCall('span.txt', 'a\r\nb\r\nc\nd\ne\n', 'Edit', { old_string: 'b\nc\nd', new_string: 'B\nC\nD\nE2' });
    assert.equal(readFileSync(env.p('span.txt'), 'latin1'), 'a\r\nB\r\nC\nD\nE2\ne\n');
    // Mostly CRLF: a line added inside an LF line's region gets CRLF.
    await readThenCall('crlfish.txt', 'a\r\nb\r\nc\nd\r\n', 'Edit', { old_string: 'c', new_string: 'c1\nc2' });
    assert.equal(readFileSync(env.p('crlfish.txt'), 'latin1'), 'a\r\nb\r\nc1\r\nc2\nd\r\n');
  });

  it('Edit with an old_string written with CRLF or LF matches either ending in the file', async () => {
    await readThenCall('m.txt', 'a\r\nb\nc\r\n', 'Edit', { old_string: 'a\r\nb\r\nc', new_string: 'x\ny\nz' });
    assert.equal(readFileSync(env.p('m.txt'), 'latin1'), 'x\r\ny\nz\r\n');
  });

  it('Edit with replace_all replaces every match and nothing else', async () => {
    await readThenCall('all.txt', 'k = 1\r\nv\nk = 2\nv\r\nk\r\n', 'Edit', { old_string: 'k', new_string: 'key', replace_all: true });
    assert.equal(readFileSync(env.p('all.txt'), 'latin1'), 'key = 1\r\nv\nkey = 2\nv\r\nkey\r\n');
  });

  it('MultiEdit keeps the endings of the lines between and around its edits', async () => {
    const r = await readThenCall('multi.txt', 'one\r\ntwo\nthree\r\nfour\nfive\r\n', 'MultiEdit', {
      edits: [
        { old_string: 'two', new_string: 'TWO' },
        { old_string: 'four\nfive', new_string: 'FOUR\nFIVE' },
        { old_string: 'TWO', new_string: '2' },
      ],
    });
    assert.equal(readFileSync(env.p('multi.txt'), 'latin1'), 'one\r\n2\nthree\r\nFOUR\nFIVE\r\n');
    assert.equal((r.output as { replacements: number }).replacements, 3);
  });

  it('Edit keeps lone CRs, a byte order mark and a last line without a line break', async () => {
    await readThenCall('cr.txt', '\ufeffa\rb\r\nc\nold', 'Edit', { old_string: 'old', new_string: 'new' });
    assert.equal(readFileSync(env.p('cr.txt'), 'utf8'), '\ufeffa\rb\r\nc\nnew');
  });

  it('Edit of a file over 1 MB (made in the edit worker) keeps the mixed endings too', async () => {
    const body = 'line with crlf\r\nline with lf\n'.repeat(40_000);
    await readThenCall('big.txt', `${body}old\r\n${body}`, 'Edit', { old_string: 'old', new_string: 'new' });
    assert.ok(readFileSync(env.p('big.txt'), 'latin1') === `${body}new\r\n${body}`, 'only the edited bytes changed');
  });

  it('Edit of a file of one style is as before: LF new text over a CRLF file is written CRLF', async () => {
    await readThenCall('win.txt', 'a\r\nb\r\nc\r\n', 'Edit', { old_string: 'b', new_string: 'b1\nb2' });
    assert.equal(readFileSync(env.p('win.txt'), 'latin1'), 'a\r\nb1\r\nb2\r\nc\r\n');
    await readThenCall('unix.txt', 'a\nb\nc\n', 'Edit', { old_string: 'b', new_string: 'b1\r\nb2' });
    assert.equal(readFileSync(env.p('unix.txt'), 'latin1'), 'a\nb1\nb2\nc\n');
  });

  it('Write over a file with mixed endings still takes the majority ending (decision 021)', async () => {
    await readThenCall('w.txt', 'a\r\nb\r\nc\n', 'Write', { content: 'x\ny\nz\n' });
    assert.equal(readFileSync(env.p('w.txt'), 'latin1'), 'x\r\ny\r\nz\r\n');
  });
});
