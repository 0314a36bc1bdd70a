/**
 * The lockout rules as pure functions of the stored failure counts and the
 * time (ASVS 5.0 V6.3.1): the identity store reads the rows, asks here, and
 * writes back what the decision says. Numbers in login-limits.ts.
 */
import {
  CODE_FAILURES_PAST_LOCK,
  FAILURE_MEMORY_SECONDS,
  PAIR_LOCK_SECONDS,
  PAIR_THRESHOLD,
  accountLockSeconds,
} from "./login-limits.ts";

/** The stored failures of one account from one source address. */
export interface PairFailures {
  failures: number;
  lockedUntilMs: number | null;
}

/** The stored failures of one account across all sources. */
export interface AccountFailures {
  lockedUntilMs: number | null;
}

/** Which lock holds: the account and source pair's, or the account-wide one. */
export type LockScope = "pair" | "account";

/**
 * May a login (or re-authentication) go ahead? `forgetPair`: the pair's lock
 * has ended, so its count starts again (whether or not the account's lock
 * still refuses). A refusal names the lock's end; `startsNow` when the pair
 * reached the threshold through attempts still running and the lock's end
 * must be stored.
 */
export type LockDecision =
  | { ok: true; forgetPair: boolean }
  | {
      ok: false;
      reason: "locked";
      scope: LockScope;
      untilMs: number;
      retryAfterSeconds: number;
      startsNow: boolean;
      forgetPair: boolean;
    };

/**
 * Whole seconds from `nowMs` until `untilMs`, at least 1 (a Retry-After of 0 would invite an immediate retry that is
 * still refused).
 */
export const retryAfterSeconds = (untilMs: number, nowMs: number): number =>
  Math.max(1, Math.ceil((untilMs - nowMs) / 1000));

/** Checks the pair's lock, then the account's; every lock has an end. */
export function checkLock(pair: PairFailures | null, account: AccountFailures | null, nowMs: number): LockDecision {
  const pairEnded = pair !== null && pair.lockedUntilMs !== null && pair.lockedUntilMs <= nowMs;
  if (pair !== null && !pairEnded && (pair.lockedUntilMs !== null || pair.failures >= PAIR_THRESHOLD)) {
    const untilMs = pair.lockedUntilMs ?? nowMs + PAIR_LOCK_SECONDS * 1000;
    return {
      ok: false,
      reason: "locked",
      scope: "pair",
      untilMs,
      retryAfterSeconds: retryAfterSeconds(untilMs, nowMs),
      startsNow: pair.lockedUntilMs === null,
      forgetPair: false,
    };
  }
  if (account?.lockedUntilMs != null && account.lockedUntilMs > nowMs) {
    const untilMs = account.lockedUntilMs;
    return {
      ok: false,
      reason: "locked",
      scope: "account",
      untilMs,
      retryAfterSeconds: retryAfterSeconds(untilMs, nowMs),
      startsNow: false,
      forgetPair: pairEnded,
    };
  }
  return { ok: true, forgetPair: pairEnded };
}

/**
 * May a login be tried although a lock holds? Only one presenting a TOTP code
 * (the spec's `totpCode`) in the same request, while the account has fewer
 * than `CODE_FAILURES_PAST_LOCK` wrong codes counted: whoever keeps an account
 * locked with wrong passwords does not know its second factor, so the owner,
 * with password and code, still gets in. Only someone who knows the password
 * gets as far as a wrong code, so that count is no locker's to spend, and it
 * keeps such a person from guessing codes past the lock. The attempt is
 * throttled and counted like any other, and every failure of it answers as
 * the lock does (423), so the lock tells a guesser nothing.
 */
export const mayTryPastLock = (
  secondFactor: { totpCode: string | null; passkey: unknown },
  codeFailures: number,
): boolean => !!secondFactor.totpCode && secondFactor.passkey === null && codeFailures < CODE_FAILURES_PAST_LOCK;

/** A lock that a failure starts: its scope, length and end. */
export interface NewLock {
  scope: LockScope;
  seconds: number;
  untilMs: number;
}

/**
 * The locks a failure starts, given the counts including it: the pair's at the threshold, the account's with backoff.
 */
export function locksAfterFailure(pairFailures: number, accountFailures: number, nowMs: number): NewLock[] {
  const locks: NewLock[] = [];
  if (pairFailures >= PAIR_THRESHOLD)
    locks.push({ scope: "pair", seconds: PAIR_LOCK_SECONDS, untilMs: nowMs + PAIR_LOCK_SECONDS * 1000 });
  const accountSeconds = accountLockSeconds(accountFailures);
  if (accountSeconds > 0)
    locks.push({ scope: "account", seconds: accountSeconds, untilMs: nowMs + accountSeconds * 1000 });
  return locks;
}

/** A failure count, as stored: how many, when the last was, and the lock it started, if any. */
export interface FailureRecord {
  lockedUntilMs: number | null;
  lastFailureMs: number;
}

/** Failures before this time with no lock are forgotten. */
export const forgetBeforeMs = (nowMs: number): number => nowMs - FAILURE_MEMORY_SECONDS * 1000;

/**
 * Is a pair's count still remembered? An unlocked count until 15 minutes
 * after its last failure; a locked one until its lock ends.
 */
export function pairRemembered(record: FailureRecord, nowMs: number): boolean {
  return record.lockedUntilMs === null ? record.lastFailureMs >= forgetBeforeMs(nowMs) : record.lockedUntilMs > nowMs;
}

/**
 * Is an account's count still remembered? While its lock holds, or until 15
 * minutes after its last failure: an ended backoff still counts towards the
 * next, longer one.
 */
export function accountRemembered(record: FailureRecord, nowMs: number): boolean {
  return (
    (record.lockedUntilMs !== null && record.lockedUntilMs > nowMs) || record.lastFailureMs >= forgetBeforeMs(nowMs)
  );
}

/** Is a pair's count shown among an account's lockouts: while its lock holds, or as a count with no lock yet. */
export const pairShown = (record: { lockedUntilMs: number | null }, nowMs: number): boolean =>
  record.lockedUntilMs === null || record.lockedUntilMs > nowMs;
