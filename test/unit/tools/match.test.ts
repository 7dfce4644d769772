import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { applyEdits, foldTypography, toLf } from '../../../src/tools/ledger/match';
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

  it('read-before-write: on a file of mixed line endings only the matched region changes, and the text is the LF edit with the file\'s endings (decision 704)', () => {
    const mixed = fc
      .array(fc.tuple(line, fc.boolean()), { minLength: 2, maxLength: 8 })
      .map((ls) => ls.map(([l, crlf], k) => l + (k === 0 ? '\r\n' : k === 1 ? '\n' : crlf ? '\r\n' : '\n')).join(''));
    fc.assert(
      fc.property(mixed, fc.nat(), fc.nat(), fc.string({ unit: fc.constantFrom('N', '\n', '\r\n'), maxLength: 6 }), (native, a, b, repl) => {
        const lf = toLf(native);
        // Where each offset of the LF text lies in the file's own text (a CRLF's LF at its CR).
        const at: number[] = [];
        for (let n = 0; n <= native.length; n++) if (!(native[n] === '\n' && native[n - 1] === '\r')) at.push(n);
        const i = a % lf.length;
        const j = Math.min(lf.length, i + 1 + (b % 8));
        const needle = lf.slice(i, j);
        if (lf.indexOf(needle) !== i || lf.indexOf(needle, i + 1) !== -1) return;
        const r = applyEdits(native, [{ old_string: needle, new_string: repl }], 'f');
        assert.equal(toLf(r.text), lf.slice(0, i) + toLf(repl) + lf.slice(j), 'the same edit as on the LF text');
        assert.ok(r.text.startsWith(native.slice(0, at[i])), 'bytes before the region kept');
        assert.ok(r.text.endsWith(native.slice(at[j])), 'bytes after the region kept');
      }),
    );
  });
});
