import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { applyEdits, foldTypography } from '../../../src/tools/ledger/match';
import { FsError } from '../../../src/workspace/fsBackend';

const line = fc.string({ unit: fc.constantFrom('a', 'b', ' ', 'x', '\u2019', '-', '\u2014'), maxLength: 8 });
const text = fc.array(line, { minLength: 1, maxLength: 8 }).map((ls) => ls.join('\n') + '\n');

function code(f: () => unknown): string | undefined {
  try {
    f();
    return undefined;
  } catch (e) {
    return (e as FsError).code;
  }
}

describe('tools: edit matching', () => {
  it('read-before-write: a unique old_string is replaced exactly like String.replace', () => {
    fc.assert(
      fc.property(text, fc.string({ maxLength: 5 }), (t, repl) => {
        const marker = 'QQ';
        const at = Math.floor(t.length / 2);
        const src = t.slice(0, at) + marker + t.slice(at);
        const r = applyEdits(src, [{ old_string: marker, new_string: repl.replace(/\r/g, '') }], 'f');
        assert.equal(r.text, src.replace(marker, () => repl.replace(/\r/g, '')));
        assert.equal(r.replacements, 1);
      }),
    );
  });

  it('read-before-write: matching is the same on CRLF and LF text (line endings normalized)', () => {
    fc.assert(
      fc.property(text, fc.nat(), fc.nat(), (t, a, b) => {
        const lf = t;
        const crlf = t.replace(/\n/g, '\r\n');
        const i = a % lf.length;
        const j = Math.min(lf.length, i + 1 + (b % 6));
        const needle = lf.slice(i, j);
        const onLf = code(() => applyEdits(lf, [{ old_string: needle, new_string: 'Z' }], 'f'));
        const onCrlf = code(() => applyEdits(crlf, [{ old_string: needle.replace(/\n/g, '\r\n'), new_string: 'Z' }], 'f'));
        assert.equal(onCrlf, onLf);
        if (onLf === undefined) {
          assert.equal(applyEdits(crlf, [{ old_string: needle, new_string: 'Z' }], 'f').text, applyEdits(lf, [{ old_string: needle, new_string: 'Z' }], 'f').text);
        }
      }),
    );
  });

  it('read-before-write: the typographic fold maps one character to one, so offsets carry over', () => {
    fc.assert(fc.property(fc.string({ maxLength: 40 }), (s) => assert.equal(foldTypography(s).length, s.length)));
    assert.equal(foldTypography('\u201Cx\u201D \u2013 y\u00A0z\u2019'), '"x" - y z\'');
  });

  it('read-before-write: exact matches win over folded ones; folding is only a fallback', () => {
    const r = applyEdits("it's and it\u2019s\n", [{ old_string: "it's", new_string: 'it is' }], 'f');
    assert.equal(r.text, 'it is and it\u2019s\n');
    assert.deepEqual(r.unicode_normalized, []);
    assert.equal(code(() => applyEdits('it\u2019s it\u2018s\n', [{ old_string: "it's", new_string: 'x' }], 'f')), 'FS_AMBIGUOUS_EDIT');
  });
});
