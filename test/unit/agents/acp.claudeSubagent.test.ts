// The subagent scenario (issue 6) for the real claude-agent-acp (npm
// @agentclientprotocol/claude-agent-acp) behind our ACP adapter, model on the Anthropic mock.
// ACP has no subagent lifecycle, so per §10.7 nothing carries subagent_context: the Agent call is
// one plain tool.invoke.request / tool.invoke.result pair whose result is the subagent's answer
// (agent_result, §5.3.3 category `agent`, §10.4). Temp git workspace and throwaway HOME.
import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { AcpAdapter } from '../../../src/agents/acp/adapter';
import { ACP_PRESETS } from '../../../src/agents/acp/presets';
import type { PayloadOf } from '../../../src/protocol/frameTypes';
import { NodeFsBackend } from '../../../src/workspace/nodeFsBackend';
import { FsEvents } from '../../../src/tools/fsEvents';
import { attachObservationPolicy } from '../../../src/tools/ledger/policy';
import { MockModelServer } from '../../support/mockModel/server';
import { claude, installAnthropic, lastUserText } from '../../support/mockModel/anthropic';
import { RecordingHost } from '../../support/recordingHost';
import { claudeEnv } from '../../support/mockModel/claudeEnv';
import { agentWorkspace, type AgentWorkspace } from '../../support/agentWorkspace';

const ROOT = path.resolve(__dirname, '../../..');

const allowOnce = (req: PayloadOf<'agent.interaction.request'>) => ({ kind: 'response' as const, selected_value: req.options!.find((o) => o.value === 'allow_once')!.value });

describe('ACP adapter against the real claude-agent-acp: a subagent', function () {
  this.timeout(120000);
  let server: MockModelServer;
  let route: string;
  let scratch: AgentWorkspace;
  let ws: string;
  let adapter: AcpAdapter;
  let host: RecordingHost;

  before(async () => {
    server = await MockModelServer.start((s) => {
      route = installAnthropic(s);
    });
  });
  after(async () => {
    await server.stop();
  });
  beforeEach(async () => {
    server.reset();
    // Claude Code makes side calls (titles, summaries): answer them without using the script.
    server.setFallback(route, claude.text('ok'));
    scratch = agentWorkspace('rawp-claude-acp-sub-');
    ws = scratch.ws;
    writeFileSync(path.join(ws, 'a.txt'), 'hello\n');
    const events = new FsEvents();
    attachObservationPolicy(events);
    const preset = ACP_PRESETS['claude-agent-acp'];
    const env = {
      ...claudeEnv(server.url, scratch.home),
      // Claude refuses bypass-style permissions outside a sandbox; these tests always say they are in one.
      IS_SANDBOX: '1',
    };
    adapter = new AcpAdapter({ id: preset.id, displayName: preset.displayName, command: path.join(ROOT, 'node_modules/.bin/claude-agent-acp'), args: preset.args, env, fs: { backend: new NodeFsBackend([ws]), events }, killGraceMs: 2000 });
    host = new RecordingHost(ws, allowOnce);
    await host.open(adapter);
  });
  afterEach(async () => {
    await adapter.dispose();
    scratch.remove();
  });

  function assertValid(): void {
    const r = host.validate();
    assert.equal(r.errors, 0, host.problems());
    assert.deepEqual(host.invalid, []);
  }

  it('§10.7/§10.4 the Agent call is a plain request/result pair (agent_result with the subagent answer), no subagent_context, end_turn, valid stream', async () => {
    server.enqueue(
      route,
      // Main loop: delegate. Then the subagent's own model call answers; then the main loop ends.
      claude.tool('Agent', { description: 'look around', prompt: 'List the files', subagent_type: 'general-purpose', run_in_background: false }),
      claude.text('The subagent saw a.txt only.'),
      claude.text('Delegated: a.txt is the only file.'),
    );
    const t = await host.turn(adapter, 'delegate');
    assert.equal(t.outcome.stop_reason, 'end_turn', host.problems());

    const reqs = host.ofType('tool.invoke.request', t.frames).filter((r) => r.payload.tool_name === 'Agent');
    const results = host.ofType('tool.invoke.result', t.frames).filter((r) => r.payload.tool_name === 'Agent');
    assert.equal(reqs.length, 1, JSON.stringify(host.ofType('tool.invoke.request', t.frames).map((r) => r.payload)));
    assert.equal(results.length, 1);
    assert.equal(results[0].payload.invocation_id, reqs[0].payload.invocation_id);
    assert.equal(reqs[0].payload.subagent, undefined);
    assert.equal((reqs[0].payload.input as { prompt?: unknown }).prompt, 'List the files');
    assert.equal(results[0].payload.status, 'success');
    assert.equal(results[0].payload.output_type, 'agent_result');
    assert.match(JSON.stringify(results[0].payload.output), /The subagent saw a\.txt only\./);
    // The catalog the master sees classes the tool as a subagent delegation (§5.3.3 category agent).
    const agentEntry = host.ofType('tool.catalog.publish', host.frames).at(-1)?.payload.tools.find((tool) => tool.name === 'Agent');
    assert.deepEqual([agentEntry?.category, agentEntry?.output_type], ['agent', 'agent_result']);

    // §10.7: no lifecycle frames and no subagent_context anywhere.
    assert.deepEqual(host.frames.filter((f) => f.type.startsWith('agent.subagent.')), []);
    assert.deepEqual(host.frames.filter((f) => f.metadata?.subagent_context != null).map((f) => f.type), []);
    assert.equal(host.ofType('agent.text.done', t.frames).at(-1)?.payload.full_text, 'Delegated: a.txt is the only file.');
    // The subagent really made its own model call: a request whose user turn is its prompt.
    assert.ok(server.requestsFor(route).some((r) => /List the files/.test(lastUserText(r))));
    assert.equal(server.pending(route), 0);
    assertValid();
  });

  it('§10.7 a tool the subagent calls is shown as a main-agent call (flat, no subagent_context) between the Agent request and its agent_result', async () => {
    server.enqueue(
      route,
      claude.tool('Agent', { description: 'look around', prompt: 'List the files', subagent_type: 'general-purpose', run_in_background: false }),
      claude.tool('Bash', { command: 'ls', description: 'list' }),
      claude.text('There is a.txt.'),
      claude.text('The subagent found a.txt.'),
    );
    const t = await host.turn(adapter, 'delegate');
    assert.equal(t.outcome.stop_reason, 'end_turn', host.problems());
    const seq = t.frames.filter((f) => f.type === 'tool.invoke.request' || f.type === 'tool.invoke.result').map((f) => `${f.type}:${(f.payload as { tool_name: string }).tool_name}`);
    assert.deepEqual(seq, ['tool.invoke.request:Agent', 'tool.invoke.request:Bash', 'tool.invoke.result:Bash', 'tool.invoke.result:Agent']);
    const bash = host.ofType('tool.invoke.result', t.frames).find((r) => r.payload.tool_name === 'Bash')!;
    assert.equal(bash.payload.status, 'success');
    assert.match(String(bash.payload.output), /a\.txt/);
    const agent = host.ofType('tool.invoke.result', t.frames).find((r) => r.payload.tool_name === 'Agent')!;
    assert.equal(agent.payload.output_type, 'agent_result');
    assert.match(String(agent.payload.output), /There is a\.txt\./);
    assert.deepEqual(host.frames.filter((f) => f.type.startsWith('agent.subagent.') || f.metadata?.subagent_context != null).map((f) => f.type), []);
    assert.equal(host.ofType('agent.text.done', t.frames).at(-1)?.payload.full_text, 'The subagent found a.txt.');
    assertValid();
  });
});
