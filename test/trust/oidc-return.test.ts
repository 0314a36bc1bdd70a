/**
 * The OpenID Connect return rule (src/trust/oidc.ts): a browser coming back
 * from the provider continues a sign-in only if it is pending, within its
 * 10 minutes, for that provider, and from the browser that started it.
 */
import { describe, expect, it } from "vitest";
import { checkOidcReturn, oidcPendingExpiresMs } from "../../src/trust/oidc.ts";

const STARTED = Date.UTC(2026, 10, 24, 8, 0, 0);
// The stored binding: SHA-256 of the browser's bng_oidc cookie (any hex string serves: only equality matters).
const BINDING = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
const pending = { expiresMs: Date.UTC(2026, 10, 24, 8, 10, 0), provider: "corp", bindingSha256: BINDING };
const sameBrowser = { provider: "corp", bindingSha256: BINDING };

describe("a pending OIDC sign-in", () => {
  it("started at 08:00:00 waits until 08:10:00", () => {
    expect(oidcPendingExpiresMs(STARTED)).toBe(Date.UTC(2026, 10, 24, 8, 10, 0));
  });

  it("is continued by the same browser for the same provider at 08:09:59.999", () => {
    expect(checkOidcReturn(pending, sameBrowser, Date.UTC(2026, 10, 24, 8, 9, 59, 999))).toEqual({ ok: true });
  });

  it("is refused as expired at 08:10:00.000", () => {
    expect(checkOidcReturn(pending, sameBrowser, Date.UTC(2026, 10, 24, 8, 10, 0))).toEqual({
      ok: false,
      reason: "expired",
    });
  });
});

describe("a return that does not match", () => {
  const at = Date.UTC(2026, 10, 24, 8, 5, 0);

  it.each([
    ["names no pending sign-in (unknown, or already used)", null, sameBrowser, "unknown"],
    ["comes back for another provider", pending, { provider: "partner", bindingSha256: BINDING }, "other-provider"],
    [
      "comes from a browser with another binding cookie",
      pending,
      { provider: "corp", bindingSha256: "0".repeat(64) },
      "other-browser",
    ],
    [
      "comes from a browser without the binding cookie",
      pending,
      { provider: "corp", bindingSha256: null },
      "other-browser",
    ],
  ] as const)("is refused when it %s", (_, stored, returned, reason) => {
    expect(checkOidcReturn(stored, returned, at)).toEqual({ ok: false, reason });
  });
});
