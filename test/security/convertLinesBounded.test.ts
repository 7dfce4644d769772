// Security property "a transcript line nested too deep is one line `rawp convert` could not read,
// not the end of the conversion" (decision 717). Reproduced with the built `rawp convert` before
// it: one 10 KB line nesting a tool's input 5,000 deep in a real Claude Code capture ended the
// conversion with "rawp convert: Maximum call stack size exceeded", exit 2, after 5 of the
// capture's frames (JSON.parse took the line; writing the frame made from it did not).
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCliOnce, CLI, ROOT } from '../support/rawpRun';
import { validateText, formatText } from '../../src/protocol/conformance';

const CAPTURE = join(ROOT, 'test', 'fixtures', 'native', 'claude-code', 'bash.jsonl');
const DEEP_LINE = `{"type":"assistant","message":{"id":"msg_deep","type":"message","role":"assistant","model":"m","content":[{"type":"tool_use","id":"toolu_deep","name":"Bash","input":{"command":"ls","x":${'['.repeat(5000)}${']'.repeat(5000)}}}]}}`;

function rawpConvert(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'convert', ...args], { cwd: ROOT });
    let out = '';
    let err = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
    child.stdin.end();
  });
}

describe('security: rawp convert reads past a line nested 5,000 deep (decision 717; the built CLI)', function () {
  this.timeout(120_000);
  let dir: string;
  before(() => buildCliOnce());
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'rawp-convert-deep-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a Claude Code capture with a line nested 5,000 deep in its middle converts whole: the line is "convert: N: could not be read (arrays and objects nested deeper than 64 levels)" on stderr, exit 0, and the frames pass rawp validate, the same as the capture alone', async () => {
    const lines = readFileSync(CAPTURE, 'utf8').split('\n');
    const at = 10; // the deep line becomes line 11
    const file = join(dir, 'with-deep.jsonl');
    writeFileSync(file, [...lines.slice(0, at), DEEP_LINE, ...lines.slice(at)].join('\n'));
    const plain = await rawpConvert(['--from', 'claude-code', '--session-id', 's-1', CAPTURE]);
    const r = await rawpConvert(['--from', 'claude-code', '--session-id', 's-1', file]);
    assert.equal(r.code, 0, r.err);
    assert.equal(r.err, `${plain.err}convert: ${at + 1}: could not be read (arrays and objects nested deeper than 64 levels)\n`);
    const types = (out: string) => out.split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { type: string }).type);
    assert.deepEqual(types(r.out), types(plain.out));
    const v = validateText(r.out);
    assert.equal(v.errors, 0, formatText(v));
  });
});
