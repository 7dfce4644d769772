// The session layer's one permission policy and rules store (issue 11 item 4): risk, timeout and
// default per ask, rules of every lifetime and decision, persistence through the port, and the
// broker that asks once for every agent.
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PermissionBroker, PermissionRules, PERMISSION_VALUES, riskOf, standardPermissionPolicy, type AskContext, type PermissionQuestion, type PermissionRule, type RulePersistence } from '../../../src/session/permissions';
import type { InteractionAnswer } from '../../../src/session/agentAdapter';
import type { PayloadOf } from '../../../src/protocol/frameTypes';
import { RiskLevel } from '../../../src/protocol/common';
import { ruleMatches } from '../../../src/tools/permissions/rules';
import { permissionRulesFile } from '../../../src/workspace/permissionRulesFile';
import { hostPermissionBroker } from '../../../src/host/permissions';

type Request = PayloadOf<'agent.interaction.request'>;

/** Rules kept in memory; `saved` is what was kept after each change. */
function memory(initial: PermissionRule[] = []): RulePersistence & { saved: PermissionRule[][] } {
  const saved: PermissionRule[][] = [];
  let kept = initial.map((r) => ({ ...r }));
  return {
    saved,
    load: () => ({ rules: kept.map((r) => ({ ...r })) }),
    update: (change) => {
      kept = 'add' in change ? [...kept, { ...change.add }] : kept.filter((r) => r.id !== change.remove);
      saved.push(kept.map((r) => ({ ...r })));
      return { rules: kept.map((r) => ({ ...r })) };
    },
  };
}

function ctx(answer: (r: Request) => InteractionAnswer, asked: Request[], session_id = 's1', agent_id = 'builtin'): AskContext {
  let n = 0;
  return { session_id, agent_id, newId: () => `i${++n}`, requestInteraction: async (r) => (asked.push(r), answer(r)) };
}

const write = (path: string): PermissionQuestion => ({ call: { tool_name: 'Write', paths: [path] }, input: { file_path: path }, scope: { tool_name: 'Write', path_glob: 'src/**' }, scopeText: 'Write on src/**' });
const pick = (value: string) => (): InteractionAnswer => ({ kind: 'response', selected_value: value });

