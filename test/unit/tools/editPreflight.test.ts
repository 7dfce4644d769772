// Decision 606: an Edit or MultiEdit that cannot apply — its old_string is not in the file, matches
// several places, or changes nothing — is refused before the permission prompt. The trial of
// 2026-12-05 approved "replace `nowhere` …" and only then saw FS_EDIT_NOT_FOUND. Real files, the
// real tools and the real permission broker (prompts counted on the fake host).
import { strict as assert } from 'node:assert';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { makeEnv, type Env } from './_env';

describe('tools: an edit that cannot apply is refused before the permission prompt (decision 606)', () => {
  let env: Env;
  beforeEach(() => {
    env = makeEnv();
  });
  afterEach(() => env.cleanup());
  const prompts = () => env.host.interactions.filter((i) => i.interaction_type === 'PERMISSION').length;

  it('read-before-write: a missing string, an ambiguous one and a no-op edit fail with their codes and no question; the file is unchanged', async () => {
    writeFileSync(env.p('f.txt'), 'alpha\nbeta\nbeta\n');
    await env.call('Read', { file_path: 'f.txt' });
    const missing = await env.call('Edit', { file_path: 'f.txt', old_string: 'gamma', new_string: 'x' });
    assert.equal(missing.error_code, 'FS_EDIT_NOT_FOUND');
    assert.match(String(missing.output), /old_string was not found in "f\.txt"/);
    const ambiguous = await env.call('Edit', { file_path: 'f.txt', old_string: 'beta', new_string: 'x' });
    assert.equal(ambiguous.error_code, 'FS_AMBIGUOUS_EDIT');
    const noOp = await env.call('Edit', { file_path: 'f.txt', old_string: 'alpha', new_string: 'alpha' });
    assert.equal(noOp.error_code, 'INVALID_INPUT');
    const multi = await env.call('MultiEdit', { file_path: 'f.txt', edits: [{ old_string: 'alpha', new_string: 'A' }, { old_string: 'delta', new_string: 'D' }] });
    assert.equal(multi.error_code, 'FS_EDIT_NOT_FOUND');
    assert.match(String(multi.output), /edit 2 of 2: old_string was not found/);
    assert.equal(prompts(), 0, 'no question whose answer cannot help');
    assert.equal(readFileSync(env.p('f.txt'), 'utf8'), 'alpha\nbeta\nbeta\n');
  });

  it('read-before-write: a Write to a folder is refused as a folder (FS_IS_DIRECTORY), before any question, not as a file "not read yet" (the review of 2026-12-06)', async () => {
    mkdirSync(env.p('src'));
    for (const file_path of ['src', 'src/']) {
      const r = await env.call('Write', { file_path, content: 'x' });
      assert.equal(r.error_code, 'FS_IS_DIRECTORY', JSON.stringify(r.output));
      assert.match(String(r.output), /"src" is a folder, not a file/);
    }
    assert.equal(prompts(), 0);
  });

  it('read-before-write: an edit that applies (typographic quotes folded, replace_all of several places) is still asked about and written', async () => {
    writeFileSync(env.p('g.txt'), 'say “hi”\nbeta\nbeta\n');
    await env.call('Read', { file_path: 'g.txt' });
    const folded = await env.call('Edit', { file_path: 'g.txt', old_string: 'say "hi"', new_string: 'say "bye"' });
    assert.equal(folded.status, 'success', JSON.stringify(folded.output));
    const all = await env.call('Edit', { file_path: 'g.txt', old_string: 'beta', new_string: 'B', replace_all: true });
    assert.equal(all.status, 'success', JSON.stringify(all.output));
    assert.equal(prompts(), 2);
    assert.equal(readFileSync(env.p('g.txt'), 'utf8'), 'say "bye"\nB\nB\n');
  });

  it('read-before-write: a file that is not UTF-8 is refused as not text (FS_NOT_TEXT) before any question, never as an edit whose match its decoded text decides (decision 608)', async () => {
    const latin1 = Buffer.from('caf\xe9 one\ncaf\xe9 two\n', 'latin1');
    writeFileSync(env.p('l.txt'), latin1);
    const read = await env.call('Read', { file_path: 'l.txt' });
    assert.match(String(read.output), /caf\ufffd one/);
    assert.match(String(read.output), /\[not UTF-8 text .*Edit and Write refuse this file/, 'the agent is told before it plans an edit');
    const twice = await env.call('Edit', { file_path: 'l.txt', old_string: 'caf', new_string: 'CAF' });
    assert.equal(twice.error_code, 'FS_NOT_TEXT', String(twice.output));
    assert.match(String(twice.output), /"l\.txt" is not UTF-8 text/);
    const missing = await env.call('Edit', { file_path: 'l.txt', old_string: 'nowhere', new_string: 'x' });
    assert.equal(missing.error_code, 'FS_NOT_TEXT', String(missing.output));
    const whole = await env.call('Write', { file_path: 'l.txt', content: 'replaced\n' });
    assert.equal(whole.error_code, 'FS_NOT_TEXT', String(whole.output));
    assert.equal(prompts(), 0, 'a write bound to fail is not asked about');
    assert.ok(readFileSync(env.p('l.txt')).equals(latin1));
  });

  it('read-before-write: a UTF-8 file that holds U+FFFD itself is not marked, and its edit is asked about and written (decision 608)', async () => {
    writeFileSync(env.p('r.txt'), 'bad byte was \ufffd here\n');
    const read = await env.call('Read', { file_path: 'r.txt' });
    assert.doesNotMatch(String(read.output), /not UTF-8/);
    const edit = await env.call('Edit', { file_path: 'r.txt', old_string: '\ufffd', new_string: '?' });
    assert.equal(edit.status, 'success', JSON.stringify(edit.output));
    assert.equal(prompts(), 1);
    assert.equal(readFileSync(env.p('r.txt'), 'utf8'), 'bad byte was ? here\n');
  });

  it('read-before-write: a Latin-1 file the ledger knows unmarked (read by a reader that did not mark it) is refused as not UTF-8 by the edit preflight, before the prompt (decision 608)', async () => {
    const latin1 = Buffer.from('na\xefve\n', 'latin1');
    writeFileSync(env.p('u.txt'), latin1);
    const ledger = env.shared.ledger!.policy.ledger;
    const set = ledger.set.bind(ledger);
    ledger.set = (actor, key, o) => set(actor, key, o.kind === 'present' ? { kind: 'present', version: o.version } : o);
    await env.call('Read', { file_path: 'u.txt' });
    const edit = await env.call('Edit', { file_path: 'u.txt', old_string: 'na', new_string: 'NA' });
    assert.equal(edit.error_code, 'FS_NOT_TEXT', String(edit.output));
    assert.match(String(edit.output), /is not UTF-8 text/);
    assert.equal(prompts(), 0);
    assert.ok(readFileSync(env.p('u.txt')).equals(latin1));
  });

  it('read-before-write: a file the ledger knows by another way than Read (the agent wrote its NUL itself) is refused as binary before the edit\'s prompt (decision 602)', async () => {
    const write = await env.call('Write', { file_path: 'blob.txt', content: 'head\u0000tail\none\n' });
    assert.equal(write.status, 'success', JSON.stringify(write.output));
    const before = readFileSync(env.p('blob.txt'));
    const edit = await env.call('Edit', { file_path: 'blob.txt', old_string: 'one', new_string: 'two' });
    assert.equal(edit.error_code, 'FS_NOT_TEXT');
    assert.match(String(edit.output), /"blob\.txt" is a binary file \(it holds NUL bytes\)/);
    assert.equal(prompts(), 1, 'only the Write was asked about');
    assert.ok(readFileSync(env.p('blob.txt')).equals(before));
  });
});
