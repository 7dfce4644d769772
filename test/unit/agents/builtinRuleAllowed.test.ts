// Decisions 691, 695: the built-in agent's call that needed approval and ran unasked because a rule
// allowed it names that rule in its tool.invoke.result (`allowed_by_rule`); a call the user
// answered, and one that needs no approval, carry nothing of the kind. The real session engine, the
// real built-in agent and tools, the host's one rules store (its file in a temp folder).
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BuiltinAgent } from '../../../src/agents/builtin';
import { hostPermissionBroker } from '../../../src/host/permissions';
import { AgentSession, type PermissionBroker } from '../../../src/session';
import { buildFrame, type Frame, type PayloadOf } from '../../../src/protocol';

type Result = PayloadOf<'tool.invoke.result'>;

describe('agents/builtin: a result names the rule that let it run unasked (decisions 691, 695)', () => {
  let dir: string;
  let conf: string;
  const sessions: AgentSession[] = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rawp-rule-allowed-'));
    conf = mkdtempSync(join(tmpdir(), 'rawp-rule-allowed-conf-'));
    writeFileSync(join(dir, 'a.ts'), 'export const answer = 41;\n');
  });
  afterEach(async () => {
    for (const s of sessions.splice(0)) await s.end();
    rmSync(dir, { recursive: true, force: true });
    rmSync(conf, { recursive: true, force: true });
  });

  /** A session of the built-in agent that answers every question with `answer`; its frames. */
  async function session(permissions: PermissionBroker, answer: string): Promise<{ prompt(text: string): Promise<{ results: Result[]; asked: number }> }> {
    const frames: Frame[] = [];
    const s: AgentSession = new AgentSession({
      adapter: new BuiltinAgent({}),
      workspacePath: dir,
      permissions,
      out: (f) => {
        frames.push(f);
        if (f.type === 'agent.interaction.request') setImmediate(() => s.handle(buildFrame('control.interaction.response', { interaction_id: f.payload.interaction_id, selected_value: answer }, { session_id: s.session_id }), { connection_id: 'm', kind: 'remote' }));
      },
    });
    sessions.push(s);
    await s.start();
    return {
      async prompt(text) {
        const from = frames.length;
        const ends = () => frames.filter((f) => f.type === 'session.turn.end').length;
        const before = ends();
        s.handle(buildFrame('control.prompt.request', { prompt_text: text }, { session_id: s.session_id }), { connection_id: 'm', kind: 'remote' });
        const deadline = Date.now() + 20_000;
        while (ends() === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
        const turn = frames.slice(from);
        return { results: turn.filter((f) => f.type === 'tool.invoke.result').map((f) => f.payload as Result), asked: turn.filter((f) => f.type === 'agent.interaction.request').length };
      },
    };
  }

  it('§17.3.1 "Always allow": the asked edit names no rule; another session\'s edit under the saved rule names its id, lifetime and scope, and keeps its diff', async () => {
    const permissions = hostPermissionBroker({ rulesFile: join(conf, 'permission-rules.json') });
    const first = await session(permissions, 'allow_always');
    const asked = await first.prompt('replace `41` with `42` in a.ts');
    assert.equal(asked.asked, 1);
    assert.ok(asked.results.every((r) => r.allowed_by_rule === undefined), 'asked and answered: the question tells its story');
    const rule = permissions.rules.list()[0];
    const other = await session(permissions, 'reject');
    const ran = await other.prompt('replace `42` with `43` in a.ts');
    assert.equal(ran.asked, 0, 'not asked');
    assert.equal(readFileSync(join(dir, 'a.ts'), 'utf8'), 'export const answer = 43;\n');
    const edit = ran.results.find((r) => r.tool_name === 'Edit')!;
    assert.equal(edit.status, 'success');
    assert.equal(edit.output_type, 'diff', 'the diff is still the output');
    assert.deepEqual(edit.allowed_by_rule, { rule_id: rule.id, lifetime: 'always', tool_name: rule.tool_name, ...(rule.path_glob !== undefined ? { path_glob: rule.path_glob } : {}) });
    assert.equal(ran.results.find((r) => r.tool_name === 'Read')?.allowed_by_rule, undefined, 'a Read needs no approval: no rule named');
  });

  it('§17.3.1 "Allow for this session": the next edit of the same session names the rule with lifetime session', async () => {
    const permissions = hostPermissionBroker({ rulesFile: join(conf, 'permission-rules.json') });
    const s = await session(permissions, 'allow_session');
    assert.equal((await s.prompt('replace `41` with `42` in a.ts')).asked, 1);
    const again = await s.prompt('replace `42` with `43` in a.ts');
    assert.equal(again.asked, 0);
    const edit = again.results.find((r) => r.tool_name === 'Edit')!;
    assert.equal(edit.allowed_by_rule?.lifetime, 'session');
    assert.equal(edit.allowed_by_rule?.tool_name, 'Edit');
  });
});
