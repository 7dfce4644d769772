// Security property "frames cannot drive the master's terminal": text from the host (agent text,
// a tool's output such as `cat` of a file in a cloned repository, error messages) reaches
// `rawp attach`'s terminal with its control characters shown, never as escape sequences
// (OSC 52 clipboard writes, title changes, clearing or overwriting what was printed).
import { strict as assert } from 'node:assert';
import { TerminalPrinter } from '../../../src/cli/attach/render';
import { buildFrame } from '../../../src/protocol/build';
import type { Frame } from '../../../src/protocol/frameTypes';
import { createTranscript } from '../../../src/protocol/transcript';
import { applyFrame } from '../../../src/protocol/transcript/reduce';

const S = '11111111-1111-4111-8111-111111111111';
const T = '22222222-2222-4222-8222-222222222222';

describe('remote/terminal master: control characters from frames', () => {
  it('security: ESC, BEL, CR, C1 controls and DEL in agent text and tool output are never written raw; text, tabs and line breaks stay', () => {
    const t = createTranscript({ sessionId: S });
    let out = '';
    const printer = new TerminalPrinter((s) => (out += s));
    const ctx = { session_id: S, turn_id: T };
    const frames = [
      buildFrame('control.prompt.request', { prompt_text: 'show\x1b[2J' }, { session_id: S }),
      buildFrame('session.turn.start', { turn_id: T, turn_index: 0 }, ctx),
      buildFrame('agent.text.delta', { content_index: 0, text: 'copy \x1b]52;c;ZWNobyBwd25lZA==\x07 now\tok\n' }, ctx),
      buildFrame('tool.invoke.request', { invocation_id: 'b1', tool_name: 'Bash', input: { command: 'cat x' } }, ctx),
      buildFrame('tool.invoke.stream', { invocation_id: 'b1', tool_name: 'Bash', stream_type: 'stdout', chunk: 'safe\rEVIL \x9b31m\x7f\n', sequence: 0 }, ctx),
      buildFrame('tool.invoke.result', { invocation_id: 'b1', tool_name: 'Bash', status: 'success', output: '\x1b]0;title\x07', output_type: 'text' }, ctx),
      buildFrame('session.turn.end', { turn_id: T, stop_reason: 'end_turn' }, ctx),
    ];
    for (const f of frames) {
      applyFrame(t, f as Frame);
      printer.update(t);
    }
    // eslint-disable-next-line no-control-regex
    const raw = out.match(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/g);
    assert.equal(raw, null, `control characters written raw: ${JSON.stringify(raw)}`);
    assert.match(out, /copy .*52;c;ZWNobyBwd25lZA==.* now\tok\n/);
    assert.match(out, /safe.EVIL /);
  });
});
