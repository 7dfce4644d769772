// What `rawp attach`, `rawp run` and `rawp serve`'s log write of text they did not make: controls
// shown as pictures, bidi controls and invisible characters by name, the rest as it is
// (src/cli/controlPictures.ts, decision 722).
import { strict as assert } from 'node:assert';
import { showControls } from '../../../src/cli/controlPictures';
import { logPart } from '../../../src/cli/logLine';

describe('cli/controlPictures: text shown on a terminal, not obeyed and not disguised', () => {
  it('a zero-width space, a byte order mark, a soft hyphen and a Hangul filler in a name are shown by name', () => {
    assert.equal(showControls('cat a\u200Bb.txt'), 'cat a<U+200B>b.txt');
    assert.equal(showControls('\uFEFFsecret'), '<U+FEFF>secret');
    assert.equal(showControls('pass\u00ADwd'), 'pass<U+00AD>wd');
    assert.equal(showControls('\u3164'), '<U+3164>');
  });

  it('bidi overrides and isolates are shown by name; tab and line feed pass in free text', () => {
    assert.equal(showControls('invoice\u202Etxt.exe'), 'invoice<U+202E>txt.exe');
    assert.equal(showControls('a\u2066b\u2069'), 'a<U+2066>b<U+2069>');
    assert.equal(showControls('one\ttwo\nthree\u001b[2J'), 'one\ttwo\nthree␛[2J');
  });

  it('what languages and emoji need passes unchanged: joiners, direction marks, Korean, Arabic', () => {
    const family = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}';
    const persian = 'می\u200Cخواهم';
    const marks = 'abc\u200E \u05D0\u200F \u0627\u061C';
    for (const text of [family, persian, marks, '한국어 파일.md', 'naïve café']) assert.equal(showControls(text), text);
  });

  it('the serve log shows the same characters by name, and tab and line feed as pictures (one line)', () => {
    assert.equal(logPart('type\u202Egnp.exe\u200B\n'), 'type<U+202E>gnp.exe<U+200B>␊');
  });
});
