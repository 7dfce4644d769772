// The conformance checker behind `rawp validate`: every problem code provoked by its own broken
// stream, the valid streams clean, and the finer points of each sequence rule.
import { strict as assert } from 'node:assert';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { CODES, PROBLEM_CODES, StreamValidator, formatJson, formatText, validateText, type ProblemCode } from '../../../src/protocol/conformance';
import { BROKEN, VALID } from '../../fixtures/validate/cases';
import { fixtureFiles } from '../../fixtures/validate/generate';
import { SAMPLES, uuid } from '../../fixtures/validate/samples';
import { CATALOG, StreamBuilder, type SessionBuilder } from '../../fixtures/validate/stream';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'validate');
const readFixture = (rel: string) => readFileSync(join(FIXTURES, rel), 'utf8');
const codes = (text: string) => validateText(text).problems.map((p) => p.code);

/** A session after §13.1 set-up and a first prompt, for the fine-grained tests. */
function session(features?: Parameters<SessionBuilder['setup']>[0]): { b: StreamBuilder; s: SessionBuilder } {
  const b = new StreamBuilder();
  const s = b.session(1);
  s.setup(features);
  s.prompt();
  return { b, s };
}

describe('protocol/conformance: fixtures', () => {
  for (const [name, c] of Object.entries(VALID)) {
    it(`§13 valid/${name}.jsonl has no errors (${c.title})`, () => {
      const r = validateText(readFixture(join('valid', `${name}.jsonl`)));
      assert.equal(r.errors, 0, formatText(r));
      assert.deepEqual(r.problems.map((p) => p.code), c.warnings);
      assert.ok(r.frames > 5);
    });
  }

  it('Appendix B valid/full-session.jsonl carries every one of the 33 frame types and a vendor frame', () => {
    const types = new Set(readFixture('valid/full-session.jsonl').trim().split('\n').map((l) => JSON.parse(l).type as string));
    for (const t of Object.keys(SAMPLES)) assert.ok(types.has(t), `missing ${t}`);
    assert.ok(types.has('x-acme.debug.trace'));
  });

  for (const code of PROBLEM_CODES) {
    const c = BROKEN[code];
    it(`${CODES[code].clause} ${code} is reported for broken/${code}.jsonl, and nothing else`, () => {
      const r = validateText(readFixture(join('broken', `${code}.jsonl`)));
      const got = new Set(r.problems.map((p) => p.code));
      assert.ok(got.has(code), formatText(r));
      assert.deepEqual([...got].filter((g) => g !== code && !c.also?.includes(g)), [], formatText(r));
      const mine = r.problems.filter((p) => p.code === code);
      assert.ok(mine.every((p) => p.severity === CODES[code].severity && p.message.length > 10));
      assert.equal(r.errors > 0, Object.values(r.problems).some((p) => p.severity === 'error'));
    });
  }

  it('§13 the shared fixture test/fixtures/frames/all-types.jsonl (all 33 types) validates with 0 errors', () => {
    const r = validateText(readFileSync(join(FIXTURES, '..', 'frames', 'all-types.jsonl'), 'utf8'));
    assert.equal(r.errors, 0, formatText(r));
    assert.ok(r.frames >= 33);
  });

  it('every problem code has a broken fixture on disk and every fixture names a code', () => {
    const files = readdirSync(join(FIXTURES, 'broken')).map((f) => f.replace(/\.jsonl$/, ''));
    assert.deepEqual(files.sort(), [...PROBLEM_CODES].sort());
  });

  it('the fixture files are what test/fixtures/validate/generate.ts writes (else run: node --import tsx test/fixtures/validate/generate.ts)', () => {
    for (const [rel, text] of fixtureFiles()) assert.equal(readFixture(rel), text, `${rel} is stale: run node --import tsx test/fixtures/validate/generate.ts`);
  });
});

