// Decision 577: the built-in agent's reply to `find` gives Grep's true count. Before, it counted the
// lines of the result: 418 for a file with 1,740 matching lines (the lines left after the 30,000
// character cut), 2 for one match in a file whose name holds a line break, and "No matches" for a
// 2.2 MB log full of them (Grep skipped it in silence).
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BuiltinAgent } from '../../../src/agents/builtin';
import { GREP_MAX_FILE_BYTES } from '../../../src/tools/grepFile';
import { FakeHost } from '../../support/fakeHost';

describe('agents/builtin: `find` replies with the true count (decision 577)', function () {
  this.timeout(30_000);
  let dir: string;
  let host: FakeHost;
  let agent: BuiltinAgent;
  const reply = async (text: string): Promise<string> => {
    await agent.prompt({ turn_id: globalThis.crypto.randomUUID(), turn_index: 0, text, input_type: 'text', mode: 'default', file_references: [], context_files: [] }, new AbortController().signal);
    return host.ofType('agent.text.done').at(-1)?.payload.full_text ?? '';
  };

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rawp-builtin-find-'));
    host = new FakeHost(dir);
    agent = new BuiltinAgent({ settings: { killGraceMs: 200 } });
    await agent.start(host);
  });
  afterEach(async () => {
    host.assertAllFramesAccepted();
    await agent.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a cut result: 1,740 matching lines in a 100 KB file are 1,740, not the lines left after the cut', async () => {
    writeFileSync(join(dir, 'h.txt'), Array.from({ length: 2000 }, (_, i) => (i < 1740 ? `line ${i} TODO: ${'x'.repeat(40)}` : `line ${i} plain`)).join('\n'));
    assert.equal(await reply('find TODO in h.txt'), 'Found 1740 matching lines for `TODO`.');
  });

  it('a 2.2 MB log is searched, and a name with a line break is one matching line', async () => {
    writeFileSync(join(dir, 'big.log'), 'ERROR here\n'.repeat(200_000));
    assert.equal(await reply('find ERROR'), 'Found 200000 matching lines for `ERROR`.');
    writeFileSync(join(dir, 'a\nb.txt'), 'TODO\n');
    assert.equal(await reply('find TODO'), 'Found 1 matching line for `TODO`.');
  });

  it('a file Grep did not read is said after the count, never counted as "no matches" alone', async () => {
    writeFileSync(join(dir, 'huge.log'), '');
    truncateSync(join(dir, 'huge.log'), GREP_MAX_FILE_BYTES + 1);
    assert.equal(await reply('find ERROR'), 'No matches for `ERROR`. 1 file could not be searched; the Grep result names it.');
    writeFileSync(join(dir, 'a.txt'), 'ERROR\nERROR\n');
    assert.equal(await reply('find ERROR'), 'Found 2 matching lines for `ERROR`. 1 file could not be searched; the Grep result names it.');
  });
});
