// Token strength and failure sources (issue 12 #4, #11; decisions 162, 163): weak tokens are
// refused by an entropy estimate, generated and usual random tokens never are, and every loopback
// address counts as one source while IPv6 counts by /64.
import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { estimatedBits, generateToken, sourceKey, tokenProblem } from '../../../src/remote/auth';

describe('remote/token strength and failure sources', () => {
  it('weak tokens are refused: repeated, periodic, few distinct characters, or under 128 bits for their alphabet', () => {
    for (const weak of ['a'.repeat(40), 'ab'.repeat(20), '0123456789abcdef'.repeat(2), '1234567890'.repeat(4), 'abcdefghijklmnopqrstuv', '12345678901234567890123456789012345678', 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaabcdef']) {
      assert.match(tokenProblem(weak) ?? '', /looks weak|128 bits/, weak);
    }
  });

  it('random tokens of 128 bits and more pass: 2,000 generated (hex, 256 bits), 2,000 of 32 hex digits (openssl rand -hex 16), 2,000 of 22 base64url characters', () => {
    for (let i = 0; i < 2000; i++) {
      assert.equal(tokenProblem(generateToken()), undefined);
      const hex = randomBytes(16).toString('hex');
      assert.equal(tokenProblem(hex), undefined, hex);
      const b64 = randomBytes(17).toString('base64url').slice(0, 22);
      assert.equal(tokenProblem(b64), undefined, b64);
    }
    assert.equal(estimatedBits('0'.repeat(0) + generateToken()), 256);
  });

  it('failure sources: all of loopback is one source (127/8, ::1, IPv4-mapped), IPv4 is itself, IPv6 counts by /64', () => {
    for (const a of ['127.0.0.1', '127.255.1.9', '::1', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.5']) assert.equal(sourceKey(a), 'loopback', a);
    assert.equal(sourceKey('10.1.2.3'), '10.1.2.3');
    assert.equal(sourceKey('::ffff:10.1.2.3'), '10.1.2.3');
    assert.equal(sourceKey('2001:db8:1:2:3:4:5:6'), sourceKey('2001:db8:1:2::ffff'));
    assert.notEqual(sourceKey('2001:db8:1:2::1'), sourceKey('2001:db8:1:3::1'));
    assert.equal(sourceKey(undefined), 'unknown');
  });
});