describe('protocol/conformance: frame checks', () => {
  it('§2.1 a duplicate frame is reported once and then dropped, as a receiver would (no TOOL_DUPLICATE_RESULT)', () => {
    const { b, s } = session();
    const t = s.turnStart(0);
    const id = b.id();
    s.request(t, id, 'Bash');
    const result = s.send('tool.invoke.result', { invocation_id: id, tool_name: 'Bash', status: 'success', output: '', output_type: 'text' }, { turn_id: t });
    b.raw(JSON.stringify(result));
    s.closeTurn(t);
    assert.deepEqual(codes(b.text()), ['DUPLICATE_MESSAGE_ID']);
  });

  it('§3.1.1 x-vendor frames are accepted anywhere, even before session.capabilities', () => {
    const b = new StreamBuilder();
    const s = b.session(1);
    s.send('x-acme.trace.start' as never, { anything: [1, 2] } as never);
    s.setup();
    assert.deepEqual(validateText(b.text()).problems, []);
  });

  it('§2.2 an unknown type is a warning and takes part in no sequence rule', () => {
    const { s } = session();
    const t = s.turnStart(0);
    s.send('agent.text.bold' as never, {} as never, { turn_id: t });
    s.closeTurn(t);
    assert.deepEqual(codes(s.stream.text()), ['UNKNOWN_TYPE']);
  });

  it('§2.1 INVALID_PAYLOAD names the field path and the frame identifiers', () => {
    const { s } = session();
    const f = s.send('tool.invoke.stream', { invocation_id: 'x', tool_name: 'Bash', stream_type: 'stdout', chunk: 'a', sequence: -1 });
    const p = validateText(s.stream.text()).problems[0];
    assert.equal(p.code, 'INVALID_PAYLOAD');
    assert.match(p.message, /payload\.sequence/);
    assert.equal(p.message_id, f.message_id);
    assert.equal(p.session_id, uuid(1));
  });

  it('§2.3 a timestamp going backwards is a warning, reported once per step back', () => {
    const { s } = session();
    s.send('agent.state.changed', { previous_state: 'idle', current_state: 'idle' }, { envelope: { timestamp: '2026-03-16T09:00:00.000Z' } });
    s.send('agent.state.changed', { previous_state: 'idle', current_state: 'idle' }, { envelope: { timestamp: '2026-03-16T09:00:00.001Z' } });
    const r = validateText(s.stream.text());
    assert.deepEqual(r.problems.map((p) => p.code), ['TIMESTAMP_BACKWARDS']);
    assert.equal(r.errors, 0);
  });

  it('§2.1 blank lines are skipped but keep line numbers; CRLF input reads the same', () => {
    const { s } = session();
    s.send('agent.state.changed', { previous_state: 'idle', current_state: 'idle' }, { envelope: { message_id: 'm1' } });
    const lines = s.stream.lines;
    const text = ['', ...lines.slice(0, 3), '   ', ...lines.slice(3)].join('\r\n');
    const r = validateText(text);
    assert.equal(r.frames, lines.length);
    assert.deepEqual(r.problems.map((p) => [p.line, p.code]), [[lines.length + 2, 'MESSAGE_ID_NOT_UUID']]);
  });
});

describe('protocol/conformance: §7.8.3 session.history replay', () => {
  it('§7.8.3 history frames continue the sequences: they close the turn left open before the reattach', () => {
    const { s } = session();
    const t = s.turnStart(0);
    const end = s.frame('session.turn.end', { turn_id: t, stop_reason: 'end_turn' }, { turn_id: t });
    const usage = s.frame('session.usage', SAMPLES['session.usage']);
    s.history([end, usage]);
    assert.deepEqual(codes(s.stream.text()), []);
  });

  it('§2.3 history frames are replayed in timestamp order, and their older timestamps are no step back', () => {
    const { s } = session();
    const t = s.turnStart(0);
    const end = s.frame('session.turn.end', { turn_id: t, stop_reason: 'end_turn' }, { turn_id: t });
    const usage = s.frame('session.usage', SAMPLES['session.usage']);
    s.send('agent.state.changed', { previous_state: 'thinking', current_state: 'thinking' });
    s.history([usage, end]);
    assert.deepEqual(codes(s.stream.text()), []);
  });

  it('§7.8.3 a history frame this log already holds is skipped silently; a bad one is reported at the history line', () => {
    const { s } = session();
    const t = s.turnStart(0);
    const start = JSON.parse(s.stream.lines[s.stream.lines.length - 1]);
    const bad = s.frame('agent.text.delta', { content_index: -1, text: 'x' } as never, { turn_id: t });
    const end = s.frame('session.turn.end', { turn_id: t, stop_reason: 'end_turn' }, { turn_id: t });
    const usage = s.frame('session.usage', SAMPLES['session.usage']);
    s.history([start, bad, end, usage]);
    const r = validateText(s.stream.text());
    assert.deepEqual(r.problems.map((p) => [p.line, p.code]), [[r.frames, 'INVALID_PAYLOAD']]);
    assert.match(r.problems[0].message, /^session\.history frames\[1\]: agent\.text\.delta: payload\.content_index/);
  });
});

