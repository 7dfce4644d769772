// `rawp convert --from claude-code`: real Claude Code captures (test/fixtures/native/claude-code)
// -> DPS frames that `rawp validate` accepts, with the Appendix A mapping visible in the frames.
import { strict as assert } from 'node:assert';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { runCli } from '../../../src/cli/main';
import { validateText } from '../../../src/protocol/conformance';
import type { Frame } from '../../../src/protocol/frameTypes';
import { parseFrame } from '../../../src/protocol/parse';

const dir = join(__dirname, '..', '..', 'fixtures', 'native', 'claude-code');

async function convert(args: string[], stdin = ''): Promise<{ code: number; stdout: string; stderr: string; frames: Frame[] }> {
  const io = { stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough() };
  let stdout = '';
  let stderr = '';
  io.stdout.on('data', (c) => (stdout += c));
  io.stderr.on('data', (c) => (stderr += c));
  io.stdin.end(stdin);
  const code = await runCli(['convert', ...args], io);
  const frames: Frame[] = [];
  for (const l of stdout.split('\n').filter(Boolean)) {
    const r = parseFrame(l);
    assert.equal(r.kind, 'accepted', l);
    if (r.kind === 'accepted' && !r.vendor) frames.push(r.frame);
  }
  return { code, stdout, stderr, frames };
}

const types = (fs: Frame[]) => fs.map((f) => f.type);
function only<T extends Frame['type']>(fs: Frame[], t: T) {
  return fs.filter((f): f is Extract<Frame, { type: T }> => f.type === t);
}

