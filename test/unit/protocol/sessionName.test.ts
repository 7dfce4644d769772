import { strict as assert } from 'node:assert';
import { cleanSessionName, SESSION_NAME_MAX } from '../../../src/protocol/sessionName';

describe('protocol/sessionName: a session name is one line of visible text (decision 566)', () => {
  it('§7.6 line breaks, controls and runs of space become one space; direction controls go; joiners stay', () => {
    assert.equal(cleanSessionName('  a\r\n\tb\u0085c\u2028d\u001b[0m  '), 'a b c d [0m');
    assert.equal(cleanSessionName('\u202Egnp.exe'), 'gnp.exe');
    assert.equal(cleanSessionName('x\u2066y\u2069\u200Fz\u061C'), 'xyz');
    assert.equal(cleanSessionName('👩\u200D💻 작업'), '👩\u200D💻 작업');
    // Invisible characters go (a zero-width space made "Re\u200Blease" look like another session).
    assert.equal(cleanSessionName('Re\u200Blease\uFEFF no\u00ADtes'), 'Release notes');
    assert.equal(cleanSessionName('\u3164\u200B'), '', 'a name of fillers alone is no name');
    assert.equal(cleanSessionName('می\u200Cخواهم'), 'می\u200Cخواهم', 'a non-joiner stays (Persian needs it)');
    assert.equal(cleanSessionName(' \u202A\u0000\u3000 '), '');
  });

  it('§7.6 a long name is cut at 200 units, never inside a surrogate pair, and the work is bounded', () => {
    const emoji = `${'a'.repeat(SESSION_NAME_MAX - 1)}😀tail`;
    assert.equal(cleanSessionName(emoji), 'a'.repeat(SESSION_NAME_MAX - 1));
    assert.equal(cleanSessionName('b'.repeat(10_000_000)).length, SESSION_NAME_MAX);
    assert.equal(cleanSessionName(`${'x'.repeat(SESSION_NAME_MAX)} `), 'x'.repeat(SESSION_NAME_MAX));
  });
});
