// Decision 024, completed (the trial of 2026-12-05): a write or edit the ledger's guard will refuse
// is refused before the permission prompt — a file changed since it was read, or an existing file
// never read. Both were asked about ("Allow Edit f.txt?") and only then refused, so the person was
// told the wrong reason ("Writing a.txt failed (PERMISSION_REJECTED)").
import { strict as assert } from 'node:assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { makeEnv, type Env } from './_env';

describe('tools: writes the ledger will refuse are refused before the permission prompt', () => {
  let env: Env;
  beforeEach(() => {
    env = makeEnv();
  });
  afterEach(() => env.cleanup());
  const prompts = () => env.host.interactions.filter((i) => i.interaction_type === 'PERMISSION').length;

  it('read-before-write: Edit and Write of a file changed since it was read: FS_STALE_VERSION, no prompt, file as the other writer left it', async () => {
    writeFileSync(env.p('f.txt'), 'one\n');
    await env.call('Read', { file_path: 'f.txt' });
    writeFileSync(env.p('f.txt'), 'one, changed by a person\n');
    const edit = await env.call('Edit', { file_path: 'f.txt', old_string: 'one', new_string: 'two' });
    assert.equal(edit.error_code, 'FS_STALE_VERSION');
    assert.match(String(edit.output), /changed since it was read \(by a person, another tool or another agent\); read it again\./);
    const write = await env.call('Write', { file_path: 'f.txt', content: 'three\n' });
    assert.equal(write.error_code, 'FS_STALE_VERSION');
    assert.equal(prompts(), 0, 'no question whose answer cannot help');
  });

  it('read-before-write: Write over an existing file never read: FS_EXISTS, no prompt; a new file and a read file are still asked about and written', async () => {
    writeFileSync(env.p('a.txt'), 'keep me\n');
    const refused = await env.call('Write', { file_path: 'a.txt', content: 'new\n' });
    assert.equal(refused.error_code, 'FS_EXISTS');
    assert.match(String(refused.output), /already exists and was not read in this session; read it before overwriting/);
    assert.equal(prompts(), 0);
    const created = await env.call('Write', { file_path: 'b.txt', content: 'new\n' });
    assert.equal(created.status, 'success');
    await env.call('Read', { file_path: 'a.txt' });
    const replaced = await env.call('Write', { file_path: 'a.txt', content: 'new\n' });
    assert.equal(replaced.status, 'success');
    assert.equal(prompts(), 2, 'the two writes that can succeed were asked about');
  });

  it('read-before-write: Edit and Write of a file Read called binary (a NUL byte): FS_NOT_TEXT before the prompt, bytes kept (decision 602)', async () => {
    const bytes = Buffer.from('SQLite format 3\0\u0001 name = one\n', 'utf8');
    writeFileSync(env.p('page.db'), bytes);
    const read = await env.call('Read', { file_path: 'page.db' });
    assert.equal(read.output, '(binary file "page.db" not shown)');
    const edit = await env.call('Edit', { file_path: 'page.db', old_string: 'one', new_string: 'two' });
    assert.equal(edit.error_code, 'FS_NOT_TEXT');
    assert.match(String(edit.output), /"page\.db" is a binary file \(it holds NUL bytes\), which Read does not show; it is left untouched/);
    const write = await env.call('Write', { file_path: 'page.db', content: 'name = two\n' });
    assert.equal(write.error_code, 'FS_NOT_TEXT');
    assert.equal(prompts(), 0, 'no question whose answer cannot help');
    assert.ok(readFileSync(env.p('page.db')).equals(bytes));
    // A text file read afterwards under the same name is editable again: the ledger follows the last read.
    writeFileSync(env.p('page.db'), 'name = one\n');
    await env.call('Read', { file_path: 'page.db' });
    assert.equal((await env.call('Edit', { file_path: 'page.db', old_string: 'one', new_string: 'two' })).status, 'success');
  });
});
