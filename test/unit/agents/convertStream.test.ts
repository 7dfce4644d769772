// `rawp convert` streams (decision 726): stdin is converted in a worker thread as it comes. For
// every captured fixture of the four formats, the streamed conversion (stdin in odd-sized chunks,
// cutting lines and multi-byte characters) writes the same frames and warnings as the whole-text
// conversion (a small file, converted in one go as before), byte for byte once the random ids,
// timestamps and measured durations are named in order; the result passes rawp validate.
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { runCli } from '../../../src/cli/main';
import { validateText, formatText } from '../../../src/protocol/conformance';
import { normalized } from '../../support/normalizedFrames';

const NATIVE = join(__dirname, '..', '..', 'fixtures', 'native');
const FORMATS = ['claude-code', 'codex', 'acp', 'gemini'];

interface Run {
  code: number;
  out: string;
  err: string;
}

async function convert(args: string[], stdin?: Buffer, chunk = 997): Promise<Run> {
  const io = { stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough() };
  let out = '';
  let err = '';
  io.stdout.on('data', (c) => (out += c));
  io.stderr.on('data', (c) => (err += c));
  const feeding = (async () => {
    const bytes = stdin ?? Buffer.alloc(0);
    for (let i = 0; i < bytes.length; i += chunk) {
      if (!io.stdin.write(bytes.subarray(i, i + chunk))) await new Promise((r) => io.stdin.once('drain', r));
    }
    io.stdin.end();
  })();
  const code = await runCli(['convert', ...args], io);
  await feeding;
  return { code, out, err };
}

describe('rawp convert streams stdin through its conversion thread with the same output as converting the whole text (decision 726)', function () {
  this.timeout(60_000);

  for (const format of FORMATS) {
    for (const name of readdirSync(join(NATIVE, format)).filter((f) => f.endsWith('.jsonl'))) {
      it(`${format}/${name}: streamed in 997-byte chunks = converted whole (frames, warnings, exit code), and rawp validate passes`, async () => {
        const file = join(NATIVE, format, name);
        const args = ['--from', format, '--session-id', 'session-1'];
        const whole = await convert([...args, file]);
        const streamed = await convert(args, readFileSync(file));
        assert.equal(whole.code, 0, whole.err);
        assert.equal(streamed.code, 0, streamed.err);
        assert.equal(streamed.err, whole.err);
        assert.equal(normalized(streamed.out), normalized(whole.out));
        const v = validateText(streamed.out);
        assert.equal(v.errors, 0, formatText(v));
      });
    }
  }

  it('a streamed capture with a byte order mark, CR LF line ends, a garbage line and a line nested 5,000 deep: the same warnings with the same line numbers and the same frames as converting it whole', async () => {
    const lines = readFileSync(join(NATIVE, 'claude-code', 'bash.jsonl'), 'utf8').split('\n');
    const deep = `{"type":"assistant","x":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    const text = `\ufeff${[...lines.slice(0, 5), 'not json', deep, ...lines.slice(5)].join('\r\n')}`;
    const args = ['--from', 'claude-code', '--session-id', 'session-1'];
    const dir = mkdtempSync(join(tmpdir(), 'rawp-convert-stream-'));
    const file = join(dir, 'capture.jsonl');
    writeFileSync(file, text);
    const whole = await convert([...args, file]).finally(() => rmSync(dir, { recursive: true, force: true }));
    const streamed = await convert(args, Buffer.from(text), 4096);
    assert.equal(streamed.code, 0, streamed.err);
    assert.match(streamed.err, /^convert: 6: not JSON: .*\nconvert: 7: could not be read \(arrays and objects nested deeper than 64 levels\)\n$/);
    assert.equal(streamed.err, whole.err);
    assert.equal(normalized(streamed.out), normalized(whole.out));
  });

  it('streamed input with nothing to convert writes no frames and exits 1 with the word why, as before', async () => {
    for (const input of ['', 'not json\n{"also":"not a line of a transcript"}\n']) {
      const r = await convert(['--from', 'codex'], Buffer.from(input));
      assert.equal(r.code, 1);
      assert.equal(r.out, '');
      assert.match(r.err, /rawp convert: nothing in the input could be read as --from codex \(.*\); no frames were written\n$/);
    }
  });
});
