// The headless trial of 2026-12-05: a prompt the host drops unread (over its width bound: a JSON
// schema of 1,001 properties) ended the run only after the 60 s wait for a turn, as NO_TURN. The
// run now ends at once with the host's reason. `rawp run` refuses such a schema before sending it
// (inputs.ts); this drives the run itself with one, as another caller of HeadlessRun could.
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HeadlessRun } from '../../../src/host/headlessRun';
import { readJsonSchema } from '../../../src/cli/run/inputs';

const silent = { debug() {}, info() {}, warn() {}, error() {} };

describe('headless run: a prompt the host drops unread ends the run at once (the headless trial of 2026-12-05)', function () {
  this.timeout(20_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rawp-unread-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const wide = () => ({ type: 'object', properties: Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`p${i}`, { type: 'string' }])) });

  it('§2.2 FRAME_TOO_WIDE before any turn: the run ends with the host\'s code, not NO_TURN after 60 s', async () => {
    const run = new HeadlessRun({ workspace: dir, agent: 'builtin', prompt: { prompt_text: 'read a.txt', input_type: 'text', config_overrides: { json_schema: wide() } }, allow: [], rulesFile: join(dir, 'rules.json'), logger: silent });
    try {
      const r = await run.run();
      assert.equal(r.turn_id, undefined);
      assert.deepEqual(r.errors.map((e) => e.error_code), ['FRAME_TOO_WIDE']);
    } finally {
      await run.dispose();
    }
  });

  it('rawp run refuses such a schema before anything is sent: too wide, too many values, too deep', () => {
    const file = join(dir, 's.json');
    writeFileSync(file, JSON.stringify(wide()));
    assert.throws(() => readJsonSchema(file), /has an object of more than 1,000 members \(keys\), more than a prompt may carry/);
    writeFileSync(file, JSON.stringify({ type: 'object', properties: { e: { enum: Array.from({ length: 21_000 }, (_, i) => i) } } }));
    assert.throws(() => readJsonSchema(file), /holds more than 20,000 values/);
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 40; i++) deep = { type: 'object', properties: { d: deep } };
    writeFileSync(file, JSON.stringify(deep));
    assert.throws(() => readJsonSchema(file), /nests deeper than 60 levels/);
  });
});
