// `rawp convert --from gemini` on a real capture of `gemini -p … --output-format stream-json`
// (two runs: a read + edit + shell run, and a run that failed on an API error).
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { convertGemini } from '../../../src/agents/convert/gemini';
import type { Frame } from '../../../src/protocol/frameTypes';
import { formatText, validateText } from '../../../src/protocol/conformance';

const FIXTURE = path.resolve(__dirname, '../../fixtures/native/gemini/stream-json-two-runs.jsonl');

function ofType<T extends Frame['type']>(frames: Frame[], type: T): Extract<Frame, { type: T }>[] {
  return frames.filter((f): f is Extract<Frame, { type: T }> => f.type === type);
}

describe('rawp convert --from gemini', () => {
  const { frames, warnings } = convertGemini(readFileSync(FIXTURE, 'utf8').split('\n'));

  it('§13.1/§7.5 the two captured runs convert to a stream rawp validate accepts', () => {
    assert.deepEqual(warnings, []);
    const r = validateText(frames.map((f) => JSON.stringify(f)).join('\n'));
    assert.equal(r.errors, 0, formatText(r));
    assert.deepEqual(
      ofType(frames, 'session.turn.end').map((f) => f.payload.stop_reason),
      ['end_turn', 'error'],
    );
  });

  it('§5.3.3 tool_use/tool_result pairs keep gemini names with catalog output types; text deltas join into blocks', () => {
    const results = ofType(frames, 'tool.invoke.result').map((r) => [r.payload.tool_name, r.payload.output_type, r.payload.status]);
    assert.deepEqual(results, [
      ['read_file', 'file_content', 'success'],
      ['replace', 'diff', 'success'],
      ['run_shell_command', 'text', 'success'],
    ]);
    assert.deepEqual(
      ofType(frames, 'agent.text.done').map((f) => f.payload.full_text),
      ['Reading first.', 'All done.'],
    );
  });

  it('§7.3.1 usage comes from the result stats; the failed run reports the API error', () => {
    assert.equal(ofType(frames, 'session.usage')[0].payload.token_usage.input_tokens, 85);
    assert.match(ofType(frames, 'agent.error')[0].payload.message, /bad request \(captured\)/);
  });

  it('unknown lines and unknown tool names: reported, or added to the catalog before use (§5.4.1)', () => {
    const r = convertGemini(['{"type":"init","session_id":"s"}', '{"type":"message","role":"user","content":"x"}', '{"type":"tool_use","tool_name":"mcp_docs_find","tool_id":"t1","parameters":{}}', '{"type":"surprise"}', '{"type":"tool_result","tool_id":"t1","status":"error","error":{"message":"nope"}}', '{"type":"result","status":"success","stats":{}}']);
    assert.deepEqual(
      r.warnings.map((w) => w.line),
      [4],
    );
    assert.equal(validateText(r.frames.map((f) => JSON.stringify(f)).join('\n')).errors, 0);
    const res = ofType(r.frames, 'tool.invoke.result')[0];
    assert.deepEqual([res.payload.tool_name, res.payload.status, res.payload.output], ['mcp_docs_find', 'error', 'nope']);
  });
});
