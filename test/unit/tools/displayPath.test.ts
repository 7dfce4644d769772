// displayPath: a name inside the workspace that starts with two dots is inside (`..foo`); only
// `..` and `../…` are outside.
import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { displayPath } from '../../../src/tools/paths';
import { makeEnv } from './_env';

describe('tools: displayPath', () => {
  const root = '/work/ws';

  it('a file or folder named ..foo inside the workspace is shown relative', () => {
    assert.equal(displayPath([root], join(root, '..foo')), '..foo');
    assert.equal(displayPath([root], join(root, '..d', 'x.ts')), '..d/x.ts');
    assert.equal(displayPath([root], join(root, '...')), '...');
  });

  it('the parent and anything beside the workspace are shown absolute', () => {
    assert.equal(displayPath([root], '/work'), '/work');
    assert.equal(displayPath([root], '/work/other/x'), '/work/other/x');
    assert.equal(displayPath([root], '/work/ws..foo'), '/work/ws..foo');
    assert.equal(displayPath([root], root), '.');
  });

  it('a Read of an empty ..foo in a real workspace names it by its workspace path', async () => {
    const env = makeEnv();
    try {
      writeFileSync(env.p('..foo'), '');
      const r = await env.call('Read', { file_path: '..foo' });
      assert.equal(r.output, '(file "..foo" is empty)');
    } finally {
      env.cleanup();
    }
  });
});
