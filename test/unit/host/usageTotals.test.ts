// `/cost`'s figures (src/host/usageTotals.ts, costNotice.ts; decision 677): a turn's later report
// replaces its earlier one, a subagent's report is its own scope, cost and prompts are the last
// report's session counters, and a cost is said only when the agent reports one.
import { strict as assert } from 'node:assert';
import { buildFrame } from '../../../src/protocol/build';
import { costNotice } from '../../../src/host/costNotice';
import { UsageTotals } from '../../../src/host/usageTotals';

const usage = (turn_id: string, input: number, output: number, cost: number, prompts: number, subagent = false) =>
  buildFrame(
    'session.usage',
    { turn_id, token_usage: { input_tokens: input, output_tokens: output }, cost_usage: { limit: -1, used: cost, unit: 'USD' }, message_usage: { limit: -1, used: prompts, unit: 'COUNT' }, time_to_reset: 'PT0S' },
    { session_id: 's', ...(subagent ? { metadata: { subagent_context: { parent_invocation_id: 'task-1', depth: 1 } } } : {}) },
  );

describe('host: /cost totals (slash-commands §7, §7.3, §10.5)', () => {
  it('§7.3 sums turns, a later report of a turn replacing its earlier one; a subagent\'s own report is not the session\'s', () => {
    const totals = new UsageTotals();
    assert.equal(totals.summary(), undefined);
    totals.observe(usage('t1', 100, 10, 0.01, 1));
    totals.observe(usage('t1', 150, 20, 0.02, 1)); // the same turn again, after turn.end: replaces
    totals.observe(usage('t2', 1000, 200, 0.05, 2));
    totals.observe(usage('t2', 5000, 900, 0.05, 2, true)); // a subagent's own scope
    assert.deepEqual(totals.summary(), { prompts: 2, input_tokens: 1150, output_tokens: 220, cost: { limit: -1, used: 0.05, unit: 'USD' } });
  });

  it('says the cost only when the agent reports one, with grouped counts', () => {
    assert.equal(costNotice(undefined).words.id, 'cost_nothing_yet');
    const paid = costNotice({ prompts: 3, input_tokens: 12345, output_tokens: 678, cost: { limit: -1, used: 0.0123, unit: 'USD' } });
    assert.deepEqual(paid.words, { id: 'cost', args: ['3', '12,345', '678', '$0.0123'] });
    assert.match(paid.message, /prompts: 3, tokens in: 12,345, tokens out: 678, cost: \$0\.0123/);
    const free = costNotice({ prompts: 1, input_tokens: 0, output_tokens: 0, cost: { limit: -1, used: 0, unit: 'USD' } });
    assert.equal(free.words.id, 'cost_unreported');
  });
});
