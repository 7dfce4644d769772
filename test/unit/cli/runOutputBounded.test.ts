// Decision 716: `rawp run` wrote each error and notice to stderr whole: a 20 MB agent error became
// a 20 MB stderr line. Each message is now cut (STDERR_MESSAGE_CHARS, saying how much was left
// out) and its control characters shown, not obeyed.
import { strict as assert } from 'node:assert';
import { PassThrough } from 'node:stream';
import { errorLines, STDERR_MESSAGE_CHARS } from '../../../src/cli/run/output';
import type { HeadlessResult } from '../../../src/host/headlessRun';

function stderrOf(r: HeadlessResult): string[] {
  const err = new PassThrough();
  let text = '';
  err.on('data', (c: Buffer) => (text += c.toString('utf8')));
  errorLines({ stdin: new PassThrough(), stdout: new PassThrough(), stderr: err }, r, 'en');
  return text.split('\n').filter((l) => l !== '');
}

const result = (errors: HeadlessResult['errors']): HeadlessResult => ({ session_id: 's', text: '', permission_denials: [], errors, notices: [], num_turns: 0, duration_ms: 0 });

describe('rawp run output: a message of megabytes is one short line (decision 716)', () => {
  it('a 20 MB agent error is cut to a line of a few thousand characters, saying how much was left out; its escape sequences shown', () => {
    const lines = stderrOf(result([{ source: 'agent', error_code: `X${'\u001b'.repeat(5000)}`, message: `\u001b]0;PWNED\u0007${'m'.repeat(20 * 1024 * 1024)}`, severity: 'error' }]));
    assert.equal(lines.length, 1);
    assert.ok(lines[0].length < STDERR_MESSAGE_CHARS + 300, `${lines[0].length} characters`);
    assert.match(lines[0], /^rawp run: agent error X␛+… \[\d+ more characters\]: ␛\]0;PWNED␇m+… \[\d+ more characters\]$/);
    assert.ok(!lines[0].includes('\u001b'));
  });

  it('a message within the bound is written whole', () => {
    assert.deepEqual(stderrOf(result([{ source: 'session', error_code: 'NO_TURN', message: 'the prompt started no turn within 60 s' }])), ['rawp run: session error NO_TURN: the prompt started no turn within 60 s']);
  });
});