describe('protocol/conformance: §13.1 set-up order', () => {
  it('§13.1 a control frame needs both sides\' session.capabilities (one is not the exchange)', () => {
    const b = new StreamBuilder();
    const s = b.session(1);
    s.capabilities();
    s.send('tool.catalog.publish', CATALOG);
    s.send('agent.commands.publish', { commands: [] });
    s.prompt();
    s.prompt();
    const r = validateText(b.text());
    assert.deepEqual(r.problems.map((p) => [p.line, p.code]), [[4, 'BEFORE_CAPABILITIES']]);
    assert.match(r.problems[0].message, /only one side/);
  });

  it('§13.1 catalog and commands published after the first prompt do not excuse it', () => {
    const b = new StreamBuilder();
    const s = b.session(1);
    s.capabilities();
    s.capabilities();
    s.prompt();
    s.send('tool.catalog.publish', CATALOG);
    s.send('agent.commands.publish', { commands: [] });
    s.prompt();
    assert.deepEqual(codes(b.text()), ['PROMPT_BEFORE_CATALOG', 'PROMPT_BEFORE_COMMANDS']);
  });

  it('§13.1 sessions are checked apart: set-up of one session does not count for another', () => {
    const b = new StreamBuilder();
    b.session(1).setup();
    b.session(2).send('agent.state.changed', { previous_state: 'idle', current_state: 'idle' });
    const r = validateText(b.text());
    assert.deepEqual(r.problems.map((p) => [p.code, p.session_id]), [['BEFORE_CAPABILITIES', uuid(2)]]);
  });
});

describe('protocol/conformance: §12.2.1 capability filtering', () => {
  it('§12.2.1 after a reattach the new exchange counts: 3rd capabilities = client, 4th = master', () => {
    const { b, s } = session({ thinking_stream: true });
    const think = () => s.send('agent.thinking.done', { content_index: 0 });
    think();
    s.capabilities({ thinking_stream: true });
    s.capabilities({});
    think();
    think();
    const r = validateText(b.text());
    assert.deepEqual(r.problems.map((p) => [p.line, p.code]), [[r.frames - 1, 'FEATURE_NOT_ANNOUNCED']]);
  });

  it('§12.2.1 control.file.search goes only to a client that announced file_search_fuzzy', () => {
    const search = (clientFeatures: Record<string, boolean>) => {
      const b = new StreamBuilder();
      const s = b.session(1);
      s.capabilities(clientFeatures);
      s.capabilities({});
      s.send('control.file.search', { query_id: b.id(), query: 'src' });
      return codes(b.text());
    };
    assert.deepEqual(search({ file_reference: true }), ['FEATURE_NOT_ANNOUNCED']);
    assert.deepEqual(search({ file_search_fuzzy: true }), []);
  });
});

