// A file whose name is not UTF-8 (a Latin-1 `café.txt` from an old archive) is listed with U+FFFD
// for its bad byte and cannot be opened by that text. Read says so in words, instead of a bare
// "does not exist" for a file Glob has just listed.
import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeEnv, type Env } from './_env';

describe('tools: a file name that is not UTF-8', () => {
  let env: Env;
  beforeEach(() => {
    env = makeEnv();
  });
  afterEach(() => env.cleanup());

  it('is listed by Glob with U+FFFD, and reading that name says why it cannot be opened', async () => {
    writeFileSync(Buffer.concat([Buffer.from(join(env.dir, 'caf')), Buffer.from([0xe9]), Buffer.from('.txt')]), 'latin-1 name\n');
    const listed = await env.call('Glob', { pattern: '*.txt' });
    assert.deepEqual(listed.output, ['caf\ufffd.txt']);
    const read = await env.call('Read', { file_path: 'caf\ufffd.txt' });
    assert.equal(read.error_code, 'FS_NOT_FOUND');
    assert.match(String(read.output), /its name is not valid UTF-8 \(shown with �\) and cannot be opened by name; rename it to read it/);
    const plain = await env.call('Read', { file_path: 'missing.txt' });
    assert.doesNotMatch(String(plain.output), /UTF-8/, 'a plainly missing file gets no such note');
  });
});
