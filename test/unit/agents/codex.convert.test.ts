// `rawp convert --from codex` on a real capture of `codex exec --json` (three runs: exec, then two
// `exec resume`), and the Codex translator on lines the capture does not have.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { convertCodex } from '../../../src/agents/codex/convert';
import { CodexTurnTranslator } from '../../../src/agents/codex/translate';
import type { AgentEvent } from '../../../src/session/agentAdapter';
import type { Frame } from '../../../src/protocol/frameTypes';
import { formatText, validateText } from '../../../src/protocol/conformance';

const FIXTURE = path.resolve(__dirname, '../../fixtures/native/codex/exec-resume-three-turns.jsonl');

function ofType<T extends Frame['type']>(frames: Frame[], type: T): Extract<Frame, { type: T }>[] {
  return frames.filter((f): f is Extract<Frame, { type: T }> => f.type === type);
}

describe('rawp convert --from codex', () => {
  const { frames, warnings } = convertCodex(readFileSync(FIXTURE, 'utf8').split('\n'));

  it('§13.1/§7.5 a captured exec + resume transcript converts to a stream rawp validate accepts', () => {
    assert.deepEqual(warnings, []);
    const result = validateText(frames.map((f) => JSON.stringify(f)).join('\n'));
    assert.equal(result.errors, 0, formatText(result));
    assert.equal(frames[0].type, 'session.capabilities');
    assert.equal(ofType(frames, 'session.turn.start').length, 3);
  });

  it('§7.5.2 turns end as Codex said (completed, completed, failed), usage is per turn not per thread', () => {
    const ends = ofType(frames, 'session.turn.end').map((f) => f.payload.stop_reason);
    assert.deepEqual(ends, ['end_turn', 'end_turn', 'error']);
    const usage = ofType(frames, 'session.usage').map((f) => f.payload.token_usage.input_tokens);
    assert.deepEqual(usage, [60, 40, 0]);
  });

  it('A.1 items map to frames: reasoning -> thinking, command -> Bash with its output, file_change -> apply_patch, error -> agent.error', () => {
    assert.equal(ofType(frames, 'agent.thinking.delta')[0].payload.text, 'Look at the file first.');
    const bash = ofType(frames, 'tool.invoke.result').filter((r) => r.payload.tool_name === 'Bash');
    assert.deepEqual(
      bash.map((r) => [r.payload.status, r.payload.output]),
      [
        ['success', 'hello\n'],
        ['error', '[exit code 2]'],
      ],
    );
    const patch = ofType(frames, 'tool.invoke.result').find((r) => r.payload.tool_name === 'apply_patch')!;
    assert.equal(patch.payload.output_type, 'diff');
    assert.match(String(patch.payload.output), /update \/work\/project\/ws\/a\.txt/);
    // Codex passes the provider's JSON body as the message; the frame shows the message inside it.
    assert.equal(ofType(frames, 'agent.error')[0].payload.message, 'bad request (captured) (invalid_request_error)');
  });

  it('bad lines are reported with their line numbers and skipped', () => {
    const r = convertCodex(['{"type":"thread.started","thread_id":"t1"}', 'not json', '{"type":"turn.started"}', '{"type":"mystery"}', '{"type":"turn.completed"}']);
    assert.deepEqual(
      r.warnings.map((w) => w.line),
      [2, 4],
    );
    assert.equal(validateText(r.frames.map((f) => JSON.stringify(f)).join('\n')).errors, 0);
  });
});

describe('Codex translator', () => {
  function run(lines: unknown[]): AgentEvent[] {
    const out: AgentEvent[] = [];
    const t = new CodexTurnTranslator({ emit: (e) => out.push(e) });
    for (const l of lines) t.handleNow(l);
    t.closeNow('cancelled');
    return out;
  }

  it('§17.2.2 a type of a newer Codex is skipped as unknown; a known event or item that does not fit is reported as malformed; neither makes a frame', () => {
    const out: AgentEvent[] = [];
    const seen: Array<[string, string]> = [];
    const t = new CodexTurnTranslator({ emit: (e) => out.push(e), onUnknown: (what, _v, kind) => seen.push([kind, what]) });
    for (const l of [
      { type: 'thread.resumed', thread_id: 't' },
      { type: 'item.completed', item: { id: 'i1', type: 'collab_tool_call', tool: 'x' } },
      { type: 'thread.started' },
      { type: 'item.completed', item: { id: 'i2', type: 'command_execution', command: 7, status: 'completed' } },
    ])
      t.handleNow(l);
    assert.deepEqual(out, []);
    assert.deepEqual(seen.map(([k]) => k), ['unknown', 'unknown', 'malformed', 'malformed']);
    assert.match(seen[0][1], /thread\.resumed skipped/);
    assert.match(seen[3][1], /command_execution: command: .*expected string/);
  });

  it('§5.4.1 an MCP tool Codex calls is added to the catalog and re-published before its request', () => {
    const out = run([{ type: 'item.started', item: { id: 'item_0', type: 'mcp_tool_call', server: 'docs', tool: 'search', arguments: { q: 'x' }, status: 'in_progress' } }]);
    assert.deepEqual(
      out.map((e) => e.type),
      ['tool.catalog.publish', 'tool.invoke.request', 'tool.invoke.result'],
    );
    const req = out[1] as Extract<AgentEvent, { type: 'tool.invoke.request' }>;
    assert.equal(req.payload.tool_name, 'mcp__docs__search');
    const res = out[2] as Extract<AgentEvent, { type: 'tool.invoke.result' }>;
    assert.equal(res.payload.status, 'cancelled');
  });

  it('§8.2 a todo_list item becomes a TodoWrite call with structured todos', () => {
    const out = run([{ type: 'item.completed', item: { id: 'item_1', type: 'todo_list', items: [{ text: 'a', completed: true }, { text: 'b', completed: false }] } }]);
    const res = out.find((e) => e.type === 'tool.invoke.result') as Extract<AgentEvent, { type: 'tool.invoke.result' }>;
    assert.equal(res.payload.output_type, 'structured');
    assert.deepEqual((res.payload.output as { todos: Array<{ status: string }> }).todos.map((t) => t.status), ['completed', 'pending']);
  });
});

describe('rawp convert --from codex: a run without credentials (decision 441)', () => {
  // Captured from the real codex exec 0.171 with an empty HOME against a server answering 401
  // (WebSocket retries, the HTTPS fallback and its retries, turn.failed).
  const NO_LOGIN = path.resolve(__dirname, '../../fixtures/native/codex/no-login-401.jsonl');
  const { frames, warnings } = convertCodex(readFileSync(NO_LOGIN, 'utf8').split('\n'));

  it('§4.4.1 ten "Reconnecting… 401" errors and turn.failed become one AUTH_REQUIRED agent.error; the turn ends in error', () => {
    assert.deepEqual(warnings, []);
    const errors = ofType(frames, 'agent.error');
    assert.deepEqual(errors.map((e) => e.payload.error_code), ['AUTH_REQUIRED']);
    assert.equal(errors[0].payload.details?.module, 'codex');
    assert.match(String(errors[0].payload.details?.trace), /^unexpected status 401 Unauthorized/);
    assert.deepEqual(ofType(frames, 'session.turn.end').map((f) => f.payload.stop_reason), ['error']);
    const result = validateText(frames.map((f) => JSON.stringify(f)).join('\n'));
    assert.equal(result.errors, 0, formatText(result));
  });
});
