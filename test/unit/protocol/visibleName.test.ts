// Names shown, not obeyed (the picker trial of 2026-12-05: `invoice\u202Egpj.exe` read
// "invoiceexe.jpg" in the picker, the chip and the transcript).
import { strict as assert } from 'node:assert';
import { visibleName, visibleNameMap } from '../../../src/protocol/visibleName';

describe('protocol: names shown as they are (visibleName)', () => {
  it('security: bidi overrides, isolates and marks show by code point; invisible characters too; control characters as pictures', () => {
    assert.equal(visibleName('adv/invoice\u202Egpj.exe'), 'adv/invoice<U+202E>gpj.exe');
    assert.equal(visibleName('a\u2066b\u2069c\u200Fd\u061Ce'), 'a<U+2066>b<U+2069>c<U+200F>d<U+061C>e');
    assert.equal(visibleName('a\u200Bb.txt'), 'a<U+200B>b.txt');
    assert.equal(visibleName('evil\nnewline.txt'), 'evil\u240Anewline.txt');
    assert.equal(visibleName('bell\x07\x7f'), 'bell\u2407\u2421');
  });

  it('plain names, Korean, accents and emoji joiners come back as they are (the same string)', () => {
    for (const name of ['src/main.ts', 'docs/한국어/회의록 2026.txt', 'école/é.md', 'emoji/👩\u200D💻.png', 'a space/b [c].md']) assert.equal(visibleName(name), name);
  });

  it('lines: a command keeps its line feeds and tabs, but not its bidi controls', () => {
    assert.equal(visibleName('echo a\n\techo b\u202E', true), 'echo a\n\techo b<U+202E>');
  });

  it('the map takes a highlight over the name onto the shown text', () => {
    const m = visibleNameMap('x\u202Eyz');
    assert.equal(m.text, 'x<U+202E>yz');
    assert.equal(m.text.slice(m.at(2), m.at(4)), 'yz');
    assert.equal(m.at(0), 0);
    assert.equal(m.at(99), m.text.length);
  });
});