describe('protocol/conformance: §7.5 turns', () => {
  it('§7.5.1 turn_index continues from the last one seen, so one slip is one error', () => {
    const { s } = session();
    for (const i of [0, 2, 3]) s.closeTurn(s.turnStart(i));
    assert.deepEqual(codes(s.stream.text()), ['TURN_INDEX_ORDER']);
  });

  it('§7.5.2 a master frame between session.turn.end and session.usage does not break "right after"', () => {
    const { s } = session();
    const t = s.turnStart(0);
    s.turnEnd(t);
    s.prompt('next');
    s.usage(t);
    assert.deepEqual(codes(s.stream.text()), []);
  });

  it('§7.5.2-1 a stream cut right after session.turn.end is a cut, not a break (its usage may be on the way); another frame in between is', () => {
    const { s } = session();
    const t = s.turnStart(0);
    s.turnEnd(t);
    assert.deepEqual(validateText(s.stream.text()).problems.map((p) => p.code), []);
    s.send('agent.state.changed', { previous_state: 'thinking', current_state: 'idle' });
    assert.deepEqual(validateText(s.stream.text()).problems.map((p) => p.code), ['USAGE_NOT_AFTER_TURN_END']);
  });

  it('§7.5.3 the clean-up order passes: cancelled results, turn.end (error), usage, then session.deleted', () => {
    const { b, s } = session();
    const t = s.turnStart(0);
    const id = b.id();
    s.request(t, id, 'Bash');
    s.result(t, id, 'Bash', 'text', 'cancelled');
    s.send('session.turn.end', { turn_id: t, stop_reason: 'error' }, { turn_id: t });
    s.usage(t);
    s.send('session.deleted', { session_id: s.session_id, reason: 'master_request', deleted_by: 'master' });
    assert.deepEqual(codes(b.text()), []);
  });

  it('§7.7.1-1 a session.deleted mid-turn that no clean-up follows is DELETED_MID_TURN (once, not also the open call)', () => {
    const { b, s } = session();
    const t = s.turnStart(0);
    s.request(t, b.id(), 'Bash');
    s.send('session.deleted', { session_id: s.session_id, reason: 'error', deleted_by: 'system' });
    assert.deepEqual(codes(b.text()), ['DELETED_MID_TURN']);
  });

  it('§7.7.1-1 a master\'s session.deleted mid-turn answered by the client\'s clean-up and its own session.deleted is fine', () => {
    const { b, s } = session();
    const t = s.turnStart(0);
    const id = b.id();
    s.request(t, id, 'Bash');
    s.send('session.deleted', { session_id: s.session_id, reason: 'master_request', deleted_by: 'master' });
    s.result(t, id, 'Bash', 'text', 'cancelled');
    s.send('session.turn.end', { turn_id: t, stop_reason: 'error' }, { turn_id: t });
    s.usage(t);
    s.send('session.deleted', { session_id: s.session_id, reason: 'master_request', deleted_by: 'client' });
    assert.deepEqual(codes(b.text()), []);
  });

  it('§10.2 a subagent\'s own turns are counted apart from the main agent\'s', () => {
    const { b, s } = session();
    const t = s.turnStart(0);
    const task = b.id();
    s.request(t, task, 'Task', { subagent: {} });
    s.send('agent.subagent.started', { parent_invocation_id: task, depth: 1 }, { turn_id: t });
    const sub = { subagent_context: { parent_invocation_id: task, depth: 1 } };
    s.closeTurn(s.turnStart(0, b.id(), sub), sub);
    s.closeTurn(s.turnStart(1, b.id(), sub), sub);
    s.send('agent.subagent.ended', { parent_invocation_id: task, status: 'completed' }, { turn_id: t });
    s.result(t, task, 'Task', 'agent_result');
    s.closeTurn(t);
    s.closeTurn(s.turnStart(1));
    assert.deepEqual(codes(b.text()), []);
  });
});

describe('protocol/conformance: §4.1 / §4.2 blocks', () => {
  it('§4.1.2 content_index counts per turn: index 0 again in the next turn is a new block', () => {
    const { s } = session();
    const t0 = s.turnStart(0);
    s.text(t0, 0, 'a');
    s.closeTurn(t0);
    const t1 = s.turnStart(1);
    s.text(t1, 0, 'b');
    s.closeTurn(t1);
    assert.deepEqual(codes(s.stream.text()), []);
  });

  it('§4.1.2 a text block left open outside any turn is reported at the end, at its first delta', () => {
    const { s } = session();
    s.send('agent.text.delta', { content_index: 3, text: 'x' });
    s.send('agent.text.delta', { content_index: 3, text: 'y' });
    const r = validateText(s.stream.text());
    assert.deepEqual(r.problems.map((p) => [p.line, p.code]), [[r.frames - 1, 'TEXT_BLOCK_UNCLOSED']]);
  });

  it('§6.1.2 a cancelled block closed by agent.text.done(is_cancelled) is closed', () => {
    const { s } = session();
    const t = s.turnStart(0);
    s.send('agent.text.delta', { content_index: 0, text: 'x' }, { turn_id: t });
    s.send('agent.text.done', { content_index: 0, is_cancelled: true }, { turn_id: t });
    s.closeTurn(t);
    assert.deepEqual(codes(s.stream.text()), []);
  });
});

