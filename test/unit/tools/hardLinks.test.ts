// Decision 603: the Node backend saves an edit as a new file (temp file + rename), so a file's
// other hard links keep the old content — on purpose (a pnpm store's files are hard links that an
// in-place write would change for every project). The trial of 2026-12-05 found this happened
// silently; the Edit and Write results now say so. Real files, the real tools.
import { strict as assert } from 'node:assert';
import { linkSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { makeEnv, type Env } from './_env';

describe('tools: an edit of a hard-linked file says the other names keep the old content (decision 603)', () => {
  let env: Env;
  beforeEach(() => {
    env = makeEnv();
  });
  afterEach(() => env.cleanup());
  const noteOf = (output: unknown) => (output as { note?: string }).note;

  it('read-before-write: Edit and Write of a file with one other hard link succeed, say so in `note`, and the link keeps the old bytes', async () => {
    writeFileSync(env.p('a.txt'), 'one\n');
    linkSync(env.p('a.txt'), env.p('b.txt'));
    await env.call('Read', { file_path: 'a.txt' });
    const edit = await env.call('Edit', { file_path: 'a.txt', old_string: 'one', new_string: 'two' });
    assert.equal(edit.status, 'success', JSON.stringify(edit.output));
    assert.match(String(noteOf(edit.output)), /^the file had 1 other hard link; it keeps the old content/);
    assert.equal(readFileSync(env.p('a.txt'), 'utf8'), 'two\n');
    assert.equal(readFileSync(env.p('b.txt'), 'utf8'), 'one\n', 'the other name is untouched');
    assert.equal(statSync(env.p('b.txt')).nlink, 1, 'the link was cut, as the note says');

    linkSync(env.p('a.txt'), env.p('c.txt'));
    linkSync(env.p('a.txt'), env.p('d.txt'));
    const write = await env.call('Write', { file_path: 'a.txt', content: 'three\n' });
    assert.equal(write.status, 'success', JSON.stringify(write.output));
    assert.match(String(noteOf(write.output)), /^the file had 2 other hard links; they keep the old content/);
    assert.equal(readFileSync(env.p('c.txt'), 'utf8'), 'two\n');
  });

  it('read-before-write: a file with no other name gets no note', async () => {
    writeFileSync(env.p('solo.txt'), 'one\n');
    await env.call('Read', { file_path: 'solo.txt' });
    const edit = await env.call('Edit', { file_path: 'solo.txt', old_string: 'one', new_string: 'two' });
    assert.equal(edit.status, 'success');
    assert.equal(noteOf(edit.output), undefined);
  });
});
