// §10.5 with the real `claude` binary (devDependency @anthropic-ai/claude-code) against the scripted
// mock model: a foreground subagent's own usage goes out on its own, with its subagent_context, and
// stays out of the main agent's figures (decision 631).
import { strict as assert } from 'node:assert';
import { claude } from '../../support/mockModel/anthropic';
import { Harness, of, useRealClaude } from '../../support/claudeHarness';

describe('agents/claude-code: a subagent reports its own usage (real CLI, decision 631)', function () {
  this.timeout(60_000);
  let h: Harness;

  useRealClaude();

  it('§10.5-1 §10.2-3 the Agent subagent\'s tokens come as a session.usage of its own with subagent_context (depth 1), before it ends; the main turn\'s usage and context window count only the main agent', async () => {
    h = await Harness.create();
    h.script(
      // The main agent delegates…
      claude.tool('Agent', { description: 'look around', prompt: 'List the files', subagent_type: 'general-purpose', run_in_background: false }, { usage: { input_tokens: 100, output_tokens: 10 } }),
      // …the subagent runs a command, then answers…
      claude.tool('Bash', { command: 'ls', description: 'list' }, { usage: { input_tokens: 300, output_tokens: 30, cache_read_input_tokens: 7 } }),
      claude.text('There is a.txt.', { usage: { input_tokens: 400, output_tokens: 40, cache_creation_input_tokens: 5 } }),
      // …and the main agent sums up.
      claude.text('The subagent found a.txt.', { usage: { input_tokens: 200, output_tokens: 20 } }),
    );
    const turn = await h.prompt('delegate');
    const agentReq = of(turn, 'tool.invoke.request').find((f) => f.payload.tool_name === 'Agent');
    assert.ok(agentReq, 'the Agent call');
    const usages = of(turn, 'session.usage');
    const sub = usages.filter((u) => u.metadata?.subagent_context);
    assert.equal(sub.length, 1, `one report of the subagent's own: ${JSON.stringify(usages.map((u) => u.metadata ?? null))}`);
    const report = sub[0];
    assert.deepEqual(report.metadata?.subagent_context, { parent_invocation_id: agentReq.payload.invocation_id, depth: 1, agent_type: 'general-purpose' });
    // Inside the subagent: after its start, before its end (§10.3.2 order).
    const at = (f: { message_id: string }) => turn.findIndex((x) => x.message_id === f.message_id);
    const started = at(of(turn, 'agent.subagent.started')[0]);
    const ended = at(of(turn, 'agent.subagent.ended')[0]);
    assert.ok(started < at(report) && at(report) < ended, turn.map((f) => f.type).join(', '));
    // Every frame in between is the subagent's, the usage report among them (§10.2-3) — but the
    // Agent call's own progress (tool.invoke.stream of its invocation, §13.5), which is the caller's.
    const inside = turn.slice(started + 1, ended).filter((f) => !(f.type === 'tool.invoke.stream' && f.payload.invocation_id === agentReq.payload.invocation_id));
    assert.deepEqual([...new Set(inside.map((f) => f.type))].sort(), ['session.usage', 'tool.invoke.request', 'tool.invoke.result', 'tool.invoke.stream']);
    for (const f of inside) assert.equal(f.metadata?.subagent_context?.parent_invocation_id, agentReq.payload.invocation_id, f.type);

    // The subagent's two model calls: input and cache counts exact; the answer's output exact, the
    // Bash call's output as far as the CLI wrote it (its line precedes the count's final value).
    const t = report.payload.token_usage;
    assert.equal(t.input_tokens, 300 + 400);
    assert.equal(t.cache_read_tokens, 7);
    assert.equal(t.cache_write_tokens, 5);
    assert.ok(t.output_tokens >= 40 + 1 && t.output_tokens <= 40 + 30, `output_tokens ${t.output_tokens}`);
    // Its own context window: what the subagent's context held at its answer.
    assert.deepEqual(report.payload.context_window, { used: 400 + 5 + 40 });
    // The session's counters are the engine's (one prompt so far), as in every report.
    assert.equal(report.payload.message_usage.used, 1);
    assert.equal(report.payload.turn_id, undefined);

    // The turn's own report: the main agent's calls only (100 + 200 in, 10 + 20 out), and the main
    // context (its last call, as the stream started it: 200 in + 1 out), none of the subagent's.
    const main = usages.filter((u) => !u.metadata?.subagent_context);
    assert.equal(main.length, 1);
    assert.equal(main[0].payload.token_usage.input_tokens, 300);
    assert.equal(main[0].payload.token_usage.output_tokens, 30);
    assert.equal(main[0].payload.context_window?.used, 201);
    assert.equal(main[0].payload.message_usage.used, 1);
    h.assertValid();
  });
});
