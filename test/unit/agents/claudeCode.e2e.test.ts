// The real `claude` binary (devDependency @anthropic-ai/claude-code) driven by our adapter and the
// session engine, against the scripted mock model server, in a temp git workspace with a throwaway
// HOME. Every recorded wire stream (the engine's frames plus the master's control frames) must
// pass `rawp validate`, and file effects are checked on disk.
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClaudeCodeAdapter, ClaudeCodeOneShotAdapter } from '../../../src/agents/claudeCode';
import type { Frame, PayloadOf } from '../../../src/protocol/frameTypes';
import { buildFrame } from '../../../src/protocol/build';
import { AgentSession, standardPermissionPolicy } from '../../../src/session';
import { hostPermissionBroker } from '../../../src/host/permissions';
import { BuiltinAgent } from '../../../src/agents/builtin/agent';
import { MockModelServer } from '../../support/mockModel/server';
import { claude, lastUserText } from '../../support/mockModel/anthropic';
import { claudeEnv } from '../../support/mockModel/claudeEnv';
import { eventually } from '../../support/settle';
import { Harness, of, text, useRealClaude } from '../../support/claudeHarness';

function isDead(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
}

/** The pid of a live process whose command line is exactly `cmd` (from /proc). */
function pidOf(cmd: string): number | undefined {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ') === cmd && !isDead(Number(name))) return Number(name);
    } catch {
      /* gone */
    }
  }
  return undefined;
}

