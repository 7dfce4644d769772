import { strict as assert } from 'node:assert';
import { cleanSessionName, nameFromPrompt, SESSION_NAME_MAX } from '../../../src/protocol/sessionName';

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
  it('decision 651: a first prompt gives a name: its words (file references as their paths) on one line, cut at a word with "…"', () => {
    assert.equal(nameFromPrompt({ prompt_text: 'fix the failing test' }), 'fix the failing test');
    assert.equal(nameFromPrompt({ prompt_text: 'read <@file:r1|src/a.ts> and\nexplain it' , file_references: [{ ref_id: 'r1', path: 'src/a.ts', display_path: 'src/a.ts' }] as never }), 'read src/a.ts and explain it');
    const long = nameFromPrompt({ prompt_text: 'please refactor the session host so that every connection shares one admission queue' });
    assert.equal(long, 'please refactor the session host so that every…');
    assert.ok(long.length <= 49);
    assert.equal(nameFromPrompt({ prompt_text: '가'.repeat(60) }), `${'가'.repeat(48)}…`, 'no word to cut at: cut at the bound');
    assert.equal(nameFromPrompt({ prompt_text: `${'a'.repeat(47)}😀 tail` }).endsWith('a…'), true, 'never half of a surrogate pair');
    assert.equal(nameFromPrompt({ prompt_text: '\u202E \n ' }), '', 'nothing visible: no name');
  });
});
