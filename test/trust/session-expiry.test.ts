/**
 * Browser session lifetimes (src/trust/session.ts), from docs/decisions.md: a
 * session ends after 30 minutes idle or 12 hours in all.
 */
import { describe, expect, it } from "vitest";
import { checkSession, sessionExpiresMs } from "../../src/trust/session.ts";

const LOGIN = Date.UTC(2026, 10, 24, 8, 0, 0);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe("the idle limit", () => {
  it("keeps a session 30 minutes after its last request, to the millisecond", () => {
    expect(checkSession({ createdMs: LOGIN, lastSeenMs: LOGIN }, LOGIN + 30 * MINUTE).ok).toBe(true);
  });

  it("ends it one millisecond later", () => {
    expect(checkSession({ createdMs: LOGIN, lastSeenMs: LOGIN }, LOGIN + 30 * MINUTE + 1)).toEqual({
      ok: false,
      reason: "idle",
    });
  });

  it("counts from the last request, not from login", () => {
    expect(checkSession({ createdMs: LOGIN, lastSeenMs: LOGIN + 2 * HOUR }, LOGIN + 2 * HOUR + 29 * MINUTE).ok).toBe(
      true,
    );
  });
});

describe("the absolute limit", () => {
  it("ends a session used every 10 minutes 12 hours after login", () => {
    // Last request at 19:50; login was at 08:00, so the session ends at 20:00 although it is not idle.
    const session = { createdMs: LOGIN, lastSeenMs: LOGIN + 11 * HOUR + 50 * MINUTE };
    expect(checkSession(session, LOGIN + 12 * HOUR).ok).toBe(true);
    expect(checkSession(session, LOGIN + 12 * HOUR + 1)).toEqual({ ok: false, reason: "expired" });
  });
});

describe("the announced end", () => {
  it("is the idle end while that comes first: last seen 09:00 ends 09:30", () => {
    expect(sessionExpiresMs({ createdMs: LOGIN, lastSeenMs: LOGIN + HOUR })).toBe(Date.UTC(2026, 10, 24, 9, 30, 0));
  });

  it("is the absolute end once that comes first: last seen 19:50 ends 20:00", () => {
    expect(sessionExpiresMs({ createdMs: LOGIN, lastSeenMs: LOGIN + 11 * HOUR + 50 * MINUTE })).toBe(
      Date.UTC(2026, 10, 24, 20, 0, 0),
    );
  });
});

describe("recording use", () => {
  it("rewrites last-seen only when 30 s have passed, so a burst of requests stays reads", () => {
    expect(checkSession({ createdMs: LOGIN, lastSeenMs: LOGIN }, LOGIN + 30_000)).toEqual({ ok: true, touch: false });
    expect(checkSession({ createdMs: LOGIN, lastSeenMs: LOGIN }, LOGIN + 30_001)).toEqual({ ok: true, touch: true });
  });
});
