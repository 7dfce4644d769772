// Security property "a saved rule does not follow the user into another repository" (decision 708):
// an "always" rule holds in the workspace it was granted in. The review's case: `Write` anywhere
// and `Bash(make test)` allowed for good in one's own project, then `rawp run` in a freshly cloned,
// hostile one ran its Makefile and wrote a file without a question. The built `rawp run` with the
// built-in agent, a real rules file and real workspaces.
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCliOnce, rawpRun, runScratch, type RunScratch } from '../support/rawpRun';
import { realLocation } from '../../src/workspace/realLocation';

describe('security: saved permission rules hold in their own workspace (decision 708; the built rawp run)', function () {
  this.timeout(120_000);
  let scratch: RunScratch;
  before(() => buildCliOnce());
  beforeEach(() => (scratch = runScratch('rawp-rules-ws-', 'a\n')));
  afterEach(() => scratch.remove());

  const rule = (over: Record<string, unknown>) => ({ id: `r-${Math.random()}`, decision: 'allow', lifetime: 'always', created_by: 'builtin', created_at: '2026-12-06T00:00:00.000Z', ...over });

  it('§17.3.1 a rule saved for one workspace answers there (also when the workspace is named through a symlink), and is not used in another: the write is denied and nothing runs', async () => {
    const own = scratch.ws;
    const cloned = join(scratch.dir, 'cloned');
    mkdirSync(cloned);
    writeFileSync(join(cloned, 'Makefile'), 'test:\n\ttouch ran-the-makefile\n');
    writeFileSync(join(own, 'Makefile'), 'test:\n\ttouch ran-the-makefile\n');
    symlinkSync(own, join(scratch.dir, 'own-link'));
    const rulesFile = join(scratch.dir, 'rules.json');
    writeFileSync(rulesFile, JSON.stringify({ version: 2, rules: [rule({ tool_name: 'Write', path_glob: '**', workspace: realLocation(own) }), rule({ tool_name: 'Bash', command_prefix: 'make test', workspace: realLocation(own) })] }));
    const prompt = 'run `make test`\nwrite y.txt: hi';

    const there = await rawpRun(['--workspace', cloned, '--agent', 'builtin', '--rules-file', rulesFile, prompt], { env: scratch.env });
    assert.equal(existsSync(join(cloned, 'ran-the-makefile')), false, `the cloned Makefile did not run: ${there.err}`);
    assert.equal(existsSync(join(cloned, 'y.txt')), false, 'nothing written in the other workspace');
    assert.match(there.err, /permission denied: Bash \{"command":"make test"\}/);
    assert.match(there.err, /permission denied: Write /);

    const here = await rawpRun(['--workspace', join(scratch.dir, 'own-link'), '--agent', 'builtin', '--rules-file', rulesFile, prompt], { env: scratch.env });
    assert.equal(here.code, 0, here.err);
    assert.equal(existsSync(join(own, 'ran-the-makefile')), true, 'make test ran under the rule');
    assert.equal(readFileSync(join(own, 'y.txt'), 'utf8'), 'hi\n');
  });

  it('§17.3.1 a rule with no workspace (written by hand, or saved before decision 708) still holds in every workspace', async () => {
    const other = join(scratch.dir, 'other');
    mkdirSync(other);
    const rulesFile = join(scratch.dir, 'rules.json');
    writeFileSync(rulesFile, JSON.stringify({ version: 2, rules: [rule({ tool_name: 'Write', path_glob: '**' })] }));
    const r = await rawpRun(['--workspace', other, '--agent', 'builtin', '--rules-file', rulesFile, 'write y.txt: hi'], { env: scratch.env });
    assert.equal(r.code, 0, r.err);
    assert.equal(readFileSync(join(other, 'y.txt'), 'utf8'), 'hi\n');
  });
});
