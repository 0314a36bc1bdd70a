/**
 * The lockout rules (src/trust/lockout.ts) from docs/decisions.md's numbers: 5
 * failures of one account from one source lock that pair for 15 minutes; 10
 * across all sources lock the account for 30 s, doubling per further failure
 * up to 15 minutes; a count is forgotten 15 minutes after its last failure.
 */
import { describe, expect, it } from "vitest";
import {
  accountRemembered,
  checkLock,
  locksAfterFailure,
  mayTryPastLock,
  pairRemembered,
  pairShown,
} from "../../src/trust/lockout.ts";
import { accountLockSeconds } from "../../src/trust/login-limits.ts";

const NOW = Date.UTC(2026, 10, 24, 9, 0, 0);
const MINUTE = 60_000;

describe("the lock of an account and source pair", () => {
  it("lets a login through after four failures", () => {
    expect(checkLock({ failures: 4, lockedUntilMs: null }, null, NOW)).toEqual({ ok: true, forgetPair: false });
  });

  it("starts a 15-minute lock with the fifth failure", () => {
    expect(locksAfterFailure(4, 4, NOW)).toEqual([]);
    expect(locksAfterFailure(5, 5, NOW)).toEqual([{ scope: "pair", seconds: 900, untilMs: NOW + 15 * MINUTE }]);
  });

  it("locks a pair that reached five through attempts still running, from now, and says to store the end", () => {
    expect(checkLock({ failures: 5, lockedUntilMs: null }, null, NOW)).toEqual({
      ok: false,
      reason: "locked",
      scope: "pair",
      untilMs: NOW + 15 * MINUTE,
      retryAfterSeconds: 900,
      startsNow: true,
      forgetPair: false,
    });
  });

  it("answers the time left of a stored lock: 5 minutes when 10 have passed", () => {
    const decision = checkLock({ failures: 5, lockedUntilMs: NOW + 5 * MINUTE }, null, NOW);
    expect(decision).toMatchObject({ ok: false, scope: "pair", retryAfterSeconds: 300, startsNow: false });
  });

  it("rounds the time left up to whole seconds, at least one", () => {
    expect(checkLock({ failures: 5, lockedUntilMs: NOW + 1_500 }, null, NOW)).toMatchObject({ retryAfterSeconds: 2 });
    expect(checkLock({ failures: 5, lockedUntilMs: NOW + 200 }, null, NOW)).toMatchObject({ retryAfterSeconds: 1 });
  });

  it("ends at the lock's last millisecond, and the count starts again", () => {
    expect(checkLock({ failures: 5, lockedUntilMs: NOW }, null, NOW)).toEqual({ ok: true, forgetPair: true });
  });
});

describe("the account-wide backoff", () => {
  it.each([
    [9, 0],
    [10, 30],
    [11, 60],
    [12, 120],
    [13, 240],
    [14, 480],
    [15, 900],
    [40, 900],
  ])("after %i failures across all sources locks the account for %i s", (failures, seconds) => {
    expect(accountLockSeconds(failures)).toBe(seconds);
  });

  it("starts with the tenth failure even when each source failed only once", () => {
    expect(locksAfterFailure(1, 10, NOW)).toEqual([{ scope: "account", seconds: 30, untilMs: NOW + 30_000 }]);
  });

  it("refuses every source while it holds", () => {
    expect(checkLock(null, { lockedUntilMs: NOW + 30_000 }, NOW)).toEqual({
      ok: false,
      reason: "locked",
      scope: "account",
      untilMs: NOW + 30_000,
      retryAfterSeconds: 30,
      startsNow: false,
      forgetPair: false,
    });
  });

  it("names the pair's lock when both hold", () => {
    expect(
      checkLock({ failures: 5, lockedUntilMs: NOW + 15 * MINUTE }, { lockedUntilMs: NOW + 60_000 }, NOW),
    ).toMatchObject({ scope: "pair", retryAfterSeconds: 900 });
  });

  it(
    "still refuses when the pair's lock has ended but the account's has not, and the " + "pair's count starts again",
    () => {
      expect(checkLock({ failures: 5, lockedUntilMs: NOW - 1 }, { lockedUntilMs: NOW + 60_000 }, NOW)).toMatchObject({
        ok: false,
        scope: "account",
        retryAfterSeconds: 60,
        forgetPair: true,
      });
    },
  );
});

describe("forgetting failures", () => {
  it("keeps an unlocked pair's count until 15 minutes after its last failure", () => {
    expect(pairRemembered({ lockedUntilMs: null, lastFailureMs: NOW - 15 * MINUTE }, NOW)).toBe(true);
    expect(pairRemembered({ lockedUntilMs: null, lastFailureMs: NOW - 15 * MINUTE - 1 }, NOW)).toBe(false);
  });

  it("keeps a locked pair's count until its lock ends, however old its failures", () => {
    expect(pairRemembered({ lockedUntilMs: NOW + 1, lastFailureMs: NOW - 60 * MINUTE }, NOW)).toBe(true);
    expect(pairRemembered({ lockedUntilMs: NOW, lastFailureMs: NOW - MINUTE }, NOW)).toBe(false);
  });

  it("keeps an account's count after its backoff ends, so the next failure backs off longer", () => {
    expect(accountRemembered({ lockedUntilMs: NOW - MINUTE, lastFailureMs: NOW - 5 * MINUTE }, NOW)).toBe(true);
    expect(accountRemembered({ lockedUntilMs: NOW - MINUTE, lastFailureMs: NOW - 16 * MINUTE }, NOW)).toBe(false);
    expect(accountRemembered({ lockedUntilMs: NOW + MINUTE, lastFailureMs: NOW - 16 * MINUTE }, NOW)).toBe(true);
  });

  it("lists a pair among the account's lockouts while its lock holds or before it has one", () => {
    expect(pairShown({ lockedUntilMs: null }, NOW)).toBe(true);
    expect(pairShown({ lockedUntilMs: NOW + 1 }, NOW)).toBe(true);
    expect(pairShown({ lockedUntilMs: NOW }, NOW)).toBe(false);
  });
});

describe("a login past a lock (issue #22: a locker cannot keep the owner out)", () => {
  it("is tried only with a TOTP code in the request", () => {
    expect(mayTryPastLock({ totpCode: "123456", passkey: null }, 0)).toBe(true);
    expect(mayTryPastLock({ totpCode: null, passkey: null }, 0)).toBe(false);
    expect(mayTryPastLock({ totpCode: "", passkey: null }, 0)).toBe(false);
    expect(mayTryPastLock({ totpCode: "123456", passkey: { id: "x" } }, 0)).toBe(false);
  });

  it("is no longer tried once the account has five wrong codes counted", () => {
    expect(mayTryPastLock({ totpCode: "123456", passkey: null }, 4)).toBe(true);
    expect(mayTryPastLock({ totpCode: "123456", passkey: null }, 5)).toBe(false);
  });
});
