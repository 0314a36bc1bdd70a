/**
 * TOTP (src/trust/totp.ts) against RFC 6238 Appendix B, SHA-1 with the
 * secret "12345678901234567890": the 6-digit code is the last 6 digits of the
 * RFC's 8-digit value (the code is the truncated value modulo 10^digits;
 * `oathtool --totp -d 8` agrees, e.g. 94287082 at 59 s).
 */
import { describe, expect, it } from "vitest";
import { checkReplay, verifyTotp } from "../../src/trust/totp.ts";

/** Base32 of the ASCII "12345678901234567890", the RFC's SHA-1 key. */
const RFC_SECRET = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";
const at = (seconds: number) => seconds * 1000;

describe("codes per RFC 6238", () => {
  it.each([
    [59, "287082", 1],
    [1111111109, "081804", 37037036],
    [1111111111, "050471", 37037037],
    [1234567890, "005924", 41152263],
    [2000000000, "279037", 66666666],
    [20000000000, "353130", 666666666],
  ])("at %i s accepts %s, of time step %i", async (seconds, code, timeStep) => {
    expect(await verifyTotp(RFC_SECRET, code, null, at(seconds))).toEqual({ ok: true, timeStep });
  });

  it("refuses a code off by one digit", async () => {
    expect(await verifyTotp(RFC_SECRET, "287083", null, at(59))).toEqual({ ok: false });
  });

  it("refuses anything but six digits before computing a code", async () => {
    expect(await verifyTotp(RFC_SECRET, "94287082", null, at(59))).toEqual({ ok: false });
    expect(await verifyTotp(RFC_SECRET, "28708", null, at(59))).toEqual({ ok: false });
    expect(await verifyTotp(RFC_SECRET, "28708a", null, at(59))).toEqual({ ok: false });
  });
});

describe("clock drift", () => {
  it("accepts the previous step's code: 081804 (step 37037036) at 1111111111 s", async () => {
    expect(await verifyTotp(RFC_SECRET, "081804", null, at(1111111111))).toEqual({ ok: true, timeStep: 37037036 });
  });

  it("accepts the next step's code: 050471 (step 37037037) at 1111111109 s", async () => {
    expect(await verifyTotp(RFC_SECRET, "050471", null, at(1111111109))).toEqual({ ok: true, timeStep: 37037037 });
  });

  it("refuses a code two steps old: 287082 (step 1, 30-59 s) at 90 s (step 3)", async () => {
    expect(await verifyTotp(RFC_SECRET, "287082", null, at(90))).toEqual({ ok: false });
  });
});

describe("replay", () => {
  it("accepts an account's first code", () => {
    expect(checkReplay(37037037, null)).toEqual({ ok: true });
  });

  it("refuses the same code again within its window", () => {
    expect(checkReplay(37037037, 37037037)).toEqual({ ok: false, reason: "replayed" });
  });

  it("refuses an older code after a newer one (the drift window would otherwise admit it)", () => {
    expect(checkReplay(37037036, 37037037)).toEqual({ ok: false, reason: "replayed" });
  });

  it("accepts the next step's code", () => {
    expect(checkReplay(37037038, 37037037)).toEqual({ ok: true });
  });
});
