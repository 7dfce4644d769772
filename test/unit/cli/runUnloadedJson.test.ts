// Decision 731: `rawp run --output-format json` carries the command files that did not load
// (`unloaded_command_files`, `[]` when none, and `unloaded_command_files_total`), so a script can
// tell that `/mycmd` went to the agent as plain text. The built CLI with the built-in agent, on a
// workspace with broken command files and on a clean one.
import { strict as assert } from 'node:assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCliOnce, rawpRun, runScratch, type RunScratch } from '../../support/rawpRun';

/** The fields of the object before decision 731: none of them goes away or is renamed. */
const FIELDS_BEFORE = ['is_error', 'session_id', 'agent_session_id', 'tool_outputs', 'turn_id', 'stop_reason', 'text', 'structured_output', 'usage', 'permission_denials', 'errors', 'notices', 'num_turns', 'duration_ms'];

describe('cli: rawp run --output-format json lists the command files that did not load (decision 731)', function () {
  this.timeout(120_000);
  let scratch: RunScratch;
  before(() => buildCliOnce());
  beforeEach(() => (scratch = runScratch('rawp-run-unloaded-json-', 'hello\n')));
  afterEach(() => scratch.remove());

  const commands = () => {
    const dir = join(scratch.ws, '.rawp', 'commands');
    mkdirSync(dir, { recursive: true });
    return dir;
  };
  const json = async (prompt: string) => {
    const r = await rawpRun(['--workspace', scratch.ws, '--agent', 'builtin', '--output-format', 'json', prompt], { env: scratch.env });
    assert.equal(r.code, 0, r.err);
    return { object: JSON.parse(r.out) as Record<string, unknown>, err: r.err };
  };

  it('a broken command file: listed with its workspace-relative path, reason and words; counted; the other fields as before', async () => {
    writeFileSync(join(commands(), 'bad.md'), '---\ndescription: [unclosed\n---\nBody\n');
    writeFileSync(join(commands(), 'good.md'), '---\ndescription: Fine\n---\nGood\n');
    const { object, err } = await json('read a.txt');
    const files = object.unloaded_command_files as Array<Record<string, unknown>>;
    assert.equal(files.length, 1, JSON.stringify(files));
    assert.equal(files[0].path, '.rawp/commands/bad.md');
    assert.equal(files[0].reason, 'frontmatter_invalid');
    assert.match(String(files[0].message), /^its frontmatter is not valid YAML/);
    assert.equal(object.unloaded_command_files_total, 1);
    for (const field of FIELDS_BEFORE) assert.ok(field in object, `${field} is still there`);
    assert.equal(object.is_error, false);
    assert.equal(err.split('\n').filter((l) => l.startsWith('rawp run: warning: 1 command file could not be loaded: .rawp/commands/bad.md')).length, 1, `the stderr warning is unchanged (decision 727):\n${err}`);
  });

  it('a clean workspace: an empty list and a total of 0, not a missing field or null', async () => {
    writeFileSync(join(commands(), 'good.md'), '---\ndescription: Fine\n---\nGood\n');
    const { object, err } = await json('read a.txt');
    assert.deepEqual(object.unloaded_command_files, []);
    assert.equal(object.unloaded_command_files_total, 0);
    assert.ok(!err.includes('rawp run: warning:'), err);
  });

  it('/help, which the host answers with no turn: the list is there too', async () => {
    writeFileSync(join(commands(), 'bad.md'), '---\ndescription: [unclosed\n---\nBody\n');
    const { object } = await json('/help');
    assert.equal(object.turn_id, null, 'no turn ran');
    assert.deepEqual((object.unloaded_command_files as Array<{ path?: string }>).map((f) => f.path), ['.rawp/commands/bad.md']);
  });

  it('more files than the host lists (20): the listed ones, and the total counts them all', async () => {
    const dir = commands();
    for (let i = 0; i < 25; i++) writeFileSync(join(dir, `bad${String(i).padStart(2, '0')}.md`), '---\ndescription: [unclosed\n---\nBody\n');
    const { object } = await json('read a.txt');
    assert.equal((object.unloaded_command_files as unknown[]).length, 20);
    assert.equal(object.unloaded_command_files_total, 25);
  });
});
