import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BuiltinAgent } from '../../../src/agents/builtin';
import type { AgentPrompt } from '../../../src/session/agentAdapter';
import { FakeHost } from '../../support/fakeHost';

function prompt(text: string, extra: Partial<AgentPrompt> = {}): AgentPrompt {
  return { turn_id: globalThis.crypto.randomUUID(), turn_index: 0, text, input_type: 'text', mode: 'default', file_references: [], context_files: [], ...extra };
}

describe('agents/builtin: the offline agent over the real tools', () => {
  let dir: string;
  let conf: string;
  let host: FakeHost;
  let agent: BuiltinAgent;
  const run = (text: string, extra: Partial<AgentPrompt> = {}, signal = new AbortController().signal) => agent.prompt(prompt(text, extra), signal);
  const texts = () => host.ofType('agent.text.done').map((e) => e.payload.full_text ?? '');
  const lastText = () => texts().at(-1) ?? '';

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rawp-builtin-'));
    conf = mkdtempSync(join(tmpdir(), 'rawp-builtin-conf-'));
    mkdirSync(join(dir, 'src'));
    writeFileSync(join(dir, 'src', 'a.ts'), 'export const greeting = "hello";\n// TODO: more\n');
    host = new FakeHost(dir);
    host.answer = (req) => ({ kind: 'response', selected_value: req.interaction_type === 'YN' ? 'yes' : 'allow_once' });
    agent = new BuiltinAgent({ settings: { killGraceMs: 200 } });
    const started = await agent.start(host);
    assert.equal(agent.info.adapter_type, 'sdk');
    assert.equal(started.capabilities.features.adapter_type, 'sdk');
    assert.ok(started.tools.some((t) => t.name === 'Bash'));
    assert.deepEqual(started.commands.map((c) => c.name), ['compact', 'help']);
  });
  afterEach(async () => {
    host.assertAllFramesAccepted();
    await agent.dispose();
    rmSync(dir, { recursive: true, force: true });
    rmSync(conf, { recursive: true, force: true });
  });

  it('§4.1 streams text as deltas (joined = full_text), after a thinking block, and reports zero usage', async () => {
    const out = await run('help');
    assert.deepEqual(out, { stop_reason: 'end_turn', usage: { input_tokens: 0, output_tokens: 0 } });
    const types = host.types();
    assert.deepEqual(types.slice(0, 1), ['agent.thinking.delta']);
    assert.ok(types.indexOf('agent.thinking.done') < types.indexOf('agent.text.delta'));
    const deltas = host.ofType('agent.text.delta');
    assert.ok(deltas.length > 1, 'more than one delta');
    assert.equal(deltas.map((d) => d.payload.text).join(''), lastText());
    assert.match(lastText(), /`read <path>`/);
    assert.notEqual(host.ofType('agent.thinking.delta')[0].payload.content_index, deltas[0].payload.content_index);
  });

  it('§16 "read @file" with a file-reference token runs Read and shows the file', async () => {
    await run('read <@file:ref_0|a.ts>', { file_references: [{ ref_id: 'ref_0', path: join(dir, 'src/a.ts'), name: 'a.ts', workspace_relative_path: 'src/a.ts' }] });
    const req = host.ofType('tool.invoke.request')[0];
    assert.equal(req.payload.tool_name, 'Read');
    assert.equal(req.payload.input.file_path, 'src/a.ts');
    assert.equal(host.ofType('tool.invoke.result')[0].payload.output_type, 'file_content');
    assert.match(String(host.ofType('tool.invoke.result')[0].payload.output), /1\texport const greeting = "hello";/);
    // Issue 15 Why 7: the contents are shown once, by the Read card; the reply only names the file.
    assert.equal(lastText(), 'Read `src/a.ts` (2 lines).');
  });

  it('a Read that shows no lines is said as such: binary, empty, past the end (each said "(1 line)"); a cut read counts its lines, not its tail', async () => {
    writeFileSync(join(dir, 'logo.bin'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02, 0x0a, 0xff]));
    writeFileSync(join(dir, 'empty.txt'), '');
    writeFileSync(join(dir, 'long.txt'), Array.from({ length: 2500 }, (_, i) => `line ${i + 1}`).join('\n'));
    await run('read logo.bin');
    assert.equal(lastText(), '`logo.bin` is a binary file; its contents are not shown.');
    await run('read empty.txt');
    assert.equal(lastText(), 'Read `empty.txt`: the file is empty.');
    await run('read src/a.ts lines 10-12');
    assert.equal(lastText(), '`src/a.ts` has 2 lines, so there is nothing from line 10 on.');
    await run('read long.txt');
    assert.equal(lastText(), 'Read `long.txt` (2000 lines, truncated).', 'the "… more lines" tail is not a line of the file');
  });

  it('builtin grammar: "find <regex>" runs Grep', async () => {
    await run('find TODO:?');
    assert.equal(host.ofType('tool.invoke.request')[0].payload.tool_name, 'Grep');
    assert.match(String(host.ofType('tool.invoke.result')[0].payload.output), /src\/a.ts:2:\/\/ TODO: more/);
    assert.equal(lastText(), 'Found 1 matching line for `TODO:?`.', 'issue 15 Why 7: the matches are shown once, by the Grep card');
  });

  it('read-before-write: "replace `a` with `b` in <path>" reads first (no refused FS_NOT_OBSERVED call on the way, issue 15 Why 6), asks permission, edits, and says so', async () => {
    await run('replace `"hello"` with `"hi"` in src/a.ts');
    assert.deepEqual(host.ofType('tool.invoke.request').map((r) => r.payload.tool_name), ['Read', 'Edit']);
    assert.deepEqual(host.ofType('tool.invoke.result').map((r) => r.payload.error_code ?? r.payload.status), ['success', 'success']);
    assert.equal(host.interactions.filter((i) => i.interaction_type === 'PERMISSION').length, 1, 'no prompt for an edit the ledger refuses');
    assert.equal(readFileSync(join(dir, 'src/a.ts'), 'utf8'), 'export const greeting = "hi";\n// TODO: more\n');
    assert.match(lastText(), /I read `src\/a.ts` first \(edits need a read\)\. Replaced 1 occurrence/);
    assert.equal(host.ofType('tool.invoke.result')[1].payload.output_type, 'diff');
    await run('replace `"hi"` with `"hey"` in src/a.ts');
    assert.deepEqual(host.ofType('tool.invoke.request').map((r) => r.payload.tool_name), ['Read', 'Edit', 'Edit'], 'a file it has read is edited without another read');
  });

  it('read-before-write: "write <path>: …" creates new files and refuses to overwrite an unread one', async () => {
    await run('write notes/todo.md: # Notes\nfirst');
    assert.equal(readFileSync(join(dir, 'notes/todo.md'), 'utf8'), '# Notes\nfirst\n');
    assert.equal(lastText(), 'Created `notes/todo.md` (2 lines).');
    await run('write one.txt: x');
    assert.equal(lastText(), 'Created `one.txt` (1 line).', 'one line is "1 line" (it said "1 lines")');
    await run('write src/a.ts: clobbered');
    assert.match(lastText(), /already exists and I have not read it/);
    assert.match(readFileSync(join(dir, 'src/a.ts'), 'utf8'), /greeting/);
    await run('read src/a.ts');
    await run('write src/a.ts: replaced');
    assert.equal(readFileSync(join(dir, 'src/a.ts'), 'utf8'), 'replaced\n');
  });

  it('§5.3.2 "run `command`" streams the output of Bash', async () => {
    await run('run `echo one; echo two >&2`');
    const streams = host.ofType('tool.invoke.stream');
    assert.deepEqual(streams.map((s) => [s.payload.stream_type, s.payload.sequence]), [['stdout', 0], ['stderr', 1]]);
    assert.match(String(host.ofType('tool.invoke.result')[0].payload.output), /one\ntwo/);
    assert.equal(lastText(), '`echo one; echo two >&2` finished.', 'issue 15 Why 7: the output is shown once, by the Bash card');
    await run('run `echo three; exit 3`');
    assert.equal(lastText(), '`echo three; exit 3` failed with exit code 3.');
  });

  it('§6.1.2 a cancelled turn stops the running command and ends cancelled', async () => {
    const ac = new AbortController();
    const pending = run('run `echo started; sleep 30`', {}, ac.signal);
    while (host.ofType('tool.invoke.stream').length === 0) await new Promise((r) => setTimeout(r, 10));
    ac.abort();
    const out = await pending;
    assert.equal(out.stop_reason, 'cancelled');
    assert.equal(host.ofType('tool.invoke.result')[0].payload.status, 'cancelled');
  });

  it('§8.2 "todo: a; b; c" writes the task list (structured)', async () => {
    await run('todo: write tests; fix bugs; ship');
    const result = host.ofType('tool.invoke.result')[0];
    assert.equal(result.payload.output_type, 'structured');
    assert.equal((result.payload.output as { count: number }).count, 3);
    // The list is on the card and in the task panel; the reply says what changed, once.
    assert.equal(lastText(), 'Task list updated: 3 tasks (1 in progress, 2 to do, 0 done).');
    assert.deepEqual((result.payload.output as { todos: { content: string }[] }).todos.map((t) => t.content), ['write tests', 'fix bugs', 'ship']);
    await run('todos');
    assert.equal(lastText(), 'Task list: 3 tasks (1 in progress, 2 to do, 0 done).');
  });

  it('§9.1 "plan: …" sends a plan document (content_role plan) and §9.2-1 asks YN approval before carrying it out', async () => {
    await run('plan: read src/a.ts; replace `hello` with `bye` in src/a.ts; make it faster');
    const planDeltas = host.ofType('agent.text.delta').filter((d) => d.metadata?.content_role === 'plan');
    assert.ok(planDeltas.length > 0);
    const planId = planDeltas[0].metadata?.plan_id;
    assert.ok(planId && planDeltas.every((d) => d.metadata?.plan_id === planId));
    const planDone = host.ofType('agent.text.done').find((d) => d.metadata?.content_role === 'plan')!;
    assert.match(planDone.payload.full_text ?? '', /## Plan\n\n1\. read src\/a.ts\n2\. replace `hello` with `bye` in src\/a.ts\n3\. make it faster _\(not something/);
    const yn = host.interactions.find((i) => i.interaction_type === 'YN')!;
    assert.equal(yn.default_value, 'no');
    const types = host.types();
    assert.ok(types.indexOf('agent.interaction.request') < types.indexOf('tool.invoke.request'), 'approval before any tool');
    assert.match(readFileSync(join(dir, 'src/a.ts'), 'utf8'), /"bye"/);
  });

  it('§9.2 a rejected plan runs nothing', async () => {
    host.answer = () => ({ kind: 'response', selected_value: 'no' });
    await run('plan: run `touch ran`');
    assert.equal(host.ofType('tool.invoke.request').length, 0);
    assert.match(lastText(), /Plan rejected/);
  });

  it('§6.3.2 in plan mode, write requests get "Tool not allowed in current mode"', async () => {
    host.mode = 'plan';
    await run('replace `hello` with `bye` in src/a.ts');
    assert.match(lastText(), /Tool not allowed in current mode/);
    assert.match(readFileSync(join(dir, 'src/a.ts'), 'utf8'), /hello/);
  });

  it('§10 "delegate: …" runs a Task subagent with started/ended framing, subagent_context depth 1 and an agent_result', async () => {
    await run('delegate: find greeting');
    const types = host.types();
    const req = host.ofType('tool.invoke.request')[0];
    assert.equal(req.payload.tool_name, 'Task');
    assert.deepEqual(req.payload.subagent, { agent_type: 'general-purpose', description: 'find greeting' });
    const iStarted = types.indexOf('agent.subagent.started');
    assert.equal(iStarted, types.indexOf('tool.invoke.request') + 1, '§10.3.1 right after the request');
    const started = host.ofType('agent.subagent.started')[0];
    assert.equal(started.payload.parent_invocation_id, req.payload.invocation_id);
    assert.equal(started.payload.depth, 1);
    const inner = host.events.slice(iStarted + 1, types.indexOf('agent.subagent.ended'));
    assert.ok(inner.length > 0);
    assert.ok(inner.every((e) => e.metadata?.subagent_context?.parent_invocation_id === req.payload.invocation_id && e.metadata.subagent_context.depth === 1));
    assert.ok(inner.some((e) => e.type === 'tool.invoke.request' && e.payload.tool_name === 'Grep'));
    assert.ok(inner.some((e) => e.type === 'session.usage'), '§10.5 subagent usage with its context');
    const iEnded = types.indexOf('agent.subagent.ended');
    const taskResult = host.ofType('tool.invoke.result').find((r) => r.payload.tool_name === 'Task')!;
    assert.equal(host.events[iEnded + 1], taskResult, '§10.3.2 right before the result');
    assert.equal(taskResult.payload.output_type, 'agent_result');
    assert.equal(host.ofType('agent.subagent.ended')[0].payload.status, 'completed');
    assert.equal(lastText(), 'The subagent finished.', 'issue 15 Why 7: its answer is shown once, by the Task card');
    assert.match(JSON.stringify(taskResult.payload.output), /Found 1 matching line for `greeting`/);
  });

  it('a failed delegate says the subagent\'s failure in words (it said "The subagent failed: [object Object]": Task fails with {status, result}, decision 705)', async () => {
    await run('delegate: read missing.txt');
    const taskResult = host.ofType('tool.invoke.result').find((r) => r.payload.tool_name === 'Task')!;
    assert.equal(taskResult.payload.status, 'error');
    assert.equal(typeof taskResult.payload.output, 'object');
    assert.match(lastText(), /^The subagent failed: Reading `missing\.txt` failed \(FS_NOT_FOUND\): /);
    assert.doesNotMatch(lastText(), /\[object Object\]/);
  });

  it('§7.2.1 "/compact" reports session.compacted with honest zero token counts', async () => {
    await run('write b.txt: x');
    await run('/compact keep notes', { input_type: 'slash_command' });
    const c = host.ofType('session.compacted')[0];
    assert.equal(c.payload.previous_token_count, 0);
    assert.deepEqual(c.payload.preserved_elements?.files_modified, ['b.txt']);
    assert.match(c.payload.summary, /Kept as asked: keep notes/);
    const direct = await agent.compact(undefined);
    assert.equal(direct.trigger, 'manual');
  });

  it('builtin grammar: anything else answers how to connect a real agent', async () => {
    await run('Please refactor the auth module');
    assert.match(lastText(), /don't understand free text/);
    assert.match(lastText(), /Claude Code/);
    assert.equal(host.ofType('tool.invoke.request').length, 0);
  });
});
