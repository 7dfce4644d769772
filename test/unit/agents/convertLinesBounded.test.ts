// `rawp convert` refuses a transcript line nested deeper than an agent's line may be, or longer than
// the live reader keeps, as one line it could not read, and converts the others (decision 717).
// Before: JSON.parse took a line nested 5,000 deep, and the frame made from it could not be written
// (`rawp convert --from claude-code` and `--from gemini` stopped with "Maximum call stack size
// exceeded", exit 2, the frames after it lost); a line of 64 Mi characters became a frame of it.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { getConverter } from '../../../src/agents/convert';
import { MAX_LINE_CHARS } from '../../../src/agents/process/jsonLines';
import { validateText, formatText } from '../../../src/protocol/conformance';

const NATIVE = path.resolve(__dirname, '../../fixtures/native');
const SESSION = '6f1c2a4e-1d2b-4c3a-9e8f-0a1b2c3d4e5f';
const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
const DEEP = deep(5000);
const TOO_DEEP = 'could not be read (arrays and objects nested deeper than 64 levels)';

/** A real capture of each format, and a line of its own shape that reaches a frame, nesting `inner`. */
const CASES: Array<{ id: string; fixture: string; line(inner: string, fixtureLines: string[]): string }> = [
  {
    id: 'claude-code',
    fixture: 'claude-code/bash.jsonl',
    line: (inner) => `{"type":"assistant","message":{"id":"msg_deep","type":"message","role":"assistant","model":"m","content":[{"type":"tool_use","id":"toolu_deep","name":"Bash","input":{"command":"ls","x":${inner}}}]}}`,
  },
  {
    id: 'codex',
    fixture: 'codex/exec-resume-three-turns.jsonl',
    line: (inner) => `{"type":"item.started","item":{"id":"item_deep","type":"mcp_tool_call","server":"s","tool":"t","arguments":{"x":${inner}},"status":"in_progress"}}`,
  },
  {
    id: 'acp',
    fixture: 'acp/gemini-four-turns.jsonl',
    line: (inner, lines) => {
      const sessionId = /"sessionId":"([^"]+)"/.exec(lines.join('\n'))?.[1] ?? 's';
      return `{"direction":"agent->client","message":{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"${sessionId}","update":{"sessionUpdate":"tool_call","toolCallId":"deep","status":"in_progress","title":"x","kind":"execute","rawInput":{"x":${inner}}}}}}`;
    },
  },
  {
    id: 'gemini',
    fixture: 'gemini/stream-json-two-runs.jsonl',
    line: (inner) => `{"type":"tool_use","tool_name":"run_shell_command","tool_id":"deep","parameters":{"command":"ls","x":${inner}}}`,
  },
];

function fixtureLines(file: string): string[] {
  return readFileSync(path.join(NATIVE, file), 'utf8').split(/\r?\n/);
}

/** The frames by type (their ids and times are made afresh by each conversion). */
function shapes(frames: Array<{ type: string }>): string[] {
  return frames.map((f) => f.type);
}

describe('rawp convert: a line nested too deep, or too long, is one line that could not be read (decision 717)', () => {
  for (const c of CASES) {
    it(`--from ${c.id}: a line nested 5,000 deep in the middle of a real capture is refused with its line number ("${TOO_DEEP}"), nothing throws, and every other line converts as without it; 64 levels in all are still read`, () => {
      const converter = getConverter(c.id)!;
      const lines = fixtureLines(c.fixture);
      const at = Math.floor(lines.filter((l) => l.trim()).length / 2); // 0-based: the line becomes number at + 1
      const withDeep = [...lines.slice(0, at), c.line(DEEP, lines), ...lines.slice(at)];
      const plain = converter.convert(lines, { session_id: SESSION });
      const result = converter.convert(withDeep, { session_id: SESSION });
      assert.deepEqual(
        result.warnings.filter((w) => w.line === at + 1),
        [{ line: at + 1, message: TOO_DEEP }],
      );
      assert.deepEqual(
        result.warnings.filter((w) => w.line !== at + 1),
        plain.warnings.map((w) => ({ ...w, line: w.line > at ? w.line + 1 : w.line })),
        'the other lines warn as before',
      );
      assert.deepEqual(shapes(result.frames), shapes(plain.frames), 'the same frames as the capture alone');
      const text = result.frames.map((f) => JSON.stringify(f)).join('\n');
      const v = validateText(text);
      assert.equal(v.errors, 0, formatText(v));
      // The bound is the live reader's: the same line nested 64 levels in all is read.
      const wrapping = depthAround(c.line('0', lines));
      const at64 = converter.convert([...lines.slice(0, at), c.line(deep(64 - wrapping), lines), ...lines.slice(at)], { session_id: SESSION });
      assert.ok(!at64.warnings.some((w) => /could not be read/.test(w.message)), JSON.stringify(at64.warnings));
    });
  }

  for (const id of ['claude-code', 'gemini']) {
    it(`--from ${id}: a line longer than ${MAX_LINE_CHARS.toLocaleString('en-US')} characters is refused by its length with its line number, the lines after it still convert`, function () {
      this.timeout(60_000);
      const converter = getConverter(id)!;
      const pad = 'x'.repeat(MAX_LINE_CHARS);
      const huge =
        id === 'gemini'
          ? `{"type":"message","role":"assistant","content":"${pad}"}`
          : `{"type":"assistant","message":{"id":"msg_huge","type":"message","role":"assistant","model":"m","content":[{"type":"text","text":"${pad}"}]}}`;
      const after =
        id === 'gemini'
          ? '{"type":"message","role":"assistant","content":"after the long line"}'
          : '{"type":"assistant","message":{"id":"msg_after","type":"message","role":"assistant","model":"m","content":[{"type":"text","text":"after the long line"}]}}';
      const result = converter.convert(['', huge, after], { session_id: SESSION });
      assert.deepEqual(result.warnings, [{ line: 2, message: `could not be read (longer than ${MAX_LINE_CHARS.toLocaleString('en-US')} characters: ${huge.length.toLocaleString('en-US')})` }]);
      const texts = result.frames.filter((f) => f.type === 'agent.text.delta').map((f) => (f.payload as { text: string }).text);
      assert.deepEqual(texts, ['after the long line']);
    });
  }
});

/** How deep the value at `0` sits in a line built around it (its arrays and objects). */
function depthAround(line: string): number {
  const i = line.indexOf(':0}');
  let depth = 0;
  let inString = false;
  for (let j = 0; j < i; j++) {
    const ch = line[j];
    if (inString) {
      if (ch === '\\') j++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{' || ch === '[') depth++;
    else if (ch === '}' || ch === ']') depth--;
  }
  return depth;
}
