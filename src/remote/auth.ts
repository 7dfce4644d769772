// Bearer-token checks and brute-force slow-down. Tokens are compared in constant time on
// equal-length SHA-256 digests (timingSafeEqual needs equal lengths; hashing first also hides the
// token's length). An address that fails too often is locked out for a growing time, during which
// its requests are refused with 429 before any token is looked at.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { TOKEN_PATTERN, TOKEN_RULE } from './controlPlane';

/**
 * 256 random bits as hex. Not base64url: about one token in 64 would start with `-`, and
 * `rawp attach URL --token -…` then reads as an option (parseArgs refuses it as ambiguous).
 */
export function generateToken(): string {
  return randomBytes(32).toString('hex');
}

/** Why a token is unusable, or undefined when it is fine. */
export function tokenProblem(token: string): string | undefined {
  return TOKEN_PATTERN.test(token) ? undefined : TOKEN_RULE;
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

  /** A success forgets the address's failures. */
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
