// Security property "a rule for a reading command reads only the workspace" (decision 710): a saved
// or session rule for `cat` (a command that only reads, so it also allows more file names) must not
// read a file outside the workspace through a symlink inside it. The case: `notes/link` →
// `~/.ssh/id_rsa`-like file, the rule `cat`, the agent runs `cat notes/link` — before this decision
// the rule allowed it and the secret reached the agent with no question. The built `rawp run` with
// the built-in agent, a real rules file, real symlinks and a real shell.
import { strict as assert } from 'node:assert';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCliOnce, rawpRun, runScratch, type RunScratch } from '../support/rawpRun';
import { realLocation } from '../../src/workspace/realLocation';

describe('security: a Bash rule for a reading command does not read through a symlink out of the workspace (decision 710; the built rawp run)', function () {
  this.timeout(120_000);
  let scratch: RunScratch;
  let rulesFile: string;
  before(() => buildCliOnce());
  beforeEach(() => {
    scratch = runScratch('rawp-bash-link-', 'a\n');
    const outside = join(scratch.dir, 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'id_rsa'), 'SECRET-KEY-OUTSIDE\n');
    mkdirSync(join(scratch.ws, 'notes'));
    writeFileSync(join(scratch.ws, 'notes', 'todo.txt'), 'inside-words\n');
    symlinkSync(join(outside, 'id_rsa'), join(scratch.ws, 'notes', 'link'));
    symlinkSync(outside, join(scratch.ws, 'notes', 'dirlink'));
    rulesFile = join(scratch.dir, 'rules.json');
    const rule = { id: 'r-cat', decision: 'allow', lifetime: 'always', created_by: 'builtin', created_at: '2026-12-06T00:00:00.000Z', tool_name: 'Bash', command_prefix: 'cat', workspace: realLocation(scratch.ws) };
    writeFileSync(rulesFile, JSON.stringify({ version: 2, rules: [rule] }));
  });
  afterEach(() => scratch.remove());

  const run = (command: string, more: string[] = []) => rawpRun(['--workspace', scratch.ws, '--agent', 'builtin', '--rules-file', rulesFile, ...more, `run \`${command}\``], { env: scratch.env });

  it('§17.3.1 the saved rule `cat` reads a file in the workspace, and asks (here: denies) for a symlink to a file outside', async () => {
    const inside = await run('cat notes/todo.txt');
    assert.equal(inside.code, 0, inside.err);
    assert.match(inside.out, /inside-words/, 'the rule allowed a file in the workspace');

    const out = await run('cat notes/link');
    assert.doesNotMatch(out.out + out.err, /SECRET-KEY-OUTSIDE/, 'the file outside was not read');
    assert.match(out.err, /permission denied: Bash \{"command":"cat notes\/link"\}/);
  });

  it('§17.3.1 nor through a symlinked folder, nor with one such name among good ones', async () => {
    for (const command of ['cat notes/dirlink/id_rsa', 'cat notes/todo.txt notes/link']) {
      const r = await run(command);
      assert.doesNotMatch(r.out + r.err, /SECRET-KEY-OUTSIDE/, `${command}: the file outside was not read`);
      assert.match(r.err, /permission denied: Bash/, command);
    }
  });

  it('§17.3.1 a session rule given on the command line (--allow) holds the same line', async () => {
    writeFileSync(rulesFile, JSON.stringify({ version: 2, rules: [] }));
    const r = await run('cat notes/link', ['--allow', 'Bash(cat)']);
    assert.doesNotMatch(r.out + r.err, /SECRET-KEY-OUTSIDE/, 'the file outside was not read');
    assert.match(r.err, /permission denied: Bash/);
    const ok = await run('cat notes/todo.txt', ['--allow', 'Bash(cat)']);
    assert.equal(ok.code, 0, ok.err);
    assert.match(ok.out, /inside-words/);
  });
});
