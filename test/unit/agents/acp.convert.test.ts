// `rawp convert --from acp` on a real capture of gemini --acp traffic (both directions, four
// prompts: thinking + text, read + permitted edit, a cancel, an API error), wrapped as the adapter
// traces it and bare as other tools log it.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { convertAcp } from '../../../src/agents/acp/convert';
import type { Frame } from '../../../src/protocol/frameTypes';
import { formatText, validateText } from '../../../src/protocol/conformance';

const FIXTURE = path.resolve(__dirname, '../../fixtures/native/acp/gemini-four-turns.jsonl');
const wrapped = readFileSync(FIXTURE, 'utf8').split('\n');
const bare = wrapped.filter((l) => l.trim()).map((l) => JSON.stringify((JSON.parse(l) as { message: unknown }).message));

function ofType<T extends Frame['type']>(frames: Frame[], type: T): Extract<Frame, { type: T }>[] {
  return frames.filter((f): f is Extract<Frame, { type: T }> => f.type === type);
}

for (const [name, lines] of [
  ['wrapped {direction, message}', wrapped],
  ['bare JSON-RPC messages', bare],
] as const) {
  describe(`rawp convert --from acp (${name})`, () => {
    const { frames, warnings } = convertAcp(lines, { workspacePath: '/work/project/ws' });

    it('§13.1/§7.5 the captured conversation converts to a stream rawp validate accepts', () => {
      assert.deepEqual(warnings, []);
      const r = validateText(frames.map((f) => JSON.stringify(f)).join('\n'));
      assert.equal(r.errors, 0, formatText(r));
      assert.equal(frames[0].type, 'session.capabilities');
    });

    it('§7.5.2 four turns end as the agent said: end_turn, end_turn, cancelled, error', () => {
      assert.deepEqual(
        ofType(frames, 'session.turn.end').map((f) => f.payload.stop_reason),
        ['end_turn', 'end_turn', 'cancelled', 'error'],
      );
      assert.deepEqual(
        ofType(frames, 'session.usage').map((f) => f.payload.token_usage.input_tokens),
        [20, 60, 0, 0],
      );
    });

    it('§4.2/§4.3/§5.3 thinking, the permission ask (PERMISSION with the agent option ids) and the edit diff', () => {
      assert.ok(ofType(frames, 'agent.thinking.delta').some((f) => f.payload.text.includes('Short plan.')));
      const ask = ofType(frames, 'agent.interaction.request')[0];
      assert.equal(ask.payload.interaction_type, 'PERMISSION');
      assert.deepEqual(ask.payload.options?.map((o) => o.value), ['proceed_always', 'proceed_once', 'cancel']);
      const edit = ofType(frames, 'tool.invoke.result').find((r) => r.payload.tool_name === 'Edit')!;
      assert.equal(edit.payload.output_type, 'diff');
      assert.match(String(edit.payload.output), /--- a\/a\.txt\n\+\+\+ b\/a\.txt\n[\s\S]*-hello\n\+hello world/);
    });

    it('§6.1.2 the cancelled turn closes its text block with is_cancelled; the failed prompt carries the API message', () => {
      assert.ok(ofType(frames, 'agent.text.done').some((f) => f.payload.is_cancelled === true));
      assert.match(ofType(frames, 'agent.error')[0].payload.message, /bad request \(captured\)/);
    });
  });
}

describe('rawp convert --from acp: bad input', () => {
  it('lines that are not JSON-RPC are reported with their line numbers and skipped', () => {
    const r = convertAcp(['not json', '{"jsonrpc":"2.0","id":7,"result":{}}', '[1,2]']);
    assert.deepEqual(
      r.warnings.map((w) => w.line),
      [1, 2, 3],
    );
  });
});
