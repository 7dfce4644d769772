// A call that ran without a question because a rule allowed it says so on its result, for every
// agent: the session layer gives the rule's verdict and marks the result that closes the call the
// adapter named in its question (decisions 691, 695). An adapter cannot claim a rule itself.
import { strict as assert } from 'node:assert';
import { PermissionBroker, PermissionRules } from '../../../src/session/permissions';
import { ruleMatches } from '../../../src/tools/permissions/rules';
import { EngineHarness } from '../../support/engineHarness';
import { until } from '../../support/settle';
import type { Step } from '../../support/scriptedAdapter';

const write = (id: string, named = true): Step => ({ kind: 'tool', id, name: 'Write', input: { file_path: 'src/a.ts' }, permission: { paths: ['src/a.ts'], named }, output: 'written' });

function brokerWithRule(lifetime: 'always' | 'session' | undefined): PermissionBroker {
  const rules = new PermissionRules({ matches: ruleMatches });
  if (lifetime) rules.add({ tool_name: 'Write', path_glob: 'src/**' }, { decision: 'allow', lifetime, session_id: 'any', created_by: 'builtin' });
  return new PermissionBroker(undefined, rules);
}

describe('session: a result names the rule that let its call run unasked (decision 695)', () => {
  it('§17.3.1 a saved rule answers: no question, and the result carries the rule id, lifetime and scope', async () => {
    const permissions = brokerWithRule('always');
    const h = await EngineHarness.start({ turns: [{ steps: [write('w1')] }] }, { permissions });
    const from = await h.runTurn();
    assert.equal(h.ofType('agent.interaction.request', from).length, 0, 'not asked');
    const rule = permissions.rules.list()[0];
    const result = h.ofType('tool.invoke.result', from)[0].payload;
    assert.equal(result.status, 'success');
    assert.deepEqual(result.allowed_by_rule, { rule_id: rule.id, lifetime: 'always', tool_name: 'Write', path_glob: 'src/**' });
  });

  it('§17.3.1 a call the user answered carries no rule; "for this session" makes one, and the next call names it', async () => {
    const h = await EngineHarness.start({ turns: [{ steps: [write('w1'), write('w2')] }] }, { permissions: brokerWithRule(undefined) });
    const from = h.frames.length;
    h.prompt();
    await until(() => h.ofType('agent.interaction.request', from).length === 1, 'the question');
    const req = h.ofType('agent.interaction.request', from)[0].payload;
    h.control('control.interaction.response', { interaction_id: req.interaction_id, selected_value: 'allow_session' });
    await h.turnEnded();
    const [first, second] = h.ofType('tool.invoke.result', from).map((f) => f.payload);
    assert.equal(first.allowed_by_rule, undefined, 'asked and answered: the question tells its story');
    assert.equal(second.allowed_by_rule?.lifetime, 'session');
    assert.equal(h.ofType('agent.interaction.request', from).length, 1);
  });

  it('§2.2 only our verdict names a rule: an adapter\'s own allowed_by_rule is taken out, and a question that names no call marks nothing', async () => {
    const forged = { rule_id: 'r-forged', lifetime: 'always' as const, tool_name: 'Bash' };
    const h = await EngineHarness.start(
      {
        turns: [
          {
            steps: [
              { kind: 'emit', event: { type: 'tool.invoke.request', payload: { invocation_id: 'b1', tool_name: 'Bash', input: { command: 'ls' } } } },
              { kind: 'emit', event: { type: 'tool.invoke.result', payload: { invocation_id: 'b1', tool_name: 'Bash', status: 'success', output: 'ok', output_type: 'text', allowed_by_rule: forged } } },
              write('w3', false),
            ],
          },
        ],
      },
      { permissions: brokerWithRule('always') },
    );
    const from = await h.runTurn();
    const results = h.ofType('tool.invoke.result', from).map((f) => f.payload);
    assert.deepEqual(results.map((r) => r.invocation_id), ['b1', 'w3']);
    assert.ok(results.every((r) => r.allowed_by_rule === undefined), JSON.stringify(results));
  });
});