describe('protocol/conformance: §5 tool calls', () => {
  it('§5.3.1 a request of a closed turn left unanswered is an error even when the stream ends mid-turn', () => {
    const { b, s } = session();
    const t0 = s.turnStart(0);
    s.request(t0, b.id(), 'Bash');
    s.closeTurn(t0);
    const t1 = s.turnStart(1);
    s.request(t1, b.id(), 'Bash');
    assert.deepEqual(codes(b.text()), ['TOOL_UNANSWERED', 'TURN_OPEN_AT_END']);
  });

  it('§7.5.2 a result in the next turn (stop_reason tool_use) answers the request', () => {
    const { b, s } = session();
    const t0 = s.turnStart(0);
    const id = b.id();
    s.request(t0, id, 'Bash');
    s.send('session.turn.end', { turn_id: t0, stop_reason: 'tool_use' }, { turn_id: t0 });
    s.usage(t0);
    const t1 = s.turnStart(1);
    s.result(t1, id, 'Bash', 'text');
    s.closeTurn(t1);
    assert.deepEqual(codes(b.text()), []);
  });

  it('§5.3.2 a stream chunk after the result is an orphan; a repeated sequence is out of order', () => {
    const { b, s } = session();
    const t = s.turnStart(0);
    const id = b.id();
    s.request(t, id, 'Bash');
    const chunk = (sequence: number) => s.send('tool.invoke.stream', { invocation_id: id, tool_name: 'Bash', stream_type: 'stdout', chunk: 'x', sequence }, { turn_id: t });
    chunk(0);
    chunk(0);
    chunk(1);
    s.result(t, id, 'Bash', 'text');
    chunk(2);
    s.closeTurn(t);
    assert.deepEqual(codes(b.text()), ['TOOL_STREAM_SEQUENCE', 'TOOL_STREAM_ORPHAN']);
  });

  it('§5.3.2 stream chunks name the tool of their request', () => {
    const { b, s } = session();
    const t = s.turnStart(0);
    const id = b.id();
    s.request(t, id, 'Bash');
    s.send('tool.invoke.stream', { invocation_id: id, tool_name: 'Grep', stream_type: 'stdout', chunk: 'x', sequence: 0 }, { turn_id: t });
    s.result(t, id, 'Bash', 'text');
    s.closeTurn(t);
    assert.deepEqual(codes(b.text()), ['TOOL_NAME_MISMATCH']);
  });

  it('§15.1 the whitelist is the last catalog: a tool dropped by a re-publish may no longer be invoked', () => {
    const { s } = session();
    s.send('tool.catalog.publish', { tools: CATALOG.tools.filter((t) => t.name !== 'Bash') });
    const t = s.turnStart(0);
    s.tool(t, 'Bash', 'text');
    s.tool(t, 'Read', 'file_content');
    s.closeTurn(t);
    assert.deepEqual(codes(s.stream.text()), ['TOOL_NOT_IN_CATALOG']);
  });

  it('§15-1 a call run before any catalog is not in the catalog; one refused (error result) is fine', () => {
    const b = new StreamBuilder();
    const s = b.session(1);
    s.capabilities();
    const id = b.id();
    s.request('', id, 'Bash');
    s.result('', id, 'Bash', 'text');
    assert.ok(codes(b.text()).includes('TOOL_NOT_IN_CATALOG'));
    const { b: b2, s: s2 } = session();
    const t = s2.turnStart(0);
    const refused = b2.id();
    s2.request(t, refused, 'Teleport');
    s2.result(t, refused, 'Teleport', 'text', 'error');
    s2.closeTurn(t);
    assert.deepEqual(codes(b2.text()), []);
  });

  it('§5.4.1 a tool with a fatal diagnostic is reported as unavailable', () => {
    const { s } = session();
    s.send('tool.catalog.publish', { tools: CATALOG.tools, diagnostics: [{ severity: 'fatal', tool_name: 'Bash', code: 'DEPENDENCY_MISSING', message: 'no sh' }] });
    const t = s.turnStart(0);
    s.tool(t, 'Bash', 'text');
    s.closeTurn(t);
    assert.deepEqual(codes(s.stream.text()), ['TOOL_UNAVAILABLE']);
  });
});

