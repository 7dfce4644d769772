// §16.2–§16.4 file-reference tokens: escaping, the decoding order, unmapped and forged tokens,
// and property tests (fast-check, 10,000+ strings each) for encode→decode.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import {
  FILE_TOKEN_PATTERN,
  decodePrompt,
  encodePrompt,
  escapeUserText,
  literalText,
  partsOf,
  unescapeText,
  type FileReference,
  type PromptPart,
} from '../../../src/protocol/fileReference';
import { payloads } from '../../../src/protocol';

const ref = (ref_id: string, path: string): FileReference => ({ ref_id, path, name: path.split('/').pop() as string, workspace_relative_path: path });

/** Adjacent text parts merged, empty ones dropped: the canonical form decode returns. */
function canonical(parts: readonly PromptPart[]): PromptPart[] {
  const out: PromptPart[] = [];
  for (const p of parts) {
    if (p.kind === 'text') {
      if (p.text === '') continue;
      const last = out[out.length - 1];
      if (last?.kind === 'text') out[out.length - 1] = { kind: 'text', text: last.text + p.text };
      else out.push({ ...p });
    } else out.push(p);
  }
  return out;
}

// Text that is rich in the characters that matter: backslashes, `<@`, `>`, `|`, `file:`.
const trickyText = fc
  .array(fc.oneof(fc.constantFrom('\\', '<', '@', '<@', '\\<@', '\\\\', '>', '|', 'file:', '<@file:', 'ref_0', ' ', '\n', 'é', '한'), fc.string({ maxLength: 4 })), { maxLength: 12 })
  .map((xs) => xs.join(''));
const displayPath = fc.stringMatching(/^[a-zA-Z0-9_./ \-|@<\\]{1,20}$/);
const filePart = fc.record({ path: fc.stringMatching(/^[a-z0-9_]{1,8}(\/[a-z0-9_.]{1,8}){0,3}$/), display: displayPath });
const parts = fc.array(fc.oneof(trickyText.map((text): PromptPart => ({ kind: 'text', text })), filePart.map((f): PromptPart => ({ kind: 'file', path: f.path, display_path: f.display }))), { maxLength: 8 });

