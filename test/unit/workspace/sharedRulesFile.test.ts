// One rules file, several hosts (decision 579): the editor and every `rawp serve` keep "always"
// rules in ~/.config/rawp/permission-rules.json by default, and people edit it by hand. Each host
// wrote its own list over the file, so the last to save erased the others' rules (found by a
// trial: serve B's "always allow `echo fromB`" was gone after serve A saved one). A change is now
// made to the file as it is, and a host reads it again when it changed. Real files.
import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PermissionRules, type PermissionRule } from '../../../src/session/permissions';
import { ruleMatches } from '../../../src/tools/permissions/rules';
import { permissionRulesFile } from '../../../src/workspace/permissionRulesFile';

const always = (created_by: string) => ({ decision: 'allow' as const, lifetime: 'always' as const, session_id: 's', created_by });
const bash = (command: string) => ({ tool_name: 'Bash', paths: [], command });

describe('workspace/shared rules file: hosts sharing one permission rules file keep each other’s rules (decision 579)', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rawp-shared-rules-'));
    file = join(dir, 'permission-rules.json');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const host = (problems: string[] = []) => new PermissionRules({ matches: ruleMatches, persistence: permissionRulesFile(file), onProblem: (m) => void problems.push(m) });
  const kept = () => (JSON.parse(readFileSync(file, 'utf8')) as { rules: PermissionRule[] }).rules.map((r) => r.command_prefix ?? r.tool_name);

  it('two hosts add rules in turn: the file keeps both, and each host applies the other’s at once', () => {
    const a = host();
    const b = host();
    assert.equal(a.find(bash('echo fromB'), 's'), undefined, 'A has read the (empty) file');
    b.add({ tool_name: 'Bash', command_prefix: 'echo fromB' }, always('serve-b'));
    a.add({ tool_name: 'Bash', command_prefix: 'echo fromA' }, always('serve-a'));
    assert.deepEqual(kept(), ['echo fromB', 'echo fromA'], 'A did not write its own list over B’s rule');
    assert.equal(a.find(bash('echo fromB'), 's')?.created_by, 'serve-b', 'A applies B’s rule without a restart');
    assert.equal(b.find(bash('echo fromA'), 's')?.created_by, 'serve-a', 'and B applies A’s');
    // The same rule from both: kept once, and both hosts name the one kept.
    const fromA = a.add({ tool_name: 'Edit', path_glob: 'src/**' }, always('serve-a'));
    const fromB = b.add({ tool_name: 'Edit', path_glob: 'src/**' }, always('serve-b'));
    assert.equal(fromB.id, fromA.id);
    assert.deepEqual(kept(), ['echo fromB', 'echo fromA', 'Edit']);
  });

  it('a rule added to the file by hand while hosts run is kept and applied; a revoke removes only its rule', () => {
    const a = host();
    const mine = a.add({ tool_name: 'Bash', command_prefix: 'npm test' }, always('builtin'));
    const byHand = JSON.parse(readFileSync(file, 'utf8')) as { version: number; rules: unknown[] };
    byHand.rules.push({ id: 'hand-1', tool_name: 'Bash', command_prefix: 'echo handadded', decision: 'allow', created_at: '2026-12-05T00:00:00.000Z' });
    writeFileSync(file, JSON.stringify(byHand));
    assert.equal(a.find(bash('echo handadded'), 's')?.id, 'hand-1', 'applied without a restart');
    const b = host();
    b.add({ tool_name: 'Bash', command_prefix: 'make' }, always('builtin'));
    assert.equal(a.revoke(mine.id), true);
    assert.deepEqual(kept(), ['echo handadded', 'make'], 'the hand-added and the other host’s rules stay');
    assert.equal(b.find(bash('npm test'), 's'), undefined, 'the other host sees the revoke');
  });

  it('a file that cannot be read is said, and left where it is until a host writes rules: then it is moved aside first, never overwritten', () => {
    const problems: string[] = [];
    const a = host(problems);
    a.add({ tool_name: 'Bash', command_prefix: 'npm test' }, always('builtin'));
    writeFileSync(file, '{"rules": [ not json');
    assert.equal(a.find(bash('npm test'), 's'), undefined, 'the file as it is now has no rule');
    assert.equal(problems.length, 1);
    assert.match(problems[0], /permission rules in .*permission-rules\.json could not be read .*; they are not used until the file is fixed, and it is left as it is/);
    assert.equal(readFileSync(file, 'utf8'), '{"rules": [ not json', 'a reader leaves a half-edited file alone (the headless trial of 2026-12-05)');
    assert.ok(!readdirSync(dir).some((n) => n.includes('.corrupt-')));
    a.add({ tool_name: 'Bash', command_prefix: 'make' }, always('builtin'));
    assert.ok(readdirSync(dir).some((n) => n.includes('.corrupt-')), 'moved aside before the write, not lost');
    assert.match(problems.at(-1) ?? '', /; kept as .*\.corrupt-\d+/);
    assert.ok(existsSync(file));
  });

  it('a file fixed after it could not be read is used again, by every host (nothing was moved)', () => {
    const a = host();
    a.add({ tool_name: 'Bash', command_prefix: 'npm test' }, always('builtin'));
    const good = readFileSync(file, 'utf8');
    writeFileSync(file, good.slice(0, -5));
    assert.equal(a.find(bash('npm test'), 's'), undefined);
    writeFileSync(file, good);
    assert.ok(a.find(bash('npm test'), 's'), 'the rule is back');
    assert.ok(host().find(bash('npm test'), 's'), 'and a new host has it');
  });
});