describe('protocol/conformance: §5.3.3 output_type', () => {
  const run = (tool: string, type: Parameters<SessionBuilder['tool']>[2], status: 'success' | 'error' = 'success') => {
    const { b, s } = session();
    const t = s.turnStart(0);
    const id = b.id();
    s.request(t, id, tool);
    s.result(t, id, tool, type, status);
    s.closeTurn(t);
    return codes(b.text());
  };

  it('§5.3.3 the single default of a category is binding (shell -> text, agent -> agent_result)', () => {
    assert.deepEqual(run('Bash', 'diff'), ['OUTPUT_TYPE_MISMATCH']);
    assert.deepEqual(run('WebFetch', 'text'), ['OUTPUT_TYPE_MISMATCH']);
    assert.deepEqual(run('Read', 'file_content'), []);
    assert.deepEqual(run('Read', 'file_list'), ['OUTPUT_TYPE_MISMATCH']);
  });

  it('§5.3.3 where the table allows alternatives either is fine (Edit: diff or empty; Grep: text or file_list)', () => {
    for (const [tool, type] of [['Edit', 'diff'], ['Edit', 'empty'], ['Grep', 'text'], ['Grep', 'file_list']] as const) assert.deepEqual(run(tool, type), [], `${tool} ${type}`);
    assert.deepEqual(run('Edit', 'file_content'), ['OUTPUT_TYPE_UNEXPECTED']);
  });

  it('§5.3.3 the text fallback (no declaration, no category default) is a warning when broken', () => {
    assert.deepEqual(run('ExitPlanMode', 'text'), []);
    assert.deepEqual(run('ExitPlanMode', 'structured'), ['OUTPUT_TYPE_UNEXPECTED']);
  });

  it('§5.3.3 a failed call may carry its error message as text whatever the catalog says', () => {
    assert.deepEqual(run('db_query', 'text', 'error'), []);
    assert.deepEqual(run('db_query', 'diff', 'error'), ['OUTPUT_TYPE_MISMATCH']);
  });
});

describe('protocol/conformance: §10 subagents', () => {
  function withTask(body: (s: SessionBuilder, t: string, task: string, b: StreamBuilder) => void, features?: Parameters<SessionBuilder['setup']>[0]): ProblemCode[] {
    const { b, s } = session(features);
    const t = s.turnStart(0);
    const task = b.id();
    s.request(t, task, 'Task', { subagent: { agent_type: 'Explore' } });
    body(s, t, task, b);
    s.closeTurn(t);
    return codes(b.text());
  }

  it('§10.2 nested subagents: contexts at depth 1 and 2 name their direct parent', () => {
    const got = withTask((s, t, task, b) => {
      const d1 = { subagent_context: { parent_invocation_id: task, depth: 1 } };
      s.send('agent.subagent.started', { parent_invocation_id: task, depth: 1 }, { turn_id: t });
      const inner = b.id();
      s.request(t, inner, 'Task', { subagent: {} }, d1);
      s.send('agent.subagent.started', { parent_invocation_id: inner, depth: 2 }, { turn_id: t, metadata: d1 });
      s.send('agent.state.changed', { previous_state: 'idle', current_state: 'thinking' }, { metadata: { subagent_context: { parent_invocation_id: inner, depth: 2 } } });
      s.send('agent.subagent.ended', { parent_invocation_id: inner, status: 'completed' }, { turn_id: t, metadata: d1 });
      s.result(t, inner, 'Task', 'agent_result', 'success', d1);
      s.send('agent.subagent.ended', { parent_invocation_id: task, status: 'completed' }, { turn_id: t });
      s.result(t, task, 'Task', 'agent_result');
    });
    assert.deepEqual(got, []);
  });

  it('§10.2 a context with the wrong depth, and a started frame with the wrong depth, are invalid', () => {
    const got = withTask((s, t, task) => {
      s.send('agent.subagent.started', { parent_invocation_id: task, depth: 2 }, { turn_id: t });
      s.send('agent.state.changed', { previous_state: 'idle', current_state: 'thinking' }, { metadata: { subagent_context: { parent_invocation_id: task, depth: 1 } } });
      s.send('agent.subagent.ended', { parent_invocation_id: task, status: 'completed' }, { turn_id: t });
      s.result(t, task, 'Task', 'agent_result');
    });
    assert.deepEqual(got, ['SUBAGENT_CONTEXT_INVALID', 'SUBAGENT_CONTEXT_INVALID']);
  });

  it('§10.6 frames without context while a subagent runs are fine when the client did not announce subagent_context', () => {
    const got = withTask(
      (s, t, task) => {
        s.send('agent.subagent.started', { parent_invocation_id: task, depth: 1 }, { turn_id: t });
        s.send('agent.state.changed', { previous_state: 'idle', current_state: 'thinking' });
        s.send('agent.subagent.ended', { parent_invocation_id: task, status: 'completed' }, { turn_id: t });
        s.result(t, task, 'Task', 'agent_result');
      },
      { subagent: true },
    );
    assert.deepEqual(got, []);
  });

  it('§10.3.2 a result while the subagent has not ended, and an ended frame without started, break the order', () => {
    const got = withTask((s, t, task, b) => {
      s.send('agent.subagent.started', { parent_invocation_id: task, depth: 1 }, { turn_id: t });
      s.result(t, task, 'Task', 'agent_result');
      s.send('agent.subagent.ended', { parent_invocation_id: b.id(), status: 'failed' }, { turn_id: t });
    });
    assert.deepEqual(got, ['SUBAGENT_ENDED_ORDER', 'SUBAGENT_ENDED_ORDER']);
  });

  it('§10.3.1 agent.subagent.started for an invocation no subagent request carried is out of order', () => {
    const { b, s } = session();
    const t = s.turnStart(0);
    s.send('agent.subagent.started', { parent_invocation_id: b.id(), depth: 1 }, { turn_id: t });
    s.closeTurn(t);
    assert.deepEqual(codes(b.text()), ['SUBAGENT_STARTED_ORDER']);
  });

  it('§10.3.1 a stream that ends right after a subagent request misses agent.subagent.started (unless cut mid-turn)', () => {
    const { b, s } = session();
    s.request('', b.id(), 'Task', { subagent: {} });
    assert.deepEqual(codes(b.text()).sort(), ['SUBAGENT_STARTED_ORDER', 'TOOL_UNANSWERED']);
    const cut = session();
    const t = cut.s.turnStart(0);
    cut.s.request(t, cut.b.id(), 'Task', { subagent: {} });
    assert.deepEqual(codes(cut.b.text()), ['TURN_OPEN_AT_END']);
  });
});