describe('rawp convert --from claude-code', () => {
  it('input with nothing to convert (every line garbage, or empty) exits 1 with a word why and writes no frames; an empty --session-id is a usage error (both exited 0 with frames rawp validate refused)', async () => {
    for (const input of ['not json\n{"also":"not a line of a transcript"\n', '']) {
      const r = await convert(['--from', 'claude-code'], input);
      assert.equal(r.code, 1, input);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, /rawp convert: nothing in the input could be read as --from claude-code \(.*\); no frames were written\n$/);
    }
    const bad = await convert(['--from', 'claude-code', '--session-id', ''], readFileSync(join(dir, 'bash.jsonl'), 'utf8'));
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--session-id must not be empty/);
  });

  it('a byte order mark before the first line (Windows editors write one) is not read as part of it: the same frames, no skipped line', async () => {
    const text = readFileSync(join(dir, 'bash.jsonl'), 'utf8');
    const plain = await convert(['--from', 'claude-code'], text);
    const marked = await convert(['--from', 'claude-code'], `\ufeff${text}`);
    assert.equal(marked.code, 0);
    assert.equal(marked.stderr, plain.stderr, 'no line skipped for the mark');
    assert.deepEqual(types(marked.frames), types(plain.frames));
  });

  for (const file of readdirSync(dir).filter((f) => f.endsWith('.jsonl'))) {
    it(`§13 ${file}: every frame parses and the stream passes rawp validate without errors`, async () => {
      const r = await convert(['--from', 'claude-code', join(dir, file)]);
      assert.equal(r.code, 0, r.stderr);
      const v = validateText(r.stdout);
      assert.equal(v.errors, 0, JSON.stringify(v.problems, null, 1));
      assert.deepEqual(types(r.frames).slice(0, 4), ['session.capabilities', 'tool.catalog.publish', 'agent.commands.publish', 'agent.state.changed']);
      // §7.5.2: every turn end is followed at once by its session.usage.
      r.frames.forEach((f, i) => f.type === 'session.turn.end' && assert.equal(r.frames[i + 1]?.type, 'session.usage'));
    });
  }

  it('§5.3.1 Appendix A: Read -> file_content, a denied Edit -> error result after a PERMISSION request with context', async () => {
    const { frames } = await convert(['--from', 'claude-code', join(dir, 'read-edit-denied.jsonl')]);
    const results = only(frames, 'tool.invoke.result');
    assert.deepEqual(results.map((r) => [r.payload.tool_name, r.payload.status, r.payload.output_type]), [
      ['Read', 'success', 'file_content'],
      ['Edit', 'error', 'text'],
    ]);
    assert.equal(results[0].payload.output, 'hello\nworld\n');
    const ask = only(frames, 'agent.interaction.request')[0].payload;
    assert.equal(ask.interaction_type, 'PERMISSION');
    assert.equal(ask.context?.tool_name, 'Edit');
    assert.deepEqual(ask.context?.tool_input, { file_path: results.length && (only(frames, 'tool.invoke.request')[1].payload.input.file_path as string), old_string: 'world', new_string: 'there', replace_all: false });
    // §13.3: the tool request comes before its permission request.
    assert.ok(types(frames).indexOf('tool.invoke.request') < types(frames).indexOf('agent.interaction.request'));
  });

  it('§13.4 two tool uses of one assistant message share a parallel_group_id; Bash output is streamed then returned as text', async () => {
    const { frames } = await convert(['--from', 'claude-code', join(dir, 'parallel.jsonl')]);
    const reqs = only(frames, 'tool.invoke.request');
    assert.equal(reqs.length, 2);
    assert.ok(reqs[0].payload.parallel_group_id);
    assert.equal(reqs[0].payload.parallel_group_id, reqs[1].payload.parallel_group_id);
    const streams = only(frames, 'tool.invoke.stream');
    assert.deepEqual(streams.map((s) => [s.payload.chunk, s.payload.stream_type, s.payload.sequence]), [
      ['a', 'stdout', 0],
      ['b', 'stdout', 0],
    ]);
  });

  it('§10 a subagent: request with subagent, started, inner frames with subagent_context depth 1, ended, agent_result', async () => {
    const { frames } = await convert(['--from', 'claude-code', join(dir, 'subagent.jsonl')]);
    const seq = frames.filter((f) => f.type.startsWith('tool.') || f.type.startsWith('agent.subagent')).map((f) => `${f.type}${f.metadata?.subagent_context ? '@' + f.metadata.subagent_context.depth : ''}`);
    assert.deepEqual(seq, [
      'tool.catalog.publish',
      'tool.invoke.request',
      'agent.subagent.started',
      'tool.invoke.stream',
      'tool.invoke.request@1',
      'tool.invoke.stream@1',
      'tool.invoke.result@1',
      'agent.subagent.ended',
      'tool.invoke.result',
    ]);
    const agentReq = only(frames, 'tool.invoke.request')[0];
    assert.deepEqual(agentReq.payload.subagent, { agent_type: 'general-purpose', description: 'look around' });
    const inner = only(frames, 'tool.invoke.request')[1];
    assert.equal(inner.metadata?.subagent_context?.parent_invocation_id, agentReq.payload.invocation_id);
    const res = only(frames, 'tool.invoke.result').at(-1)!.payload;
    assert.equal(res.output_type, 'agent_result');
    assert.equal(res.output, 'sub result text');
  });

  it('§4.2 thinking streams as thinking.delta/done before the text block', async () => {
    const { frames } = await convert(['--from', 'claude-code', join(dir, 'thinking.jsonl')]);
    const t = types(frames).filter((x) => x.startsWith('agent.thinking') || x.startsWith('agent.text'));
    assert.equal(t[0], 'agent.thinking.delta');
    assert.ok(t.indexOf('agent.thinking.done') < t.indexOf('agent.text.delta'));
    assert.equal(only(frames, 'agent.thinking.delta').map((f) => f.payload.text).join(''), 'Let me think about it carefully.');
  });

  it('§6.1.2 an interrupted turn closes its text with is_cancelled and ends "cancelled"; the next turn is normal', async () => {
    const { frames } = await convert(['--from', 'claude-code', join(dir, 'interrupt-then-second-turn.jsonl')]);
    const done = only(frames, 'agent.text.done');
    assert.equal(done[0].payload.is_cancelled, true);
    assert.deepEqual(only(frames, 'session.turn.end').map((f) => f.payload.stop_reason), ['cancelled', 'end_turn']);
  });

  it('§4.4 an API error becomes agent.error (warning for the retry, error at the end) and turn end "error"', async () => {
    const { frames } = await convert(['--from', 'claude-code', join(dir, 'api-error.jsonl')]);
    const errors = only(frames, 'agent.error').map((f) => [f.payload.error_code, f.payload.severity]);
    assert.deepEqual(errors, [
      ['API_RETRY', 'warning'],
      ['API_ERROR', 'error'],
    ]);
    assert.deepEqual(only(frames, 'session.turn.end').map((f) => f.payload.stop_reason), ['error']);
    assert.equal(only(frames, 'agent.text.delta').length, 0, 'the CLI\'s synthetic "API Error" text is not repeated as agent text');
  });

  it('§7.2.1 /compact becomes session.compacted with the summary and token counts', async () => {
    const { frames } = await convert(['--from', 'claude-code', join(dir, 'compact.jsonl')]);
    const c = only(frames, 'session.compacted');
    assert.equal(c.length, 1);
    assert.deepEqual(c[0].payload, { summary: 'We read a.txt.', previous_token_count: 30, current_token_count: 626, trigger: 'manual' });
  });

  it('§7.3.1 usage: tokens per turn and the session cost as a running total', async () => {
    const { frames } = await convert(['--from', 'claude-code', join(dir, 'compact.jsonl')]);
    const u = only(frames, 'session.usage').map((f) => f.payload);
    assert.deepEqual(u.map((p) => p.token_usage.input_tokens), [40, 20, 20]);
    assert.deepEqual(u.map((p) => p.cost_usage.used), [0.0007, 0.00105, 0.0014]);
  });

  it('bad input loses nothing: non-JSON lines are reported on stderr with their line numbers, the rest converts', async () => {
    const good = '{"type":"assistant","message":{"id":"m1","content":[{"type":"text","text":"hi"}]},"parent_tool_use_id":null}';
    const r = await convert(['--from', 'claude-code', '--session-id', '11111111-2222-4333-8444-555555555555'], `garbage\n${good}\n{"type":"result","subtype":"success","is_error":false,"usage":{"input_tokens":1,"output_tokens":2}}\n`);
    assert.equal(r.code, 0);
    assert.match(r.stderr, /^convert: 1: not JSON/);
    assert.equal(only(r.frames, 'agent.text.delta')[0].payload.text, 'hi');
    assert.ok(r.frames.every((f) => f.session_id === '11111111-2222-4333-8444-555555555555'));
    assert.equal(validateText(r.stdout).errors, 0);
  });

  it('a capture cut mid-turn is closed (cancelled tool result, turn end "error") so it still validates', async () => {
    const cut = [
      '{"type":"system","subtype":"init","session_id":"s1","tools":["Bash"],"slash_commands":["compact"]}',
      '{"type":"assistant","message":{"id":"m1","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"sleep 9"}}]},"parent_tool_use_id":null}',
    ].join('\n');
    const r = await convert(['--from', 'claude-code'], cut);
    assert.equal(validateText(r.stdout).errors, 0, r.stdout);
    assert.equal(only(r.frames, 'tool.invoke.result')[0].payload.status, 'cancelled');
    assert.equal(only(r.frames, 'session.turn.end')[0].payload.stop_reason, 'error');
    assert.equal(only(r.frames, 'session.capabilities')[0].payload.extensions?.agent_session_id, 's1');
  });

  it('usage errors: missing --from, unknown agent, unreadable file -> exit 2 with a clear message', async () => {
    const a = await convert([]);
    assert.equal(a.code, 2);
    assert.match(a.stderr, /--from is required/);
    const b = await convert(['--from', 'nope']);
    assert.equal(b.code, 2);
    assert.match(b.stderr, /unknown agent "nope"/);
    const c = await convert(['--from', 'claude-code', join(dir, 'missing.jsonl')]);
    assert.equal(c.code, 2);
    assert.match(c.stderr, /cannot read/);
  });
});
