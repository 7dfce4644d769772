import { strict as assert } from 'node:assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { makeEnv, type Env } from './_env';
import type { DiffOutput } from '../../../src/tools/diff';
import { createToolRunner, createSharedToolState } from '../../../src/tools/toolkit';
import { NodeFsBackend } from '../../../src/workspace/nodeFsBackend';
import { FakeHost } from '../../support/fakeHost';
import { join } from 'node:path';

describe('tools: read-before-write ledger', () => {
  let env: Env;
  beforeEach(() => {
    env = makeEnv();
    env.host.answer = () => ({ kind: 'response', selected_value: 'allow_session' });
  });
  afterEach(() => {
    env.host.assertAllFramesAccepted();
    env.cleanup();
  });

  it('read-before-write: editIntent on an unread file is FS_NOT_OBSERVED and nothing changes', async () => {
    writeFileSync(env.p('a.ts'), 'const a = 1;\n');
    const r = await env.call('Edit', { file_path: env.p('a.ts'), old_string: '1', new_string: '2' });
    assert.equal(r.status, 'error');
    assert.equal(r.error_code, 'FS_NOT_OBSERVED');
    assert.match(String(r.output), /edit requires reading "a.ts" first/);
    assert.equal(env.host.interactions.length, 0, 'refused before any permission prompt');
    assert.equal(readFileSync(env.p('a.ts'), 'utf8'), 'const a = 1;\n');
  });

  it('read-before-write: editIntent on a file read as absent is FS_NOT_FOUND', async () => {
    const read = await env.call('Read', { file_path: env.p('nope.ts') });
    assert.equal(read.error_code, 'FS_NOT_FOUND');
    const r = await env.call('Edit', { file_path: env.p('nope.ts'), old_string: 'a', new_string: 'b' });
    assert.equal(r.error_code, 'FS_NOT_FOUND');
    assert.match(String(r.output), /cannot edit "nope.ts": not found/);
  });

  it('read-before-write: an edit after an external modification is FS_STALE_VERSION', async () => {
    writeFileSync(env.p('a.ts'), 'let x = 1;\n');
    await env.call('Read', { file_path: env.p('a.ts') });
    writeFileSync(env.p('a.ts'), 'let x = 1; // a person typed this\n');
    const r = await env.call('Edit', { file_path: env.p('a.ts'), old_string: 'x = 1', new_string: 'x = 2' });
    assert.equal(r.error_code, 'FS_STALE_VERSION');
    assert.equal(readFileSync(env.p('a.ts'), 'utf8'), 'let x = 1; // a person typed this\n');
    // After reading again the edit goes through.
    await env.call('Read', { file_path: env.p('a.ts') });
    const ok = await env.call('Edit', { file_path: env.p('a.ts'), old_string: 'x = 1', new_string: 'x = 2' });
    assert.equal(ok.status, 'success');
    assert.equal(readFileSync(env.p('a.ts'), 'utf8'), 'let x = 2; // a person typed this\n');
  });

  it('read-before-write: FS_AMBIGUOUS_EDIT without replace_all, and replace_all replaces every match', async () => {
    writeFileSync(env.p('a.txt'), 'foo bar foo\n');
    await env.call('Read', { file_path: env.p('a.txt') });
    const r = await env.call('Edit', { file_path: env.p('a.txt'), old_string: 'foo', new_string: 'baz' });
    assert.equal(r.error_code, 'FS_AMBIGUOUS_EDIT');
    assert.match(String(r.output), /matches 2 places/);
    const all = await env.call('Edit', { file_path: env.p('a.txt'), old_string: 'foo', new_string: 'baz', replace_all: true });
    assert.equal(all.status, 'success');
    assert.equal((all.output as { replacements: number }).replacements, 2);
    assert.equal(readFileSync(env.p('a.txt'), 'utf8'), 'baz bar baz\n');
  });

  it('read-before-write: FS_EDIT_NOT_FOUND when old_string is not in the file', async () => {
    writeFileSync(env.p('a.txt'), 'hello\n');
    await env.call('Read', { file_path: env.p('a.txt') });
    const r = await env.call('Edit', { file_path: env.p('a.txt'), old_string: 'goodbye', new_string: 'x' });
    assert.equal(r.error_code, 'FS_EDIT_NOT_FOUND');
    assert.equal(readFileSync(env.p('a.txt'), 'utf8'), 'hello\n');
  });

  it('read-before-write: Write creates a new file without a read but never overwrites an unread one (FS_EXISTS)', async () => {
    const created = await env.call('Write', { file_path: env.p('new/b.txt'), content: 'one\n' });
    assert.equal(created.status, 'success');
    assert.equal(created.output_type, 'diff');
    assert.equal((created.output as DiffOutput).created, true);
    writeFileSync(env.p('theirs.txt'), 'not yours\n');
    const r = await env.call('Write', { file_path: env.p('theirs.txt'), content: 'mine\n' });
    assert.equal(r.error_code, 'FS_EXISTS');
    assert.equal(readFileSync(env.p('theirs.txt'), 'utf8'), 'not yours\n');
    // Written by us, so present@version: a second write replaces it.
    const again = await env.call('Write', { file_path: env.p('new/b.txt'), content: 'two\n' });
    assert.equal(again.status, 'success');
    assert.match((again.output as DiffOutput).unified_diff, /-one\n\+two/);
    // Writing the same content again changes nothing: output_type "empty" (§5.3.3).
    const same = await env.call('Write', { file_path: env.p('new/b.txt'), content: 'two\n' });
    assert.equal(same.output_type, 'empty');
  });

  it('read-before-write: a Write over a file changed since it was read is FS_STALE_VERSION', async () => {
    writeFileSync(env.p('c.txt'), 'v1\n');
    await env.call('Read', { file_path: env.p('c.txt') });
    writeFileSync(env.p('c.txt'), 'v2 by someone\n');
    const r = await env.call('Write', { file_path: env.p('c.txt'), content: 'v3\n' });
    assert.equal(r.error_code, 'FS_STALE_VERSION');
    assert.equal(readFileSync(env.p('c.txt'), 'utf8'), 'v2 by someone\n');
  });

  it('read-before-write: a 10-line read authorizes a whole-file edit while the file is unchanged', async () => {
    const lines = Array.from({ length: 100 }, (_, i) => `line ${i + 1}`);
    writeFileSync(env.p('big.txt'), lines.join('\n') + '\n');
    const read = await env.call('Read', { file_path: env.p('big.txt'), offset: 1, limit: 10 });
    assert.equal(String(read.output).split('\n').length, 10);
    const r = await env.call('Edit', { file_path: env.p('big.txt'), old_string: 'line 90\n', new_string: 'line ninety\n' });
    assert.equal(r.status, 'success');
    assert.match(readFileSync(env.p('big.txt'), 'utf8'), /line 89\nline ninety\nline 91/);
  });

  it('read-before-write: concurrent edits from two sessions — exactly one wins, the other is FS_STALE_VERSION', async () => {
    writeFileSync(env.p('shared.ts'), 'export const n = 0;\n');
    const b = env.session();
    b.host.answer = env.host.answer;
    await env.call('Read', { file_path: env.p('shared.ts') });
    await env.call('Read', { file_path: env.p('shared.ts') }, b.runner);
    const [ra, rb] = await Promise.all([
      env.call('Edit', { file_path: env.p('shared.ts'), old_string: 'n = 0', new_string: 'n = 1' }),
      env.call('Edit', { file_path: env.p('shared.ts'), old_string: 'n = 0', new_string: 'n = 2' }, b.runner),
    ]);
    const statuses = [ra.status, rb.status].sort();
    assert.deepEqual(statuses, ['error', 'success']);
    const loser = ra.status === 'error' ? ra : rb;
    assert.equal(loser.error_code, 'FS_STALE_VERSION');
    const text = readFileSync(env.p('shared.ts'), 'utf8');
    assert.ok(text === 'export const n = 1;\n' || text === 'export const n = 2;\n');
    // The winner's own ledger entry is fresh: it can keep editing; the loser must re-read.
    const winner = ra.status === 'success' ? env.runner : b.runner;
    const next = await env.call('Edit', { file_path: env.p('shared.ts'), old_string: 'export', new_string: 'export /* ok */' }, winner);
    assert.equal(next.status, 'success');
    b.host.assertAllFramesAccepted();
  });

  it('read-before-write: a MultiEdit with one failing edit rolls back all of them', async () => {
    writeFileSync(env.p('m.ts'), 'a\nb\nc\n');
    await env.call('Read', { file_path: env.p('m.ts') });
    const r = await env.call('MultiEdit', {
      file_path: env.p('m.ts'),
      edits: [
        { old_string: 'a', new_string: 'A' },
        { old_string: 'zzz', new_string: 'Z' },
      ],
    });
    assert.equal(r.error_code, 'FS_EDIT_NOT_FOUND');
    assert.match(String(r.output), /edit 2 of 2/);
    assert.equal(readFileSync(env.p('m.ts'), 'utf8'), 'a\nb\nc\n');
    const ok = await env.call('MultiEdit', {
      file_path: env.p('m.ts'),
      edits: [
        { old_string: 'a', new_string: 'A' },
        { old_string: 'A\nb', new_string: 'A\nB' },
      ],
    });
    assert.equal(ok.status, 'success');
    assert.equal(readFileSync(env.p('m.ts'), 'utf8'), 'A\nB\nc\n');
    const out = ok.output as DiffOutput;
    assert.equal(out.hunks.length, 1);
    assert.deepEqual(out.hunks[0].lines, ['-a', '-b', '+A', '+B', ' c']);
  });

  it('read-before-write: CRLF files match LF old_strings and keep CRLF', async () => {
    writeFileSync(env.p('win.txt'), 'one\r\ntwo\r\nthree\r\n');
    await env.call('Read', { file_path: env.p('win.txt') });
    const r = await env.call('Edit', { file_path: env.p('win.txt'), old_string: 'one\ntwo', new_string: 'uno\ndos' });
    assert.equal(r.status, 'success');
    assert.equal(readFileSync(env.p('win.txt'), 'utf8'), 'uno\r\ndos\r\nthree\r\n');
    const r2 = await env.call('Edit', { file_path: env.p('win.txt'), old_string: 'dos\r\nthree', new_string: 'DOS\r\nthree' });
    assert.equal(r2.status, 'success', String(r2.output));
    assert.equal(readFileSync(env.p('win.txt'), 'utf8'), 'uno\r\nDOS\r\nthree\r\n');
  });

  it('read-before-write: Unicode fallback matches smart quotes, dashes and NBSP, and says so', async () => {
    writeFileSync(env.p('doc.md'), 'He said \u201Chello\u201D \u2014 it\u2019s\u00A0done.\n');
    await env.call('Read', { file_path: env.p('doc.md') });
    const r = await env.call('Edit', { file_path: env.p('doc.md'), old_string: `"hello" - it's done`, new_string: '"bye" - done' });
    assert.equal(r.status, 'success', String(r.output));
    const out = r.output as { unicode_normalized: { edit_index: number; folded: string[] }[]; note: string };
    assert.equal(out.unicode_normalized[0].edit_index, 0);
    assert.deepEqual([...out.unicode_normalized[0].folded].sort(), ['\u00A0', '\u2014', '\u2019', '\u201C', '\u201D'].sort());
    assert.match(out.note, /U\+2014/);
    assert.equal(readFileSync(env.p('doc.md'), 'utf8'), 'He said "bye" - done.\n');
  });

  it('read-before-write: Edit/Write results carry a unified diff and structured hunks (§5.3.3 diff)', async () => {
    writeFileSync(env.p('d.txt'), '1\n2\n3\n4\n5\n6\n7\n8\n9\n');
    await env.call('Read', { file_path: env.p('d.txt') });
    const r = await env.call('Edit', { file_path: env.p('d.txt'), old_string: '5\n', new_string: 'five\n' });
    assert.equal(r.output_type, 'diff');
    const out = r.output as DiffOutput;
    assert.equal(out.file_path, 'd.txt');
    assert.deepEqual(out.hunks[0], { old_start: 2, old_lines: 7, new_start: 2, new_lines: 7, lines: [' 2', ' 3', ' 4', '-5', '+five', ' 6', ' 7', ' 8'] });
    assert.match(out.unified_diff, /^--- a\/d.txt\n\+\+\+ b\/d.txt\n@@ -2,7 \+2,7 @@/);
    assert.equal(out.additions, 1);
    assert.equal(out.deletions, 1);
    assert.equal(typeof r.duration_ms, 'number');
  });

  it('read-before-write: removing the policy returns the tools to bare provider behaviour, schemas unchanged', async () => {
    const dir = env.dir;
    writeFileSync(join(dir, 'x.txt'), 'old\n');
    const fs = new NodeFsBackend([dir]);
    const bare = createSharedToolState({ fs, ledger: false });
    const host = new FakeHost(dir);
    const runner = createToolRunner(host, bare);
    const schemas = JSON.stringify(runner.options.catalog.build().tools.map((t) => t.input_schema));
    assert.equal(schemas, JSON.stringify(env.runner.options.catalog.build().tools.map((t) => t.input_schema)));
    const edit = await runner.invoke('Edit', { file_path: join(dir, 'x.txt'), old_string: 'old', new_string: 'new' }, new AbortController().signal);
    assert.equal(edit.status, 'success', 'no read needed without the ledger');
    const write = await runner.invoke('Write', { file_path: join(dir, 'x.txt'), content: 'overwritten\n' }, new AbortController().signal);
    assert.equal(write.status, 'success');
    assert.equal(readFileSync(join(dir, 'x.txt'), 'utf8'), 'overwritten\n');
    // Detaching the installed ledger at runtime does the same.
    assert.equal(env.shared.fsEvents.installed, 1);
    writeFileSync(env.p('y.txt'), 'y\n');
    assert.equal((await env.call('Edit', { file_path: env.p('y.txt'), old_string: 'y', new_string: 'z' })).error_code, 'FS_NOT_OBSERVED');
    env.shared.ledger!.dispose();
    assert.equal(env.shared.fsEvents.installed, 0);
    assert.equal((await env.call('Edit', { file_path: env.p('y.txt'), old_string: 'y', new_string: 'z' })).status, 'success');
    assert.equal(readFileSync(env.p('y.txt'), 'utf8'), 'z\n');
  });

  it('read-before-write: an Edit with an empty old_string creates a new file but never fills an existing one', async () => {
    const r = await env.call('Edit', { file_path: env.p('fresh.txt'), old_string: '', new_string: 'hello\n' });
    assert.equal(r.status, 'success');
    assert.equal(readFileSync(env.p('fresh.txt'), 'utf8'), 'hello\n');
    const again = await env.call('Edit', { file_path: env.p('fresh.txt'), old_string: '', new_string: 'x' });
    assert.equal(again.error_code, 'FS_EXISTS');
    const same = await env.call('Edit', { file_path: env.p('fresh.txt'), old_string: 'hello', new_string: 'hello' });
    assert.equal(same.error_code, 'INVALID_INPUT');
  });
});