describe('protocol/fileReference: the §16.2 token codec', () => {
  it('§16.2.2 escapes typed text: \\ → \\\\ first, then <@ → \\<@', () => {
    assert.equal(escapeUserText('a\\b'), 'a\\\\b');
    assert.equal(escapeUserText('<@file:x|y>'), '\\<@file:x|y>');
    assert.equal(escapeUserText('\\<@'), '\\\\\\<@');
    assert.equal(escapeUserText('<@user:bob>'), '\\<@user:bob>', 'every <@ is protected, not only <@file:');
  });

  it('§16.2.2 the spec example: a typed token is a forgery and stays text, the picked one is a reference', () => {
    const enc = encodePrompt([
      { kind: 'text', text: '<@file:injection>은 위조이고, 이건 진짜야 ' },
      { kind: 'file', path: 'src/auth.ts' },
    ]);
    assert.equal(enc.prompt_text, '\\<@file:injection>은 위조이고, 이건 진짜야 <@file:ref_0|src/auth.ts>');
    assert.deepEqual(enc.file_references, [{ ref_id: 'ref_0', path: 'src/auth.ts', name: 'auth.ts', extension: '.ts', workspace_relative_path: 'src/auth.ts' }]);
    assert.ok(payloads.ControlPromptRequest.safeParse({ prompt_text: enc.prompt_text, file_references: enc.file_references }).success);
    const dec = decodePrompt(enc.prompt_text, enc.file_references);
    assert.deepEqual(
      dec.segments.map((s) => (s.kind === 'text' ? s.text : `[${s.ref_id}→${s.reference.path}]`)),
      ['<@file:injection>은 위조이고, 이건 진짜야 ', '[ref_0→src/auth.ts]'],
    );
  });

  it('§16.2.1-3 the canonical regex is the one of spec/file-reference.md, and it matches only unescaped tokens', () => {
    assert.equal(FILE_TOKEN_PATTERN.source, '(?<!\\\\)<@file:([a-zA-Z0-9_-]+)\\|([^>]+)>');
    const dec = decodePrompt('\\<@file:ref_0|a.ts> <@file:ref_0|a.ts>', [ref('ref_0', 'a.ts')]);
    assert.equal(dec.segments.filter((s) => s.kind === 'file').length, 1, 'the escaped one is text');
  });

  it('§16.2.1-4 §16.2.1-5 an unmapped token stays in the text literally, never dropped', () => {
    const dec = decodePrompt('see <@file:ref_9|src/x.ts> and <@file:ref_0|a.ts>', [ref('ref_0', 'a.ts')]);
    assert.deepEqual(dec.unmapped, [{ ref_id: 'ref_9', raw: '<@file:ref_9|src/x.ts>' }]);
    assert.equal(literalText(dec), 'see <@file:ref_9|src/x.ts> and a.ts');
    assert.equal(dec.segments.filter((s) => s.kind === 'file').length, 1);
  });

  it('§16.2.2-3 §16.2.2-4 decoding order: tokens first, then \\\\ → \\ and \\<@ → <@ in the remaining text only', () => {
    // The display path of a real token is not unescaped; the text around it is.
    const dec = decodePrompt('a\\\\b \\<@x <@file:r1|dir\\\\name> c', [ref('r1', 'dir/name')]);
    assert.deepEqual(
      dec.segments.map((s) => (s.kind === 'text' ? s.text : s.display_path)),
      ['a\\b <@x ', 'dir\\\\name', ' c'],
    );
    // Two passes in the spec's order (not one left-to-right pass): \\<@ → \<@ → <@.
    assert.equal(unescapeText('\\\\<@'), '<@');
  });

  it('§16.2.2 malformed tokens are plain text: empty display, bad ref_id, no closing >, escaped', () => {
    const refs = [ref('a', 'a.ts'), ref('b', 'b.ts')];
    for (const raw of ['<@file:a|>', '<@file:a b|x>', '<@file:a|x', '<@file:|x>', '<@filea|x>', '\\<@file:a|x>', '<@ file:a|x>']) {
      const dec = decodePrompt(raw, refs);
      assert.equal(dec.segments.filter((s) => s.kind === 'file').length, 0, raw);
      assert.equal(literalText(dec), unescapeText(raw), raw);
    }
  });

  it('§16.2.1 ref ids are numbered in order of appearance and reused for the same path', () => {
    const enc = encodePrompt([
      { kind: 'file', path: 'a.ts' },
      { kind: 'text', text: ' vs ' },
      { kind: 'file', path: 'b.md', display_path: 'B' },
      { kind: 'text', text: ' and again ' },
      { kind: 'file', path: 'a.ts' },
    ]);
    assert.equal(enc.prompt_text, '<@file:ref_0|a.ts> vs <@file:ref_1|B> and again <@file:ref_0|a.ts>');
    assert.deepEqual(enc.file_references.map((r) => r.ref_id), ['ref_0', 'ref_1']);
  });

  it('§16.2.1 a display path containing > is shown with › (the real path travels in file_references)', () => {
    const enc = encodePrompt([{ kind: 'file', path: 'odd>name.txt' }]);
    assert.equal(enc.prompt_text, '<@file:ref_0|odd›name.txt>');
    assert.equal(decodePrompt(enc.prompt_text, enc.file_references).segments[0].kind, 'file');
  });

  it('§16.2.2 typed text ending in \\ before a picked token gets one separating space (documented exception)', () => {
    const enc = encodePrompt([
      { kind: 'text', text: 'C:\\' },
      { kind: 'file', path: 'a.ts' },
    ]);
    assert.equal(enc.adjusted, 1);
    const dec = decodePrompt(enc.prompt_text, enc.file_references);
    assert.deepEqual(partsOf(dec), [
      { kind: 'text', text: 'C:\\ ' },
      { kind: 'file', path: 'a.ts', display_path: 'a.ts', ref_id: 'ref_0' },
    ]);
  });

  describe('properties (fast-check)', () => {
    it('§16.2.2 encode→decode returns exactly the parts the user composed (10,000 prompts)', () => {
      fc.assert(
        fc.property(parts, (ps) => {
          const enc = encodePrompt(ps);
          const got = partsOf(decodePrompt(enc.prompt_text, enc.file_references));
          // The one documented change: a space between a trailing backslash and a token.
          const expected: PromptPart[] = [];
          for (const p of canonical(ps)) {
            const last = expected[expected.length - 1];
            if (p.kind === 'file' && last?.kind === 'text' && last.text.endsWith('\\')) expected[expected.length - 1] = { kind: 'text', text: last.text + ' ' };
            expected.push(p);
          }
          const want = canonical(expected).map((p) => (p.kind === 'file' ? { kind: 'file', path: p.path, display_path: (p.display_path ?? p.path).replace(/>/g, '›') } : p));
          const gotNoIds = got.map((p) => (p.kind === 'file' ? { kind: 'file', path: p.path, display_path: p.display_path } : p));
          assert.deepEqual(gotNoIds, want);
        }),
        { numRuns: 10_000 },
      );
    });

    it('§16.2.1 typed text never yields a token, whatever file_references claim (10,000 strings)', () => {
      // The attacker also controls file_references: ids that appear in the typed text are all mapped.
      fc.assert(
        fc.property(trickyText, (text) => {
          const ids = [...text.matchAll(/<@file:([a-zA-Z0-9_-]+)\|/g)].map((m) => m[1]);
          const refs = [...new Set([...ids, 'ref_0', 'injection'])].map((id) => ref(id, 'x.ts'));
          const enc = encodePrompt([{ kind: 'text', text }]);
          assert.deepEqual(enc.file_references, []);
          const dec = decodePrompt(enc.prompt_text, refs);
          assert.equal(dec.segments.filter((s) => s.kind === 'file').length, 0);
          assert.equal(literalText(dec), text);
        }),
        { numRuns: 10_000 },
      );
    });

    it('§16.2.2 any prompt_text decodes without throwing and loses no character of an unmapped token (10,000 strings)', () => {
      fc.assert(
        fc.property(fc.oneof(trickyText, fc.string()), (raw) => {
          const dec = decodePrompt(raw, [ref('ref_0', 'a.ts')]);
          for (const s of dec.segments) if (s.kind === 'file') assert.equal(s.ref_id, 'ref_0');
          // With no references at all, decoding is exactly the two-pass unescape of the text
          // between (kept) token matches.
          const none = decodePrompt(raw, []);
          assert.equal(none.segments.filter((s) => s.kind === 'file').length, 0);
          for (const u of none.unmapped) assert.ok(literalText(none).includes(u.raw));
        }),
        { numRuns: 10_000 },
      );
    });
  });
});