describe('session/permissions: one policy and one rules store (issue 11 item 4, §4.3.1, §17.3.1)', () => {
  it('§4.3.1 the policy gives each ask its risk (spelled as the zod RiskLevel), timeout and a reject default', () => {
    const policy = standardPermissionPolicy({ timeoutSec: 42, cancelGraceMs: 1234 });
    assert.deepEqual(policy.terms({ tool_name: 'Edit', paths: ['a.ts'] }), { risk_level: 'moderate', timeout_sec: 42, default_answer: 'reject' });
    assert.equal(policy.cancelGraceMs, 1234);
    assert.equal(riskOf({ tool_name: 'Read', paths: ['a.ts'] }), 'safe');
    assert.equal(riskOf({ tool_name: 'Bash', paths: [], command: 'ls -la' }), 'moderate');
    assert.equal(riskOf({ tool_name: 'Bash', paths: [], command: 'rm -rf build' }), 'dangerous');
    assert.equal(riskOf({ tool_name: 'Read', paths: ['/etc/passwd'], outsideWorkspace: true }), 'dangerous');
    for (const r of ['safe', 'moderate', 'dangerous'] as const) assert.ok(RiskLevel.safeParse(r).success);
    // Nonsense settings fall back to the defaults instead of asking with a negative timeout.
    assert.deepEqual([standardPermissionPolicy({ timeoutSec: -1 }).terms({ tool_name: 'X', paths: [] }).timeout_sec, standardPermissionPolicy({ cancelGraceMs: Number.NaN }).cancelGraceMs], [300, 5000]);
  });

  it('§17.3.1 the store keeps session rules per session and always rules through the persistence port; reject wins; revoke and session end remove', () => {
    const disk = memory();
    const rules = new PermissionRules({ persistence: disk, matches: ruleMatches, now: () => new Date(0) });
    let changes = 0;
    rules.onChange(() => changes++);
    const session = rules.add({ tool_name: 'Write', path_glob: 'src/**' }, { decision: 'allow', lifetime: 'session', session_id: 's1', created_by: 'claude-code' });
    const always = rules.add({ tool_name: 'Bash', command_prefix: 'npm test' }, { decision: 'allow', lifetime: 'always', session_id: 's1', created_by: 'builtin' });
    assert.equal(rules.add({ tool_name: 'Bash', command_prefix: 'npm test' }, { decision: 'allow', lifetime: 'always', session_id: 's2', created_by: 'acp:gemini' }).id, always.id, 'the same rule is not added twice');
    assert.deepEqual(disk.saved.at(-1)?.map((r) => r.id), [always.id], 'only always rules are persisted');
    assert.equal(rules.find({ tool_name: 'Write', paths: ['src/a.ts'] }, 's1')?.id, session.id);
    assert.equal(rules.find({ tool_name: 'Write', paths: ['src/a.ts'] }, 's2'), undefined, 'a session rule does not leak into another session');
    assert.equal(rules.find({ tool_name: 'Bash', paths: [], command: 'npm test' }, 's2')?.id, always.id);
    const reject = rules.add({ tool_name: 'Write', path_glob: 'src/**' }, { decision: 'reject', lifetime: 'always', session_id: 's1', created_by: 'acp:gemini' });
    assert.equal(rules.find({ tool_name: 'Write', paths: ['src/a.ts'] }, 's1')?.id, reject.id, 'a reject rule wins over an allow rule');
    assert.deepEqual(rules.list().map((r) => [r.tool_name, r.lifetime, r.decision, r.created_by]), [
      ['Bash', 'always', 'allow', 'builtin'],
      ['Write', 'always', 'reject', 'acp:gemini'],
      ['Write', 'session', 'allow', 'claude-code'],
    ]);
    assert.equal(rules.revoke(reject.id), true);
    assert.equal(rules.revoke(reject.id), false);
    rules.forgetSession('s1');
    assert.deepEqual(rules.list().map((r) => r.id), [always.id]);
    assert.equal(changes, 5);
  });

  it('§17.3.1 a rule answers at once; otherwise one PERMISSION ask with the policy terms, and the answer becomes a rule of its lifetime', async () => {
    const broker = new PermissionBroker(standardPermissionPolicy({ timeoutSec: 60 }), new PermissionRules({ matches: ruleMatches }));
    const asked: Request[] = [];
    const v1 = await broker.ask(write('src/a.ts'), ctx(pick(PERMISSION_VALUES.session), asked));
    assert.deepEqual([v1.allowed, v1.lifetime, v1.via], [true, 'session', 'user']);
    const req = asked[0];
    assert.equal(req.interaction_type, 'PERMISSION');
    assert.equal(req.timeout_sec, 60);
    assert.equal(req.default_value, 'reject');
    assert.deepEqual(req.options?.map((o) => [o.value, o.risk_level]), [
      ['allow_once', 'moderate'],
      ['allow_session', 'moderate'],
      ['allow_always', 'moderate'],
      ['reject', 'safe'],
    ]);
    assert.deepEqual(req.context, { tool_name: 'Write', tool_input: { file_path: 'src/a.ts' }, affected_paths: ['src/a.ts'] });
    // The same session: the rule answers; another agent of the same session too.
    const v2 = await broker.ask(write('src/b.ts'), ctx(pick('reject'), asked, 's1', 'claude-code'));
    assert.deepEqual([v2.allowed, v2.via, asked.length], [true, 'rule', 1]);
    assert.deepEqual(broker.rules.list().map((r) => [r.created_by, r.session_id]), [['builtin', 's1']]);
    // Another session is asked.
    const v3 = await broker.ask(write('src/c.ts'), ctx(pick('reject'), asked, 's2'));
    assert.deepEqual([v3.allowed, v3.via, asked.length], [false, 'user', 2]);
  });

  it('§17.3.1 "Always allow" saves the rule for the host\'s workspace, says so, and the rule answers only there; a rule with no workspace answers everywhere (decision 708)', async () => {
    const disk = memory();
    let here: string | undefined = '/home/me/project';
    const rules = new PermissionRules({ persistence: disk, matches: ruleMatches, workspace: () => here });
    const broker = new PermissionBroker(standardPermissionPolicy({ timeoutSec: 60 }), rules);
    const asked: Request[] = [];
    const v = await broker.ask(write('src/a.ts'), ctx(pick(PERMISSION_VALUES.always), asked));
    assert.deepEqual([v.allowed, v.lifetime], [true, 'always']);
    assert.equal(asked[0].options?.find((o) => o.value === 'allow_always')?.description, 'Saved rule for this workspace: Write on src/**');
    assert.equal(disk.saved.at(-1)?.[0].workspace, '/home/me/project', 'kept with its workspace');
    assert.equal(rules.find({ tool_name: 'Write', paths: ['src/b.ts'] }, 's9')?.id, v.rule?.id, 'another session of the same workspace');
    here = '/tmp/cloned';
    assert.equal(rules.find({ tool_name: 'Write', paths: ['src/b.ts'] }, 's1'), undefined, 'not in another workspace');
    const again = await broker.ask(write('src/b.ts'), ctx(pick(PERMISSION_VALUES.always), asked));
    assert.equal(again.via, 'user', 'asked there');
    assert.notEqual(again.rule?.id, v.rule?.id, 'a rule of its own for that workspace, not the first one again');
    assert.deepEqual(rules.list().map((r) => r.workspace), ['/home/me/project', '/tmp/cloned']);
    here = undefined;
    const everywhere = new PermissionRules({ persistence: memory([{ id: 'old', tool_name: 'Write', path_glob: '**', decision: 'allow', lifetime: 'always', created_by: 'builtin', created_at: '2026-01-01T00:00:00.000Z' }]), matches: ruleMatches, workspace: () => '/anywhere' });
    assert.equal(everywhere.find({ tool_name: 'Write', paths: ['x.ts'] }, 's1')?.id, 'old');
    const noWorkspace = new PermissionBroker(standardPermissionPolicy({ timeoutSec: 60 }), new PermissionRules({ matches: ruleMatches }));
    const asked2: Request[] = [];
    await noWorkspace.ask(write('src/a.ts'), ctx(pick('reject'), asked2));
    assert.equal(asked2[0].options?.find((o) => o.value === 'allow_always')?.description, 'Saved rule for every workspace: Write on src/**', 'a host that names no workspace says so');
  });

  it('a saved rule keeps its workspace in the host rules file across a restart, and the same rule for two workspaces is kept twice (decision 708)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rawp-rules-ws-'));
    try {
      const file = join(dir, 'rules.json');
      const make = (ws: string) => new PermissionRules({ persistence: permissionRulesFile(file), matches: ruleMatches, workspace: () => ws });
      make('/a').add({ tool_name: 'Bash', command_prefix: 'make test' }, { decision: 'allow', lifetime: 'always', session_id: 's1', created_by: 'builtin' });
      make('/b').add({ tool_name: 'Bash', command_prefix: 'make test' }, { decision: 'allow', lifetime: 'always', session_id: 's2', created_by: 'builtin' });
      make('/a').add({ tool_name: 'Bash', command_prefix: 'make test' }, { decision: 'allow', lifetime: 'always', session_id: 's3', created_by: 'builtin' });
      const kept = (JSON.parse(readFileSync(file, 'utf8')) as { rules: PermissionRule[] }).rules;
      assert.deepEqual(kept.map((r) => r.workspace), ['/a', '/b']);
      const call = { tool_name: 'Bash', paths: [], command: 'make test' };
      assert.equal(make('/a').find(call, 'sx')?.workspace, '/a');
      assert.equal(make('/c').find(call, 'sx'), undefined);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('§17.3.1 silence rejects: a timeout, a default taken on timeout, a dismissal; an unknown value rejects; the text goes back', async () => {
    const broker = new PermissionBroker();
    const asked: Request[] = [];
    const verdict = (a: InteractionAnswer) => broker.ask(write('src/a.ts'), ctx(() => a, asked));
    assert.equal((await verdict({ kind: 'timeout' })).via, 'timeout');
    assert.equal((await verdict({ kind: 'response', selected_value: 'allow_once', by_default: true })).via, 'timeout');
    assert.equal((await verdict({ kind: 'cancelled' })).via, 'cancelled');
    const bogus = await verdict({ kind: 'response', selected_value: 'allow_everything' });
    assert.deepEqual([bogus.allowed, bogus.via], [false, 'user']);
    const why = await verdict({ kind: 'response', selected_value: 'reject', text_input: ' use b.ts ' });
    assert.ok(!why.allowed && why.text_input === 'use b.ts' && /^this Write call was rejected: use b\.ts$/.test(why.message));
    assert.deepEqual(broker.rules.list(), [], 'nothing of this became a rule');
  });

  it('§4.3.1 offers follow what the agent can honour; outside the workspace every call asks, once at most', async () => {
    const broker = new PermissionBroker();
    const asked: Request[] = [];
    await broker.ask({ ...write('src/a.ts'), offer: { session: true, always: false, rejectAlways: true } }, ctx(pick(PERMISSION_VALUES.rejectAlways), asked));
    assert.deepEqual(asked[0].options?.map((o) => o.value), ['allow_once', 'allow_session', 'reject', 'reject_always']);
    assert.deepEqual(broker.rules.list().map((r) => [r.decision, r.lifetime]), [['reject', 'always']]);
    const rejected = await broker.ask(write('src/b.ts'), ctx(pick('allow_once'), asked));
    assert.deepEqual([rejected.allowed, rejected.via, asked.length], [false, 'rule', 1], 'the saved reject answers without asking');
    // A value not offered is not honoured as longer than once.
    await broker.ask({ ...write('lib/x.ts'), scope: { tool_name: 'Write', path_glob: 'lib/**' }, offer: { always: false } }, ctx(pick(PERMISSION_VALUES.always), asked));
    assert.equal(broker.rules.list().length, 1);
    const outside = { ...write('/etc/hosts'), call: { tool_name: 'Write', paths: ['/etc/hosts'], outsideWorkspace: true } };
    broker.rules.add({ tool_name: 'Write' }, { decision: 'allow', lifetime: 'always', session_id: 's1', created_by: 'builtin' });
    const before = asked.length;
    const v = await broker.ask(outside, ctx(pick(PERMISSION_VALUES.once), asked));
    assert.deepEqual([v.allowed, v.lifetime, v.via, asked.length], [true, 'once', 'user', before + 1], 'asked despite the rule');
    assert.deepEqual(asked.at(-1)?.options?.map((o) => o.value), ['allow_once', 'reject']);
    assert.match(asked.at(-1)?.question_text ?? '', /^OUTSIDE THE WORKSPACE: /);
    assert.equal(asked.at(-1)?.options?.[0].risk_level, 'dangerous');
    // A Bash call with no command makes a rule that matches nothing ("exactly ``"): none is offered.
    await broker.ask({ call: { tool_name: 'Bash', paths: [], command: '  ' }, input: { command: '  ' }, scope: { tool_name: 'Bash', command_prefix: '' }, scopeText: 'Bash: exactly ``' }, ctx(pick('reject'), asked));
    assert.deepEqual(asked.at(-1)?.options?.map((o) => o.value), ['allow_once', 'reject']);
  });

  it('"always" rules survive a restart in the host rules file; an old file (no decision, no author) reads as built-in allow rules; bad rules are reported', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rawp-perm-'));
    try {
      const file = join(dir, 'rules.json');
      writeFileSync(file, JSON.stringify({ version: 1, rules: [{ id: 'r1', tool_name: 'Write', path_glob: 'src/**', created_at: '2026-01-01T00:00:00.000Z' }, { id: 7, tool_name: 'Bash' }] }));
      const broker = hostPermissionBroker({ rulesFile: file });
      assert.deepEqual(broker.rules.list(), [{ id: 'r1', tool_name: 'Write', path_glob: 'src/**', decision: 'allow', lifetime: 'always', created_by: 'builtin', created_at: '2026-01-01T00:00:00.000Z' }]);
      assert.match(broker.rules.loadError ?? '', /skipped rule 2: id: .*expected string/);
      broker.rules.add({ tool_name: 'Edit' }, { decision: 'reject', lifetime: 'always', session_id: 's', created_by: 'acp:gemini' });
      const saved = JSON.parse(readFileSync(file, 'utf8')) as { version: number; rules: PermissionRule[] };
      assert.equal(saved.version, 2);
      assert.deepEqual(saved.rules.map((r) => [r.tool_name, r.decision, r.created_by]), [['Write', 'allow', 'builtin'], ['Edit', 'reject', 'acp:gemini']]);
      const again = new PermissionRules({ persistence: permissionRulesFile(file), matches: ruleMatches });
      assert.equal(again.find({ tool_name: 'Edit', paths: ['x'] }, 'other')?.decision, 'reject');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
