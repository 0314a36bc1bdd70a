/**
 * API token rules (src/trust/tokens.ts): the offline-checkable checksum,
 * expiry, and which tokens revocation may or must take.
 */
import { describe, expect, it } from "vitest";
import {
  checkToken,
  deriveToken,
  isWellFormedToken,
  mayRevoke,
  newToken,
  newTokenExpiry,
  tokensRevokedBy,
} from "../../src/trust/tokens.ts";

const NOW = Date.UTC(2026, 10, 24, 9, 0, 0);

describe("the checksum", () => {
  // Expected checksums computed outside this code: Python's zlib.crc32 of the 30-character body, written in
  // base62 (0-9A-Za-z) as 6 digits, most significant first. CRC-32("B" × 30) = 1711539572 = "1rpRcy".
  it.each([
    ["bngtok_" + "B".repeat(30) + "1rpRcy"],
    ["bngtok_" + "0".repeat(30) + "2C8GjS"],
    ["bngtok_abcdefghijklmnopqrstuvwxyzABCD4dNndU"],
  ])("accepts %s", (token) => {
    expect(isWellFormedToken(token)).toBe(true);
  });

  it.each([
    ["one body character changed", "bngtok_" + "B".repeat(29) + "C" + "1rpRcy"],
    ["one checksum character changed", "bngtok_" + "B".repeat(30) + "1rpRcz"],
    ["a character missing", "bngtok_" + "B".repeat(29) + "1rpRcy"],
    ["another prefix", "ghp_" + "B".repeat(30) + "1rpRcy"],
    ["a character outside base62", "bngtok_" + "B".repeat(29) + "-" + "1rpRcy"],
  ])("refuses a token with %s", (_, token) => {
    expect(isWellFormedToken(token)).toBe(false);
  });

  it("is carried by every new token: bngtok_ and 36 base62 characters", () => {
    const token = newToken();
    expect(token).toMatch(/^bngtok_[0-9A-Za-z]{36}$/);
    expect(isWellFormedToken(token)).toBe(true);
  });

  it("is carried by derived fleet tokens, which both peers compute alike from the shared secret", async () => {
    const secret = "7e57".repeat(16);
    const token = await deriveToken(secret, "fleet:edge-2");
    expect(isWellFormedToken(token)).toBe(true);
    expect(await deriveToken(secret, "fleet:edge-2")).toBe(token);
    expect(await deriveToken(secret, "fleet:edge-3")).not.toBe(token);
  });
});

describe("expiry", () => {
  const expiresMs = Date.UTC(2026, 11, 31, 0, 0, 0);

  it("accepts a token until the millisecond before its expiry and refuses it from then on", () => {
    expect(checkToken({ expiresMs, lastUsedMs: null }, expiresMs - 1).ok).toBe(true);
    expect(checkToken({ expiresMs, lastUsedMs: null }, expiresMs)).toEqual({ ok: false, reason: "expired" });
  });

  it("accepts a token without expiry decades later", () => {
    expect(checkToken({ expiresMs: null, lastUsedMs: null }, Date.UTC(2070, 0, 1)).ok).toBe(true);
  });

  it("must lie in the future when the token is created", () => {
    expect(newTokenExpiry("2026-12-31T00:00:00Z", NOW)).toEqual({ ok: true, expiresMs });
    expect(newTokenExpiry("2026-11-24T09:00:00Z", NOW)).toEqual({ ok: false, reason: "expiry-not-in-future" });
    expect(newTokenExpiry(null, NOW)).toEqual({ ok: true, expiresMs: null });
  });
});

describe("recording use", () => {
  it("rewrites last-used at first use and then at most once a minute", () => {
    expect(checkToken({ expiresMs: null, lastUsedMs: null }, NOW)).toEqual({ ok: true, touch: true });
    expect(checkToken({ expiresMs: null, lastUsedMs: NOW - 60_000 }, NOW)).toEqual({ ok: true, touch: false });
    expect(checkToken({ expiresMs: null, lastUsedMs: NOW - 60_001 }, NOW)).toEqual({ ok: true, touch: true });
  });
});

describe("revocation", () => {
  it("may take a token created through the API", () => {
    expect(mayRevoke({ source: "api" })).toEqual({ ok: true });
  });

  it("may not take one the fleet configuration provisions, which the configuration would put back", () => {
    expect(mayRevoke({ source: "config" })).toEqual({ ok: false, reason: "provisioned" });
  });

  const created = [
    { name: "reader", role: "read-only" as const },
    { name: "ops", role: "operator" as const },
    { name: "admin", role: "super-user" as const },
  ];

  it("takes the tokens above an account's new role when it is demoted to operator", () => {
    expect(tokensRevokedBy(created, "operator").map((t) => t.name)).toEqual(["admin"]);
  });

  it("takes the operator and super-user tokens when it is demoted to read-only", () => {
    expect(tokensRevokedBy(created, "read-only").map((t) => t.name)).toEqual(["ops", "admin"]);
  });

  it("takes none when it becomes a super-user, and every one when the account goes", () => {
    expect(tokensRevokedBy(created, "super-user")).toEqual([]);
    expect(tokensRevokedBy(created, null).map((t) => t.name)).toEqual(["reader", "ops", "admin"]);
  });
});
