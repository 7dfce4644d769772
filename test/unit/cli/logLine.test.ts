// `rawp serve`'s log lines carry what peers sent (a frame type, an answer): each part is shown, never
// obeyed, and cut (src/cli/logLine.ts). The real serve is attacked in test/security/logInjection.test.ts.
import { strict as assert } from 'node:assert';
import { LOG_PART_MAX, logLine, logPart } from '../../../src/cli/logLine';

describe('cli/logLine: one log line, whatever a peer put in it', () => {
  it('escape sequences, newlines, DEL and C1 are shown as characters, never written raw', () => {
    const hostile = 'x\u001b]0;TITLE\u0007\u001b[31mred\n[error] forged\r\u007f\u009b2J';
    const line = logLine('[info] ', `unknown frame type "${hostile}" ignored`, { connection: 'ws-1', why: hostile });
    // eslint-disable-next-line no-control-regex
    assert.doesNotMatch(line.slice(0, -1), /[\x00-\x1f\x7f-\x9f]/);
    assert.equal(line.split('\n').length, 2, 'one line and its newline');
    assert.match(line, /␛]0;TITLE␇␛\[31mred␊\[error\] forged␍␡\ufffd2J/);
  });

  it('a part longer than the limit is cut and says how much is left out; ordinary text is unchanged', () => {
    const cut = logPart('Z'.repeat(1_000_000));
    assert.ok(cut.length < LOG_PART_MAX + 64, `${cut.length} characters`);
    assert.match(cut, /\[… 997952 more characters\]$/);
    assert.equal(logLine('[info] ', 'sharing server listening on http://127.0.0.1:1234'), '[info] sharing server listening on http://127.0.0.1:1234\n');
    assert.equal(logLine('rawp serve: warning: ', 'tab\there', { a: 1 }), 'rawp serve: warning: tab␉here {"a":1}\n');
  });
});
