/**
 * The login policy's numbers and rules, as pure functions the identity store
 * calls (ASVS 5.0 V6.3: anti-automation and account lockout).
 *
 * Three limits stand in front of a password check, cheapest first:
 * - a lockout per account and source address (5 failures, 15 minutes) and an
 *   account-wide one across all sources, with backoff, so spreading guesses
 *   over many addresses does not help;
 * - a token bucket per source address and one for the whole appliance, so
 *   anonymous logins cannot spend the appliance's CPU on PBKDF2 (about 40 ms
 *   of blocking work each) faster than a few per second.
 */

/** Consecutive failures per account and source address before that pair is locked. */
export const PAIR_THRESHOLD = 5;
/** How long a pair lock lasts. */
export const PAIR_LOCK_SECONDS = 15 * 60;
/** Failures of one account across all sources before the account itself backs off. */
export const ACCOUNT_THRESHOLD = 10;
/** The longest account-wide backoff. */
export const ACCOUNT_LOCK_MAX_SECONDS = 15 * 60;
/**
 * Wrong second factors (after the right password) an account may have counted
 * and still try past a lock with a code (lockout.ts, `mayTryPastLock`).
 */
export const CODE_FAILURES_PAST_LOCK = 5;
/** A failure count with no lock is forgotten this long after its last failure. */
export const FAILURE_MEMORY_SECONDS = 15 * 60;
/**
 * Stored failure rows (account and source pairs, and accounts) kept at most.
 * The login buckets admit at most about 2 new rows a second, and rows expire
 * after 15 minutes, so live rows stay well under this; it bounds the table
 * against anything unforeseen.
 */
export const FAILURE_ROWS_MAX = 10_000;

/**
 * Account-wide lock after `failures` failures across all sources: none below
 * the threshold, then 30 s doubling with every further failure, at most 15
 * minutes. Bounded, so guessing can never lock an account for good.
 */
export function accountLockSeconds(failures: number): number {
  if (failures < ACCOUNT_THRESHOLD) return 0;
  return Math.min(ACCOUNT_LOCK_MAX_SECONDS, 30 * 2 ** (failures - ACCOUNT_THRESHOLD));
}

/** A token bucket's state. */
export interface Bucket {
  tokens: number;
  updatedMs: number;
}

/** How a bucket fills: up to `capacity` at once, `refillPerSecond` after. */
export interface BucketPolicy {
  capacity: number;
  refillPerSecond: number;
}

/** Anonymous logins from one source address: a burst of 10, then one every 6 seconds. */
export const LOGINS_PER_SOURCE: BucketPolicy = { capacity: 10, refillPerSecond: 1 / 6 };
/** Anonymous logins of the whole appliance, every source together: a burst of 20, then 2 a second. */
export const LOGINS_TOTAL: BucketPolicy = { capacity: 20, refillPerSecond: 2 };
/** Source buckets remembered at most (a full bucket is the same as a forgotten one). */
export const SOURCE_BUCKETS_MAX = 10_000;

/** The bucket refilled to `nowMs`. */
export function refill(bucket: Bucket | undefined, nowMs: number, policy: BucketPolicy): Bucket {
  if (!bucket) return { tokens: policy.capacity, updatedMs: nowMs };
  const elapsed = Math.max(0, nowMs - bucket.updatedMs) / 1000;
  return { tokens: Math.min(policy.capacity, bucket.tokens + elapsed * policy.refillPerSecond), updatedMs: nowMs };
}

/** Whole seconds until the refilled bucket holds a token again (at least 1). */
export function secondsUntilToken(bucket: Bucket, policy: BucketPolicy): number {
  // Fractional refills carry rounding error (2 s at 1/6 a second leaves 4.000000000000001 s, not 4): a
  // microsecond's slack keeps ceil() from announcing a whole second more than the wait. Clocks here are in ms.
  return Math.max(1, Math.ceil((1 - bucket.tokens) / policy.refillPerSecond - 1e-6));
}

/**
 * The login buckets' verdict: one token taken from the source's bucket and
 * one from the appliance's (both to store), or a refusal with the seconds
 * until the empty one refills and that bucket, refilled, to store (a refused
 * attempt takes nothing from either).
 */
export type ThrottleDecision =
  | { ok: true; source: Bucket; total: Bucket }
  | { ok: false; reason: "throttled"; scope: "source" | "appliance"; retryAfterSeconds: number; bucket: Bucket };

/** Checks the source's bucket first, so one noisy source is told it is the one, then the appliance's. */
export function takeLoginToken(source: Bucket | undefined, total: Bucket | undefined, nowMs: number): ThrottleDecision {
  const s = refill(source, nowMs, LOGINS_PER_SOURCE);
  if (s.tokens < 1)
    return {
      ok: false,
      reason: "throttled",
      scope: "source",
      retryAfterSeconds: secondsUntilToken(s, LOGINS_PER_SOURCE),
      bucket: s,
    };
  const t = refill(total, nowMs, LOGINS_TOTAL);
  if (t.tokens < 1)
    return {
      ok: false,
      reason: "throttled",
      scope: "appliance",
      retryAfterSeconds: secondsUntilToken(t, LOGINS_TOTAL),
      bucket: t,
    };
  return { ok: true, source: { ...s, tokens: s.tokens - 1 }, total: { ...t, tokens: t.tokens - 1 } };
}
