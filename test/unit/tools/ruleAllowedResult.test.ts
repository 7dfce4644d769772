// Decision 691: a call that needed approval and ran unasked because a saved rule allowed it names
// that rule in its tool.invoke.result (`allowed_by_rule`, an optional key §2.2 lets receivers
// ignore); a call the user answered, and one that needs no approval, carry nothing of the kind.
import { strict as assert } from 'node:assert';
import { makeEnv, type Env } from './_env';

describe('tools: a result names the saved rule that let it run unasked (decision 691)', () => {
  let env: Env;
  beforeEach(() => {
    env = makeEnv();
  });
  afterEach(() => {
    env.host.assertAllFramesAccepted();
    env.cleanup();
  });

  const lastResult = (host: Env['host'] = env.host) => host.ofType('tool.invoke.result').at(-1)!.payload;

  it('"always": the asked call has no allowed_by_rule, the next one under the saved rule has its id, lifetime and scope', async () => {
    env.host.answer = () => ({ kind: 'response', selected_value: 'allow_always' });
    await env.call('Write', { file_path: env.p('src/a.ts'), content: 'a\n' });
    assert.equal(env.host.interactions.length, 1);
    assert.equal(lastResult().allowed_by_rule, undefined, 'asked and answered: the question is its story');
    const rule = env.permissions.rules.list()[0];
    const other = env.session();
    await env.call('Write', { file_path: env.p('src/b.ts'), content: 'b\n' }, other.runner);
    assert.equal(other.host.interactions.length, 0, 'not asked');
    const r = lastResult(other.host);
    assert.equal(r.status, 'success');
    assert.equal(r.output_type, 'diff', 'the diff is still the output');
    assert.deepEqual(r.allowed_by_rule, { rule_id: rule.id, lifetime: 'always', tool_name: 'Write', path_glob: 'src/**' });
    other.host.assertAllFramesAccepted();
  });

  it('"for this session": the rule is named with lifetime session; a Read (no approval needed) names none', async () => {
    env.host.answer = () => ({ kind: 'response', selected_value: 'allow_session' });
    await env.call('Write', { file_path: env.p('a.txt'), content: '1\n' });
    await env.call('Write', { file_path: env.p('a.txt'), content: '2\n' });
    assert.equal(env.host.interactions.length, 1);
    assert.equal(lastResult().allowed_by_rule?.lifetime, 'session');
    assert.equal(lastResult().allowed_by_rule?.tool_name, 'Write');
    await env.call('Read', { file_path: env.p('a.txt') });
    assert.equal(lastResult().allowed_by_rule, undefined);
  });
});
