// Hashing and encoding in event-loop turns (src/workspace/bytesInTurns.ts, fileVersion.ts): the
// sliced forms give exactly the bytes and versions of the one-go forms, so a read-before-write
// version issued by either is the same token (read-before-write.md: identical bytes, identical version).
import { strict as assert } from 'node:assert';
import { createHash, randomBytes } from 'node:crypto';
import { digestInTurns, encodeUtf8InTurns, SLICE_BYTES } from '../../../src/workspace/bytesInTurns';
import { versionOfBytes, versionOfBytesAsync, versionOfText, versionOfTextAsync } from '../../../src/workspace/fileVersion';
import { lineEndingOf, lineEndingOfBytesInTurns } from '../../../src/workspace/lineEndings';

/** Sizes around every boundary the slicing has: empty, one byte, one slice ± 1, several slices ± 1. */
const SIZES = [0, 1, 2, 1000, SLICE_BYTES - 1, SLICE_BYTES, SLICE_BYTES + 1, 3 * SLICE_BYTES - 1, 3 * SLICE_BYTES, 3 * SLICE_BYTES + 7];

describe('workspace: file versions and UTF-8 in event-loop turns (read-before-write versions)', () => {
  it('read-before-write: versionOfBytesAsync gives the version of versionOfBytes (c1: + SHA-256 base64url) for empty, small and multi-slice random bytes', async () => {
    for (const size of SIZES) {
      const bytes = randomBytes(size);
      const want = versionOfBytes(bytes);
      assert.equal(want, 'c1:' + createHash('sha256').update(bytes).digest('base64url'), 'the format is unchanged');
      assert.equal(await versionOfBytesAsync(bytes), want, `size ${size}`);
      // A view into a bigger buffer hashes only its own bytes.
      const framed = Buffer.concat([randomBytes(5), bytes, randomBytes(5)]).subarray(5, 5 + size);
      assert.equal(await versionOfBytesAsync(framed), want, `size ${size} (a subarray)`);
    }
  });

  it('read-before-write: digestInTurns over several parts equals one hash of their concatenation (sha256 and sha1, hex)', async () => {
    const parts = [randomBytes(3), randomBytes(0), randomBytes(2 * SLICE_BYTES + 11), randomBytes(SLICE_BYTES - 2)];
    const all = Buffer.concat(parts);
    assert.equal(await digestInTurns('sha256', parts, 'hex'), createHash('sha256').update(all).digest('hex'));
    assert.equal(await digestInTurns('sha1', parts, 'hex'), createHash('sha1').update(all).digest('hex'));
    assert.equal(await digestInTurns('sha256', [], 'base64url'), createHash('sha256').digest('base64url'));
  });

  it('read-before-write: encodeUtf8InTurns gives the bytes of Buffer.from(text, "utf8") — surrogate pairs on a slice boundary, lone surrogates, every UTF-8 length', async () => {
    let seed = 490;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    // One to four UTF-8 bytes per character, a pair of surrogates, and lone halves (U+FFFD in UTF-8).
    const pieces = ['a', '\n', 'é', '한', '€', '😀', '\ud83d', '\ude00', '\r\n'];
    const units = Math.floor(SLICE_BYTES / 3);
    const texts = [
      '',
      'x',
      'a'.repeat(units - 1) + '😀' + 'b'.repeat(units), // the pair straddles the first cut
      'a'.repeat(units - 1) + '\ud83d' + 'b', // a lone high surrogate right at the cut
      'a'.repeat(units) + '\ude00' + 'b', // a lone low surrogate right after it
      '😀'.repeat(units + 3),
      Array.from({ length: 3 * units }, () => pieces[Math.floor(rnd() * pieces.length)]).join(''),
    ];
    for (const text of texts) {
      const want = Buffer.from(text, 'utf8');
      const got = await encodeUtf8InTurns(text);
      assert.ok(got.equals(want), `a text of ${text.length} units: ${got.length} bytes, want ${want.length}`);
      assert.equal(await versionOfTextAsync(text), versionOfText(text));
    }
  });

  it('read-before-write: the line-ending style read off bytes in turns is the one read off the text, with CRLFs and LFs at every slice boundary', async () => {
    // Texts of LF, CRLF and lone CR line breaks in random proportions; a CRLF whose LF starts a
    // slice is still a CRLF (its CR is the last byte of the slice before).
    for (const size of SIZES) {
      for (const crlfShare of [0, 0.3, 0.5, 0.7, 1]) {
        const bytes = Buffer.alloc(size, 0x61);
        for (let i = 1; i < size; i += 1 + Math.floor(Math.random() * 40)) {
          bytes[i] = 10;
          if (Math.random() < crlfShare) bytes[i - 1] = 13;
          else if (Math.random() < 0.1 && i + 1 < size) bytes[i + 1] = 13; // a lone CR after it
        }
        // An LF at each slice's first byte with a CR before it: the pair spans the boundary.
        for (let at = SLICE_BYTES; at < size; at += SLICE_BYTES) [bytes[at - 1], bytes[at]] = [13, 10];
        const text = bytes.toString('latin1');
        assert.equal(await lineEndingOfBytesInTurns(bytes), lineEndingOf(text), `size ${size}, CRLF share ${crlfShare}`);
      }
    }
    assert.equal(await lineEndingOfBytesInTurns(Buffer.from('no breaks')), undefined);
    assert.equal(await lineEndingOfBytesInTurns(Buffer.from('a\r\nb\r\nc\n')), 'crlf');
    assert.equal(await lineEndingOfBytesInTurns(Buffer.from('a\r\nb\nc\n')), 'lf');
  });

  it('read-before-write: a 20 MB hash in turns lets timers run in between (no single synchronous hash)', async () => {
    const bytes = randomBytes(20 * 1024 * 1024);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    try {
      assert.equal(await versionOfBytesAsync(bytes), versionOfBytes(bytes));
    } finally {
      clearInterval(timer);
    }
    assert.ok(ticks >= 2, `a timer ran ${ticks} times while 20 MB were hashed; the hash must yield between slices`);
  });
});