describe('protocol/conformance: §6.2 interactions', () => {
  it('§6.2.2 control.interaction.timeout answers an interaction; a second answer is not "unknown"', () => {
    const { b, s } = session();
    const t = s.turnStart(0);
    const id = b.id();
    s.send('agent.interaction.request', { ...SAMPLES['agent.interaction.request'], interaction_id: id }, { turn_id: t });
    s.send('control.interaction.timeout', { interaction_id: id });
    s.send('control.interaction.response', { interaction_id: id, selected_value: 'allow' });
    s.closeTurn(t);
    assert.deepEqual(codes(b.text()), []);
  });
});

describe('protocol/conformance: StreamValidator and output', () => {
  it('problems are sorted by line; end-of-stream problems point at the frame that caused them', () => {
    const { b, s } = session();
    const t = s.turnStart(0);
    s.request(t, b.id(), 'Bash');
    const requestLine = b.lines.length;
    s.send('agent.state.changed', { previous_state: 'idle', current_state: 'idle' }, { envelope: { message_id: 'late' } });
    s.closeTurn(t);
    const r = validateText(b.text());
    assert.deepEqual(r.problems.map((p) => [p.line, p.code]), [[requestLine, 'TOOL_UNANSWERED'], [requestLine + 1, 'MESSAGE_ID_NOT_UUID']]);
  });

  it('finish() is idempotent and line() after finish() is a programming error', () => {
    const v = new StreamValidator();
    v.line('nope', 1);
    const r = v.finish();
    assert.equal(v.finish(), r);
    assert.throws(() => v.line('{}', 2), /after finish/);
  });

  it('formatText prints LINE:CODE: message lines and the closing counts; formatJson the documented shape', () => {
    const r = validateText('nope\n\n{"v":1,"type":"a.b.c","message_id":"m","timestamp":"2026-01-01T00:00:00Z","session_id":"s","payload":{}}\n');
    const text = formatText(r);
    assert.match(text, /^1:MALFORMED_JSON: .+ \(§2\.1-1\)\n3:UNKNOWN_TYPE: .+ \(§3\.1\.1-1\)\nframes: 2, errors: 2, warnings: 0\n$/);
    const doc = JSON.parse(formatJson(r));
    assert.deepEqual(Object.keys(doc), ['frames', 'errors', 'warnings', 'problems']);
    assert.deepEqual(doc.problems[1], { line: 3, code: 'UNKNOWN_TYPE', severity: 'error', clause: '§3.1.1-1', message: doc.problems[1].message, session_id: 's' });
  });
});

