// Bearer-token checks and brute-force slow-down. Tokens are compared in constant time on
// equal-length SHA-256 digests (timingSafeEqual needs equal lengths; hashing first also hides the
// token's length). A source that presents wrong tokens too often is locked out for a growing
// time: its wrong tokens then get 429. The right token always passes (issue 12 #4, decision 162):
// with ≥ 128-bit tokens guessing is hopeless anyway, so a lockout must never cost the real user.
import { isIPv4, isIPv6 } from 'node:net';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { TOKEN_MIN_BITS, TOKEN_PATTERN, TOKEN_RULE } from './controlPlane';

/**
 * 256 random bits as hex. Not base64url: about one token in 64 would start with `-`, and
 * `rawp attach URL --token -…` then reads as an option (parseArgs refuses it as ambiguous).
 */
export function generateToken(): string {
  return randomBytes(32).toString('hex');
}

/** Why a token is unusable, or undefined when it is fine. */
export function tokenProblem(token: string): string | undefined {
  if (!TOKEN_PATTERN.test(token)) return TOKEN_RULE;
  const bits = estimatedBits(token);
  if (bits < TOKEN_MIN_BITS) return `the token looks weak (about ${Math.floor(bits)} bits; ${TOKEN_RULE})`;
  return undefined;
}

/**
 * Small alphabets a random token is unlikely to stay within by chance: when one covers the token,
 * it sets the bits per character; otherwise base64url's 6 bits count. (Larger subsets such as
 * letters-only are left out: a random 22-character base64url token has no digit, `-` or `_` one
 * time in a hundred.)
 */
const SMALL_ALPHABETS: [RegExp, number][] = [
  [/^[0-9]+$/, 10],
  [/^[0-9a-f]+$/, 16],
  [/^[0-9A-F]+$/, 16],
  [/^[a-z]+$/, 26],
  [/^[A-Z]+$/, 26],
];

/**
 * An upper estimate of a token's randomness in bits: length × log2(its alphabet), and nothing for
 * a token that is one short piece repeated, uses under 6 distinct characters, or is more than half
 * one character. A random 32-hex-digit token scores 128; one of them fails with probability
 * < 1e-12, a random 22-character base64url token with about 5e-9.
 */
export function estimatedBits(token: string): number {
  const counts = new Map<string, number>();
  for (const c of token) counts.set(c, (counts.get(c) ?? 0) + 1);
  if (counts.size < 6 || Math.max(...counts.values()) * 2 > token.length) return 0;
  for (let p = 1; p <= token.length / 2; p++) {
    if (token.length % p === 0 && token.slice(0, p).repeat(token.length / p) === token) return 0;
  }
  const size = SMALL_ALPHABETS.find(([re]) => re.test(token))?.[1] ?? 64;
  return token.length * Math.log2(size);
}

/**
 * What failures are counted against: one source per client a caller could not tell apart or cheaply
 * multiply. All of loopback (127/8, ::1, ::ffff:127.x) is one source — any local process can send
 * from any 127.x address — an IPv4 address is itself, and an IPv6 address counts by its /64.
 */
export function sourceKey(address: string | undefined): string {
  if (address === undefined || address === '') return 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  const a = mapped ? mapped[1] : address;
  if (isIPv4(a)) return a.startsWith('127.') ? 'loopback' : a;
  if (isIPv6(a)) {
    const groups = expandIPv6(a);
    if (groups.join(':') === '0:0:0:0:0:0:0:1') return 'loopback';
    return `${groups.slice(0, 4).join(':')}::/64`;
  }
  return address;
}

function expandIPv6(a: string): string[] {
  const [head, tail] = a.split('::');
  const h = head ? head.split(':') : [];
  const t = tail !== undefined && tail !== '' ? tail.split(':') : [];
  const fill = tail === undefined ? [] : new Array<string>(Math.max(0, 8 - h.length - t.length)).fill('0');
  return [...h, ...fill, ...t].map((g) => g.toLowerCase().replace(/^0+(?=.)/, ''));
}

export class TokenVerifier {
  private readonly digest: Buffer;

  constructor(token: string) {
    const problem = tokenProblem(token);
    if (problem) throw new Error(`unusable token: ${problem}`);
    this.digest = sha256(token);
  }

  matches(candidate: string | undefined): boolean {
    if (candidate === undefined) return false;
    return timingSafeEqual(sha256(candidate), this.digest);
  }
}

function sha256(s: string): Buffer {
  return createHash('sha256').update(s, 'utf8').digest();
}

export interface ThrottleOptions {
  /** Failures allowed inside `windowMs` before a lockout starts. */
  freeFailures?: number;
  /** Failures older than this are forgotten. */
  windowMs?: number;
  /** First lockout; each further failure doubles it. */
  baseLockMs?: number;
  maxLockMs?: number;
  /** Addresses remembered at most (oldest forgotten first). */
  maxAddresses?: number;
  now?: () => number;
}

interface AddressRecord {
  failures: number;
  firstAt: number;
  lockedUntil: number;
}

export class FailureThrottle {
  private readonly records = new Map<string, AddressRecord>();
  private readonly o: Required<ThrottleOptions>;

  constructor(options: ThrottleOptions = {}) {
    this.o = {
      freeFailures: options.freeFailures ?? 5,
      windowMs: options.windowMs ?? 10 * 60_000,
      baseLockMs: options.baseLockMs ?? 1000,
      maxLockMs: options.maxLockMs ?? 60_000,
      maxAddresses: options.maxAddresses ?? 10_000,
      now: options.now ?? Date.now,
    };
  }

  /** Milliseconds this address must still wait; 0 when it may try. */
  retryAfterMs(address: string): number {
    const r = this.fresh(address);
    return r ? Math.max(0, r.lockedUntil - this.o.now()) : 0;
  }

  recordFailure(address: string): void {
    const now = this.o.now();
    let r = this.fresh(address);
    if (!r) {
      r = { failures: 0, firstAt: now, lockedUntil: 0 };
      this.records.set(address, r);
      if (this.records.size > this.o.maxAddresses) this.records.delete(this.records.keys().next().value as string);
    }
    r.failures++;
    const over = r.failures - this.o.freeFailures;
    if (over > 0) r.lockedUntil = now + Math.min(this.o.maxLockMs, this.o.baseLockMs * 2 ** Math.min(over - 1, 20));
  }

  /**
   * Forget an address's failures. The gate does not call it on a success: with loopback as one
   * source, the real user's success would reset a local guesser's lockout.
   */
  recordSuccess(address: string): void {
    this.records.delete(address);
  }

  private fresh(address: string): AddressRecord | undefined {
    const r = this.records.get(address);
    if (r && this.o.now() - r.firstAt > this.o.windowMs && this.o.now() >= r.lockedUntil) {
      this.records.delete(address);
      return undefined;
    }
    return r;
  }
}