/** Polls every 50 ms for at most `ms` (a real CLI on a loaded 2-core machine can take seconds). */
describe('Claude Code adapter against the real claude CLI and a mock model', function () {
  this.timeout(60_000);
  let h: Harness;

  useRealClaude();

  it('§13.1 §13.2 plain text: capabilities, catalog, commands, idle; then streamed text deltas, text.done, turn end and usage', async () => {
    h = await Harness.create();
    h.script(claude.text('Hello from the scripted model, streamed in pieces.'));
    const turn = await h.prompt('say hello');
    // The client's capabilities, the master's answer, then the catalog and the commands (§13.1).
    assert.deepEqual(h.wire.slice(0, 4).map((f) => f.type), ['session.capabilities', 'session.capabilities', 'tool.catalog.publish', 'agent.commands.publish']);
    const commands = of(h.wire, 'agent.commands.publish')[0].payload.commands.map((c) => c.name);
    assert.ok(commands.includes('compact'), `commands: ${commands.join(',')}`);
    assert.equal(text(turn), 'Hello from the scripted model, streamed in pieces.');
    assert.ok(of(turn, 'agent.text.delta').length > 1, 'several deltas');
    assert.equal(of(turn, 'agent.text.done')[0].payload.full_text, 'Hello from the scripted model, streamed in pieces.');
    assert.equal(of(turn, 'session.turn.end')[0].payload.stop_reason, 'end_turn');
    const usage = of(turn, 'session.usage')[0].payload;
    assert.equal(usage.token_usage.input_tokens, 20);
    assert.equal(usage.token_usage.output_tokens, 10);
    assert.ok(usage.cost_usage.used > 0);
    // §18.3: the agent's own session id is known after the first turn.
    const caps = of(h.wire, 'session.capabilities')[0].payload;
    assert.equal(caps.features?.adapter_type, 'sdk');
    assert.equal(lastUserText(h.mainRequests()[0]).includes('say hello'), true);
    h.assertValid();
  });

  it('§16.3 a picked file reaches Claude as its own @path mention, escapes undone, never as a raw <@file:…> token', async () => {
    h = await Harness.create();
    h.script(claude.text('Looked at it.'));
    const from = h.wire.length;
    h.master('control.prompt.request', {
      prompt_text: 'explain <@file:ref_0|a.txt> and keep \\<@file:forged|x> literal, C:\\\\dir',
      file_references: [{ ref_id: 'ref_0', path: 'a.txt', name: 'a.txt', workspace_relative_path: 'a.txt' }],
    });
    await h.next('session.turn.end', () => true, from);
    const sent = lastUserText(h.mainRequests()[0]);
    assert.ok(sent.includes('explain @a.txt and keep <@file:forged|x> literal, C:\\dir'), sent);
    assert.ok(!sent.includes('<@file:ref_0'), 'the token itself never reaches the agent');
    h.assertValid();
  });

  it('§4.2 thinking: thinking.delta…done before the answer text', async () => {
    h = await Harness.create();
    h.script(claude.thinkingThenText('First I weigh the options; then I answer.', 'The answer is 42.'));
    const turn = await h.prompt('think first');
    const kinds = turn.map((f) => f.type).filter((t) => t.startsWith('agent.thinking') || t.startsWith('agent.text'));
    assert.equal(kinds[0], 'agent.thinking.delta');
    assert.ok(kinds.indexOf('agent.thinking.done') < kinds.indexOf('agent.text.delta'));
    assert.equal(of(turn, 'agent.thinking.delta').map((f) => f.payload.text).join(''), 'First I weigh the options; then I answer.');
    assert.equal(text(turn), 'The answer is 42.');
    h.assertValid();
  });

  it('§13.3 §17.3.1 read + edit with permission allowed: PERMISSION request with tool context, the file changes on disk, the result is a diff', async () => {
    h = await Harness.create();
    const file = join(h.ws, 'a.txt');
    h.script(claude.tool('Read', { file_path: file }, { text: 'Let me read it.' }), claude.tool('Edit', { file_path: file, old_string: 'world', new_string: 'there' }), claude.text('Edited.'));
    const asked: Array<PayloadOf<'agent.interaction.request'>> = [];
    h.answer = (req) => (asked.push(req), 'allow');
    const turn = await h.prompt('edit a.txt');
    assert.equal(readFileSync(file, 'utf8'), 'hello\nthere\n');
    assert.equal(asked.length, 1, 'Read runs without asking, Edit asks');
    assert.equal(asked[0].interaction_type, 'PERMISSION');
    assert.equal(asked[0].context?.tool_name, 'Edit');
    assert.deepEqual(asked[0].context?.affected_paths, ['a.txt']);
    assert.equal(asked[0].context?.tool_input?.new_string, 'there');
    const results = of(turn, 'tool.invoke.result');
    assert.deepEqual(results.map((r) => [r.payload.tool_name, r.payload.status, r.payload.output_type]), [
      ['Read', 'success', 'file_content'],
      ['Edit', 'success', 'diff'],
    ]);
    assert.equal(results[0].payload.output, 'hello\nworld\n');
    assert.match(String(results[1].payload.output), /--- a\/a\.txt\n\+\+\+ b\/a\.txt\n@@ -1,2 \+1,2 @@\n hello\n-world\n\+there/);
    // §13.3 order: request, permission, result.
    const order = turn.map((f) => f.type).filter((t) => t === 'tool.invoke.request' || t === 'agent.interaction.request' || t === 'tool.invoke.result');
    assert.deepEqual(order, ['tool.invoke.request', 'tool.invoke.result', 'tool.invoke.request', 'agent.interaction.request', 'tool.invoke.result']);
    h.assertValid();
  });

  it('§17.3.1 edit with permission denied: the file is untouched and the tool result is an error the model sees', async () => {
    h = await Harness.create();
    const file = join(h.ws, 'a.txt');
    h.script(claude.tool('Read', { file_path: file }), claude.tool('Edit', { file_path: file, old_string: 'world', new_string: 'there' }), claude.text('Understood, not editing.'));
    h.answer = () => 'deny';
    const turn = await h.prompt('edit a.txt');
    assert.equal(readFileSync(file, 'utf8'), 'hello\nworld\n');
    const r = of(turn, 'tool.invoke.result')[1].payload;
    assert.equal(r.tool_name, 'Edit');
    assert.equal(r.status, 'error');
    assert.match(String(r.output), /denied/i);
    // The model got the denial as the tool result.
    const second = h.mainRequests()[2].rawBody;
    assert.match(second, /The user denied this tool call/);
    assert.equal(text(turn), 'Understood, not editing.');
    h.assertValid();
  });

  it('§17.3.1 decision 698: "Allow for this session" is our rule, not Claude\'s mode: the next edit is answered by the rule and says so, an `rm` is still asked, a revoked rule asks again', async () => {
    h = await Harness.create(undefined, (x) => hostPermissionBroker({ rulesFile: join(x.home, 'permission-rules.json') }));
    const file = join(h.ws, 'a.txt');
    const other = join(h.ws, 'b.txt');
    writeFileSync(other, 'keep me\n');
    h.script(
      claude.tool('Read', { file_path: file }),
      claude.tool('Edit', { file_path: file, old_string: 'hello', new_string: 'hi' }),
      claude.tool('Edit', { file_path: file, old_string: 'world', new_string: 'earth' }),
      claude.tool('Bash', { command: 'rm b.txt' }),
      claude.text('Both done.'),
    );
    const asked: string[] = [];
    h.answer = (req) => {
      const tool = String(req.context?.tool_name);
      asked.push(tool);
      if (tool !== 'Edit') return 'deny';
      assert.ok(req.options?.some((o) => o.value === 'allow_session'));
      return 'allow_session';
    };
    const turn = await h.prompt('two edits and a removal');
    // Claude in acceptEdits (its own suggestion) would run the second edit and `rm` unasked.
    assert.deepEqual(asked, ['Edit', 'Bash']);
    assert.equal(readFileSync(file, 'utf8'), 'hi\nearth\n');
    assert.equal(readFileSync(other, 'utf8'), 'keep me\n', 'the removal was asked and refused');
    const [rule] = h.permissions!.rules.list();
    const edits = of(turn, 'tool.invoke.result').filter((r) => r.payload.tool_name === 'Edit').map((r) => r.payload);
    assert.equal(edits[0].allowed_by_rule, undefined, 'the user allowed the first');
    assert.deepEqual(edits[1].allowed_by_rule, { rule_id: rule.id, lifetime: 'session', tool_name: 'Edit', path_glob: '**' });

    // The rule revoked (the settings list): Claude's next edit is asked again, not run.
    assert.ok(h.permissions!.rules.revoke(rule.id));
    asked.length = 0;
    h.answer = (req) => (asked.push(String(req.context?.tool_name)), 'deny');
    h.script(claude.tool('Edit', { file_path: file, old_string: 'earth', new_string: 'moon' }), claude.text('Left it.'));
    await h.prompt('one more edit');
    assert.deepEqual(asked, ['Edit']);
    assert.equal(readFileSync(file, 'utf8'), 'hi\nearth\n');
    h.assertValid();
  });

  it('§17.3.1 decision 695: an edit Claude Code asks about that a saved rule answers runs unasked, and its result names the rule', async () => {
    h = await Harness.create(undefined, (x) => hostPermissionBroker({ rulesFile: join(x.home, 'permission-rules.json') }));
    const rule = h.permissions!.rules.add({ tool_name: 'Edit', path_glob: '**' }, { decision: 'allow', lifetime: 'always', session_id: h.session.session_id, created_by: 'builtin' });
    const file = join(h.ws, 'a.txt');
    h.script(claude.tool('Read', { file_path: file }), claude.tool('Edit', { file_path: file, old_string: 'world', new_string: 'there' }), claude.text('Edited.'));
    const asked: string[] = [];
    h.answer = (req) => (asked.push(String(req.context?.tool_name)), 'deny');
    const turn = await h.prompt('edit a.txt');
    assert.deepEqual(asked, [], 'the saved rule answered');
    assert.equal(readFileSync(file, 'utf8'), 'hello\nthere\n');
    const results = of(turn, 'tool.invoke.result').map((r) => r.payload);
    assert.deepEqual(results.map((r) => [r.tool_name, r.status]), [['Read', 'success'], ['Edit', 'success']]);
    assert.equal(results[0].allowed_by_rule, undefined, 'Claude reads without asking: no rule named');
    assert.deepEqual(results[1].allowed_by_rule, { rule_id: rule.id, lifetime: 'always', tool_name: 'Edit', path_glob: '**' });
    h.assertValid();
  });

  it('§17.3.1 issue 11 item 4: "Allow for this session" in Claude Code is a rule of the host\'s one store, listed beside an "Always allow" granted through the built-in agent; neither leaks into the other session', async () => {
    h = await Harness.create(undefined, (x) => hostPermissionBroker({ rulesFile: join(x.home, 'permission-rules.json') }));
    const broker = h.permissions!;
    const file = join(h.ws, 'a.txt');
    h.script(
      claude.tool('Read', { file_path: file }),
      claude.tool('Edit', { file_path: file, old_string: 'hello', new_string: 'hi' }),
      claude.tool('Edit', { file_path: file, old_string: 'world', new_string: 'earth' }),
      claude.text('Both done.'),
    );
    const asked: string[] = [];
    h.answer = (req) => (asked.push(String(req.context?.tool_name)), 'allow_session');
    await h.prompt('two edits');
    assert.deepEqual(asked, ['Edit'], 'the second edit is answered by the rule');
    assert.equal(readFileSync(file, 'utf8'), 'hi\nearth\n');
    const claudeRules = broker.rules.list();
    assert.deepEqual(claudeRules.map((r) => [r.tool_name, r.path_glob, r.decision, r.lifetime, r.session_id, r.created_by]), [['Edit', '**', 'allow', 'session', h.session.session_id, 'claude-code']]);

    // A built-in agent session of the same host: Claude's session rule does not answer for it.
    const frames: Frame[] = [];
    const builtin = new AgentSession({
      adapter: new BuiltinAgent({}),
      workspacePath: h.ws,
      permissions: broker,
      out: (f) => {
        frames.push(f);
        if (f.type === 'agent.interaction.request') {
          setImmediate(() => builtin.handle(buildFrame('control.interaction.response', { interaction_id: f.payload.interaction_id, selected_value: 'allow_always' }, { session_id: builtin.session_id }), { connection_id: 'm', kind: 'remote' }));
        }
      },
    });
    try {
      await builtin.start();
      builtin.handle(buildFrame('control.prompt.request', { prompt_text: 'replace `earth` with `moon` in a.txt' }, { session_id: builtin.session_id }), { connection_id: 'm', kind: 'remote' });
      const deadline = Date.now() + 30_000;
      while (!frames.some((f) => f.type === 'session.turn.end') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      assert.equal(frames.filter((f) => f.type === 'agent.interaction.request').length, 1, 'the built-in agent was asked');
      assert.equal(readFileSync(file, 'utf8'), 'hi\nmoon\n');
      // The host lists both, whichever agent made them; the saved one is in the rules file.
      assert.deepEqual(
        broker.rules.list().map((r) => [r.tool_name, r.lifetime, r.created_by]),
        [
          ['Edit', 'always', 'builtin'],
          ['Edit', 'session', 'claude-code'],
        ],
      );
      const saved = JSON.parse(readFileSync(join(h.home, 'permission-rules.json'), 'utf8')) as { rules: Array<{ created_by: string }> };
      assert.deepEqual(saved.rules.map((r) => r.created_by), ['builtin']);
    } finally {
      await builtin.end();
    }
    // Claude's session ends: its session rule goes, the saved one stays.
    await h.session.end();
    assert.deepEqual(broker.rules.list().map((r) => [r.lifetime, r.created_by]), [['always', 'builtin']]);
    h.assertValid();
  });

  it('§5.3.2 a shell command: Bash with permission, its stdout/stderr streamed (sees RAWP_SESSION_ID, §17.2.1), result as text', async () => {
    h = await Harness.create();
    h.script(claude.tool('Bash', { command: 'echo "sid=$RAWP_SESSION_ID"; echo warn >&2; echo done', description: 'print env' }), claude.text('Ran it.'));
    const turn = await h.prompt('run it');
    const streams = of(turn, 'tool.invoke.stream');
    assert.ok(streams.length >= 1);
    assert.deepEqual(streams.map((s) => s.payload.sequence), streams.map((_, i) => i));
    const all = streams.map((s) => s.payload.chunk).join('');
    assert.match(all, new RegExp(`sid=${h.session.session_id}`));
    const r = of(turn, 'tool.invoke.result')[0].payload;
    assert.equal(r.tool_name, 'Bash');
    assert.equal(r.output_type, 'text');
    assert.match(String(r.output), /warn/);
    assert.match(String(r.output), /done/);
    h.assertValid();
  });

  it('§13.4 two tool uses in one model message share a parallel_group_id; both results follow', async () => {
    h = await Harness.create();
    h.script(
      claude.tools([
        { name: 'Bash', input: { command: 'echo one', description: 'one' } },
        { name: 'Bash', input: { command: 'echo two', description: 'two' } },
      ]),
      claude.text('Both ran.'),
    );
    const turn = await h.prompt('run two');
    const reqs = of(turn, 'tool.invoke.request');
    assert.equal(reqs.length, 2);
    assert.ok(reqs[0].payload.parallel_group_id);
    assert.equal(reqs[0].payload.parallel_group_id, reqs[1].payload.parallel_group_id);
    // The CLI runs them concurrently, so the results may come in either order.
    assert.deepEqual(of(turn, 'tool.invoke.result').map((r) => r.payload.output).sort(), ['one', 'two']);
    h.assertValid();
  });

  it('§10 a subagent: Agent request with subagent, started, inner Bash with subagent_context depth 1, ended, agent_result', async () => {
    h = await Harness.create();
    h.script(
      claude.tool('Agent', { description: 'look around', prompt: 'List the files', subagent_type: 'general-purpose', run_in_background: false }),
      claude.tool('Bash', { command: 'ls', description: 'list' }),
      claude.text('There is a.txt.'),
      claude.text('The subagent found a.txt.'),
    );
    const turn = await h.prompt('delegate');
    const seq = turn
      .filter((f) => f.type.startsWith('tool.invoke.request') || f.type.startsWith('tool.invoke.result') || f.type.startsWith('agent.subagent'))
      .map((f) => `${f.type}${f.metadata?.subagent_context ? '@' + f.metadata.subagent_context.depth : ''}`);
    assert.deepEqual(seq, ['tool.invoke.request', 'agent.subagent.started', 'tool.invoke.request@1', 'tool.invoke.result@1', 'agent.subagent.ended', 'tool.invoke.result']);
    const agentReq = of(turn, 'tool.invoke.request')[0].payload;
    assert.equal(agentReq.tool_name, 'Agent');
    assert.equal(agentReq.subagent?.agent_type, 'general-purpose');
    const inner = of(turn, 'tool.invoke.request')[1];
    assert.equal(inner.metadata?.subagent_context?.parent_invocation_id, agentReq.invocation_id);
    const final = of(turn, 'tool.invoke.result').at(-1)!.payload;
    assert.equal(final.output_type, 'agent_result');
    assert.equal(final.output, 'There is a.txt.');
    assert.equal(of(turn, 'agent.subagent.ended')[0].payload.status, 'completed');
    assert.equal(text(turn), 'The subagent found a.txt.');
    h.assertValid();
  });

  it('§10 a subagent the model asks to run in the background still runs inside the turn (background tasks are off by default)', async () => {
    h = await Harness.create();
    h.script(
      claude.tool('Agent', { description: 'in the back', prompt: 'List the files', subagent_type: 'general-purpose', run_in_background: true }),
      claude.tool('Bash', { command: 'ls', description: 'list' }),
      claude.text('Only a.txt.'),
      claude.text('Done delegating.'),
    );
    const turn = await h.prompt('delegate in the background');
    const inner = of(turn, 'tool.invoke.request')[1];
    assert.equal(inner?.metadata?.subagent_context?.depth, 1);
    assert.equal(of(turn, 'tool.invoke.result').at(-1)!.payload.output, 'Only a.txt.');
    assert.equal(text(turn), 'Done delegating.');
    assert.equal(h.mock.pending(h.key), 0);
    h.assertValid();
  });

  it('§6.1.2 cancel mid-turn: interrupt, text.done is_cancelled, turn end "cancelled", the model stream is dropped, and the next prompt works', async () => {
    h = await Harness.create();
    h.script({ blocks: [{ type: 'text', text: 'I am writing a very long answer that never ends' }], hang: true }, claude.text('Fresh start.'));
    const from = h.wire.length;
    h.master('control.prompt.request', { prompt_text: 'write forever' });
    const turnId = (await h.next('session.turn.start', () => true, from)).payload.turn_id;
    await h.next('agent.text.delta', () => true, from);
    h.master('control.prompt.cancel', { target_turn_id: turnId, reason: 'user_cancelled' });
    const end = await h.next('session.turn.end', (f) => f.payload.turn_id === turnId, from);
    assert.equal(end.payload.stop_reason, 'cancelled');
    const turn = h.wire.slice(from);
    const done = of(turn, 'agent.text.done');
    assert.equal(done.length, 1);
    assert.equal(done[0].payload.is_cancelled, true);
    await eventually(() => h.mainRequests()[0].aborted, 'the CLI closed the model connection');
    await h.next('session.usage', (f) => f.payload.turn_id === turnId, from);
    const next = await h.prompt('again');
    assert.equal(text(next), 'Fresh start.');
    h.assertValid();
  });

  it('§6.1.2 cancel while a permission question is open: the question is dropped, the tool does not run, the next prompt works', async () => {
    h = await Harness.create();
    const file = join(h.ws, 'a.txt');
    h.script(claude.tool('Read', { file_path: file }), claude.tool('Edit', { file_path: file, old_string: 'world', new_string: 'there' }), claude.text('After the cancel.'));
    h.answer = () => 'none';
    const from = h.wire.length;
    h.master('control.prompt.request', { prompt_text: 'edit, but I will cancel' });
    const turnId = (await h.next('session.turn.start', () => true, from)).payload.turn_id;
    await h.next('agent.interaction.request', () => true, from);
    h.master('control.prompt.cancel', { target_turn_id: turnId });
    const end = await h.next('session.turn.end', (f) => f.payload.turn_id === turnId, from);
    assert.equal(end.payload.stop_reason, 'cancelled');
    await h.next('session.usage', (f) => f.payload.turn_id === turnId, from);
    const edit = of(h.wire.slice(from), 'tool.invoke.result').find((r) => r.payload.tool_name === 'Edit');
    assert.equal(edit?.payload.status, 'cancelled');
    assert.equal(readFileSync(file, 'utf8'), 'hello\nworld\n');
    h.answer = () => 'allow';
    const next = await h.prompt('just talk');
    assert.equal(text(next), 'After the cancel.');
    h.assertValid();
  });

  it('§18.3 a second turn continues the conversation, and a new process resumes it with --resume <agent session id>', async () => {
    h = await Harness.create();
    h.script(claude.text('First answer.'), claude.text('Second answer.'), claude.text('Third answer, after a restart.'));
    await h.prompt('first question');
    const t2 = await h.prompt('second question');
    assert.equal(text(t2), 'Second answer.');
    const body2 = h.mainRequests()[1].rawBody;
    assert.match(body2, /first question/);
    assert.match(body2, /First answer\./);
    // A fresh adapter + process resuming the same Claude session (§18.3).
    const sid = (h.adapter as unknown as { agentSessionId?: string }).agentSessionId;
    assert.ok(sid, 'agent session id kept');
    await h.session.end();
    await h.open((x) => new ClaudeCodeAdapter({ env: x.env(), resumeSessionId: sid, killGraceMs: 1500 }));
    const clientCaps = of(h.wire, 'session.capabilities').filter((f) => f.payload.features?.adapter_type !== undefined);
    assert.equal(clientCaps.at(-1)!.payload.extensions?.agent_session_id, sid);
    const t3 = await h.prompt('third question');
    assert.equal(text(t3), 'Third answer, after a restart.');
    const body3 = h.mainRequests()[2].rawBody;
    assert.match(body3, /second question/);
    assert.match(body3, /Second answer\./);
    h.assertValid();
  });

  it('§4.4.1 an API error: agent.error (recoverable) and turn end "error"; the session goes on', async () => {
    h = await Harness.create();
    h.script(claude.error(500, 'api_error', 'scripted upstream failure'), claude.text('Recovered.'));
    const turn = await h.prompt('this fails');
    const err = of(turn, 'agent.error').map((f) => f.payload);
    assert.equal(err.length, 1, JSON.stringify(err));
    assert.equal(err[0].error_code, 'API_ERROR');
    assert.equal(err[0].severity, 'error');
    assert.match(err[0].message, /scripted upstream failure/);
    assert.equal(of(turn, 'session.turn.end')[0].payload.stop_reason, 'error');
    const next = await h.prompt('try again');
    assert.equal(text(next), 'Recovered.');
    h.assertValid();
  });

  it('§17.2.2 the agent process killed with SIGKILL mid-turn: fatal SIGNAL_EXIT, turn end "error", session ended (§7.5.3), no process left', async () => {
    h = await Harness.create();
    h.script({ blocks: [{ type: 'text', text: 'Working on it, slowly' }], hang: true });
    const from = h.wire.length;
    h.master('control.prompt.request', { prompt_text: 'long job' });
    const turnId = (await h.next('session.turn.start', () => true, from)).payload.turn_id;
    await h.next('agent.text.delta', () => true, from);
    const pid = (h.adapter as unknown as { proc: { pid: number } }).proc.pid;
    process.kill(pid, 'SIGKILL');
    const end = await h.next('session.turn.end', (f) => f.payload.turn_id === turnId, from);
    assert.equal(end.payload.stop_reason, 'error');
    const err = of(h.wire, 'agent.error').map((f) => f.payload);
    assert.equal(err.length, 1);
    assert.equal(err[0].error_code, 'SIGNAL_EXIT');
    assert.equal(err[0].severity, 'fatal');
    assert.match(err[0].message, /SIGKILL/);
    await h.next('session.deleted', () => true, from);
    const types = h.wire.map((f) => f.type);
    assert.ok(types.indexOf('agent.error') < types.indexOf('session.turn.end'));
    assert.ok(types.indexOf('session.turn.end') < types.indexOf('session.deleted'));
    assert.equal(of(h.wire, 'agent.text.done').at(-1)?.payload.is_cancelled, true);
    assert.equal(isDead(pid), true);
    h.assertValid();
  });

  it('§17.2.3 no orphans: claude SIGKILLed while its Bash tool runs (in a session of its own) leaves no process behind', async () => {
    h = await Harness.create();
    h.script(claude.tool('Bash', { command: 'sleep 41.5', description: 'wait' }));
    const from = h.wire.length;
    h.master('control.prompt.request', { prompt_text: 'wait a while' });
    await h.next('tool.invoke.request', () => true, from);
    let sleeper: number | undefined;
    await eventually(() => (sleeper = pidOf('sleep 41.5')) !== undefined, 'the Bash tool started sleep');
    const claudePid = (h.adapter as unknown as { proc: { pid: number } }).proc.pid;
    process.kill(claudePid, 'SIGKILL');
    await h.next('session.deleted', () => true, from);
    await eventually(() => isDead(sleeper!), `sleep ${sleeper} was orphaned`);
    assert.equal(of(h.wire, 'tool.invoke.result').at(-1)?.payload.status, 'cancelled');
    h.assertValid();
  });

  it('§6.3.2 §9.2-1 plan mode: control.mode.switch to plan puts Claude Code in plan mode without a restart; ExitPlanMode\'s plan is a plan document, approved by a YN request (no "always" answer)', async () => {
    h = await Harness.create();
    h.script(claude.tool('ExitPlanMode', { plan: '1. Read a.txt\n2. Change world to there' }), claude.text('Here is my plan.'));
    const asked: string[] = [];
    h.answer = (req) => (asked.push(`${req.interaction_type} ${String(req.context?.tool_name)} ${req.options?.map((o) => o.value).join('/')}`), 'yes');
    const pid = (h.adapter as unknown as { proc: { pid: number } }).proc.pid;
    const from = h.wire.length;
    h.master('control.mode.switch', { mode: 'plan' });
    await h.next('agent.state.changed', (f) => f.payload.reason === 'mode_switch', from);
    const turn = await h.prompt('plan the change');
    assert.equal(of(turn, 'session.turn.start')[0].payload.mode, 'plan');
    const plan = of(turn, 'agent.text.delta').filter((f) => f.metadata?.content_role === 'plan');
    assert.equal(plan.map((f) => f.payload.text).join(''), '1. Read a.txt\n2. Change world to there');
    assert.deepEqual(asked, ['YN ExitPlanMode yes/no'], 'a YN question for this plan only: no "for this session" or "always"');
    const types = turn.map((f) => f.type);
    assert.ok(types.indexOf('agent.text.done') < types.indexOf('tool.invoke.request'), 'the plan comes before the ExitPlanMode call');
    assert.match(h.mainRequests()[0].rawBody, /plan mode/i);
    assert.equal((h.adapter as unknown as { proc: { pid: number } }).proc.pid, pid, 'same process');
    // An approved plan takes Claude out of plan mode: the engine follows and says so (§6.3.2).
    const left = of(turn, 'agent.state.changed').filter((f) => f.payload.reason === 'mode_switch');
    assert.equal(left.length, 1, 'one mode_switch announcement when Claude leaves plan mode');
    assert.equal((left[0].payload as { mode?: string }).mode, 'default');
    h.script(claude.text('Done.'));
    const next = await h.prompt('go on');
    assert.equal(of(next, 'session.turn.start')[0].payload.mode, 'default');
    h.assertValid();
  });

  it('§9.2-1 a plan the user does not approve: Claude Code hears it was not approved and stays in plan mode', async () => {
    h = await Harness.create();
    h.script(claude.tool('ExitPlanMode', { plan: '1. Delete everything' }), claude.text('Understood, I will keep planning.'));
    h.answer = (req) => (req.interaction_type === 'YN' ? 'no' : 'allow');
    const from = h.wire.length;
    h.master('control.mode.switch', { mode: 'plan' });
    await h.next('agent.state.changed', (f) => f.payload.reason === 'mode_switch', from);
    const turn = await h.prompt('plan a cleanup');
    const result = of(turn, 'tool.invoke.result').find((f) => f.payload.status !== 'success');
    assert.ok(result, 'the ExitPlanMode call did not succeed');
    assert.match(JSON.stringify(h.mainRequests().at(-1)?.rawBody ?? ''), /did not approve the plan/, 'the model is told the plan was not approved');
    assert.equal(of(turn, 'agent.state.changed').filter((f) => f.payload.reason === 'mode_switch').length, 0, 'still in plan mode');
    h.assertValid();
  });

  it('§6.3.1 §7.2.1 control.session.compact runs /compact: session.compacted with the summary and token counts, then usage (§13.6)', async () => {
    h = await Harness.create();
    const file = join(h.ws, 'a.txt');
    h.script(claude.tool('Read', { file_path: file }), claude.text('It says hello world.'), claude.text('<summary>We read a.txt; it says hello world.</summary>'), claude.text('Still here.'));
    await h.prompt('read a.txt');
    const from = h.wire.length;
    h.master('control.session.compact', {});
    const c = (await h.next('session.compacted', () => true, from)).payload;
    assert.equal(c.summary, 'We read a.txt; it says hello world.');
    assert.equal(c.trigger, 'requested');
    assert.ok(c.previous_token_count > 0);
    assert.equal(of(h.wire, 'session.compacted').length, 1, 'announced once');
    await h.next('session.usage', () => true, from);
    const after = await h.prompt('still there?');
    assert.equal(text(after), 'Still here.');
    assert.match(h.mainRequests()[3].rawBody, /We read a\.txt; it says hello world\./);
    h.assertValid();
  });

  it('§6.3.1-1 a turn whose context reaches 0.95 of the window (as Claude Code reports it) makes the engine compact by itself: /compact runs, session.compacted with trigger "auto"', async () => {
    h = await Harness.create();
    // The model says the context holds 960,000 tokens; Claude Code names the window in modelUsage
    // (1,000,000 for the model the mock answers as): 0.96.
    // (Claude Code compacts nothing before a second exchange: "Not enough messages to compact".)
    h.script(claude.text('Short one.'), claude.text('That was a long one.', { usage: { input_tokens: 955_000, cache_read_input_tokens: 5_000, output_tokens: 1_000 } }), claude.text('<summary>A long conversation, summed up.</summary>'), claude.text('Fresh again.'));
    await h.prompt('hello');
    assert.equal(of(h.wire, 'session.compacted').length, 0, 'a small context: no compaction');
    const from = h.wire.length;
    const turn = await h.prompt('read everything');
    const usage = of(turn, 'session.usage').at(-1)!.payload;
    assert.ok((usage.context_window?.utilization ?? 0) >= 0.95, `utilization ${JSON.stringify(usage.context_window)}`);
    const c = (await h.next('session.compacted', () => true, from)).payload;
    assert.equal(c.trigger, 'auto');
    assert.equal(c.summary, 'A long conversation, summed up.');
    assert.ok(c.previous_token_count >= 950_000, `previous ${c.previous_token_count}`);
    const after = await h.prompt('still there?');
    assert.equal(text(after), 'Fresh again.');
    assert.match(h.mainRequests().at(-1)!.rawBody, /A long conversation, summed up\./, 'the next request starts from the summary');
    h.assertValid();
  });

  it('§17.2 a claude that cannot start fails start() with its stderr; a missing binary says which command', async () => {
    const mock = await MockModelServer.start();
    const ws = mkdtempSync(join(tmpdir(), 'rawp-cc-bad-'));
    const host = { session_id: '6f1c0e2a-3b4d-4e5f-8a9b-0c1d2e3f4a5b', workspacePath: ws, mode: 'default' as const, emit: () => assert.fail('no frames from a failed start'), checkTool: () => ({ allowed: true as const }), requestInteraction: async () => ({ kind: 'cancelled' as const }), askPermission: async () => ({ allowed: false as const, lifetime: 'once' as const, via: 'cancelled' as const, message: 'no' }), policy: standardPermissionPolicy() };
    try {
      const bad = new ClaudeCodeAdapter({ env: claudeEnv(mock.url, ws), extraArgs: ['--no-such-flag-xyz'], killGraceMs: 1000 });
      await assert.rejects(bad.start(host), /Claude Code did not start[\s\S]*no-such-flag-xyz/);
      const missing = new ClaudeCodeAdapter({ command: join(ws, 'not-claude'), killGraceMs: 1000 });
      await assert.rejects(missing.start(host), /cannot run .*not-claude: .*ENOENT/);
    } finally {
      await mock.stop();
      rmSync(ws, { recursive: true, force: true });
    }
  });

  it('a /compact typed as a prompt compacts inside its turn: session.compacted (manual) before the turn ends', async () => {
    h = await Harness.create();
    const file = join(h.ws, 'a.txt');
    h.script(claude.tool('Read', { file_path: file }), claude.text('Read.'), claude.text('<summary>Read a.txt.</summary>'));
    await h.prompt('read it');
    const turn = await h.prompt('/compact');
    const c = of(turn, 'session.compacted');
    assert.equal(c.length, 1);
    assert.equal(c[0].payload.summary, 'Read a.txt.');
    assert.equal(c[0].payload.trigger, 'manual');
    assert.equal(of(turn, 'session.turn.end')[0].payload.stop_reason, 'end_turn');
    h.assertValid();
  });

  it('§18 one-shot fallback: one process per prompt, none between turns, the second run resumes with --resume', async () => {
    h = await Harness.create((x) => new ClaudeCodeOneShotAdapter({ env: x.env(), killGraceMs: 1500 }));
    h.script(claude.text('One.'), claude.text('Two.'));
    const t1 = await h.prompt('first');
    assert.equal(text(t1), 'One.');
    const runner = (h.adapter as unknown as { runner: { process?: unknown; state: string; agentSessionId?: string; nextArgs(): string[] } }).runner;
    assert.equal(runner.process, undefined);
    assert.equal(runner.state, 'idle');
    assert.ok(runner.agentSessionId);
    assert.deepEqual(runner.nextArgs().slice(-2), ['--resume', runner.agentSessionId]);
    const t2 = await h.prompt('second');
    assert.equal(text(t2), 'Two.');
    assert.match(h.mainRequests()[1].rawBody, /One\./);
    h.assertValid();
  });
});