describe('protocol/conformance: logs that start mid-session, history order (§2.3, §13.7)', () => {
  it('§13.7 a late attach mid-turn: a turn, calls and a subagent begun before the log are followed, not reported', () => {
    const b = new StreamBuilder();
    const s = b.session(1);
    s.capabilities({ thinking_stream: true, tool_streaming: true, subagent: true, subagent_context: true, adapter_type: 'sdk' });
    s.capabilities({ thinking_stream: true, tool_streaming: true, subagent: true, subagent_context: true });
    s.send('tool.catalog.publish', CATALOG);
    s.send('agent.commands.publish', { commands: [] });
    s.send('agent.state.changed', { previous_state: 'tool_calling', current_state: 'tool_calling', reason: 'attached' });
    const t = b.id(); // started before the master attached
    const [bash, task] = [b.id(), b.id()];
    s.send('tool.invoke.stream', { invocation_id: bash, tool_name: 'Bash', stream_type: 'stdout', chunk: 'x', sequence: 3 }, { turn_id: t });
    s.result(t, bash, 'Bash', 'text');
    const sub = { subagent_context: { parent_invocation_id: task, depth: 1 } };
    s.send('agent.text.delta', { content_index: 0, text: 'inside' }, { turn_id: t, metadata: sub });
    s.send('agent.text.done', { content_index: 0 }, { turn_id: t, metadata: sub });
    s.send('agent.subagent.ended', { parent_invocation_id: task, status: 'completed' }, { turn_id: t });
    s.result(t, task, 'Task', 'agent_result');
    s.text(t, 4, 'done');
    s.closeTurn(t);
    s.prompt();
    s.closeTurn(s.turnStart(7)); // the session's turns counted on before the log
    assert.deepEqual(codes(b.text()), []);
  });

  it('§13.7 after a prompt in the log, a turn must start in it: a frame of an unknown turn is still an error', () => {
    const { b, s } = session();
    s.result(b.id(), b.id(), 'Bash', 'text');
    assert.ok(codes(b.text()).includes('TOOL_RESULT_WITHOUT_REQUEST'));
  });

  it('§2.3 history frames with equal timestamps are replayed in message_id order, as the reducer does', () => {
    const { b, s } = session();
    const t = s.turnStart(0);
    const at = '2026-03-16T10:00:05.000Z';
    const [early, late] = [uuid(0x200001), uuid(0x200002)];
    const delta = { ...s.frame('agent.text.delta', { content_index: 0, text: 'x' }, { turn_id: t }), timestamp: at, message_id: early };
    const done = { ...s.frame('agent.text.done', { content_index: 0 }, { turn_id: t }), timestamp: at, message_id: late };
    s.capabilities({ adapter_type: 'sdk' });
    s.capabilities({});
    s.history([done, delta]); // out of order in the array; message_id puts the delta first
    s.send('tool.catalog.publish', CATALOG);
    s.send('agent.commands.publish', { commands: [] });
    s.closeTurn(t);
    assert.deepEqual(codes(b.text()).filter((c) => c !== 'TIMESTAMP_BACKWARDS'), []);
  });

  it('§7.1.1 a truncated history is a gap: what was lost is not asked for', () => {
    const { b, s } = session();
    const t = s.turnStart(0);
    s.send('agent.text.delta', { content_index: 0, text: 'start' }, { turn_id: t });
    s.capabilities({ adapter_type: 'sdk' });
    s.capabilities({});
    s.history([s.frame('agent.text.delta', { content_index: 1, text: 'later' }, { turn_id: t })], true);
    s.send('tool.catalog.publish', CATALOG);
    s.send('agent.commands.publish', { commands: [] });
    s.closeTurn(t); // block 0's done and block 1's were lost
    assert.deepEqual(codes(b.text()), []);
  });
});

describe('protocol/conformance: §6.3.2 modes, finer points', () => {
  it('§6.3.2-2 a switch during a turn that is refused and still carried out (its acknowledgement names it) is an error', () => {
    const { s } = session();
    const t = s.turnStart(0);
    const sw = s.send('control.mode.switch', { mode: 'plan' });
    s.send('session.error', { error_code: 'MODE_SWITCH_DURING_TURN', message: 'not now', fatal: false }, { parent_id: sw.message_id as string });
    s.send('agent.state.changed', { previous_state: 'thinking', current_state: 'thinking', reason: 'mode_switch' }, { parent_id: sw.message_id as string });
    s.closeTurn(t);
    assert.deepEqual(codes(s.stream.text()), ['MODE_SWITCHED_DURING_TURN']);
  });

  it('§6.3.2-4 an agent that switches itself mid-turn (no control.mode.switch) is fine; the next turn names the mode', () => {
    const { s } = session();
    const t = s.turnStart(0);
    s.send('agent.state.changed', { previous_state: 'thinking', current_state: 'thinking', reason: 'mode_switch' });
    s.closeTurn(t);
    s.prompt();
    s.closeTurn(s.turnStart(1, s.stream.id(), undefined, 'default'));
    assert.deepEqual(codes(s.stream.text()), []);
  });
});
