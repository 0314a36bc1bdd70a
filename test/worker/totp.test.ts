import { describe, expect, it } from "vitest";
import { totpAt } from "./totp.ts";

// RFC 6238 Appendix B's SHA-1 seed, the ASCII "12345678901234567890", in Base32.
const RFC_SECRET = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";

describe("the tests' own TOTP", () => {
  // RFC 6238 Appendix B gives 8-digit codes; their last 6 digits are what `oathtool --totp -b -d 6 --now …` prints.
  it.each([
    [59, "287082"],
    [1111111109, "081804"],
    [1111111111, "050471"],
    [1234567890, "005924"],
    [2000000000, "279037"],
    [20000000000, "353130"],
  ])("gives RFC 6238's code at %i s", async (seconds, code) => {
    expect(await totpAt(RFC_SECRET, seconds)).toBe(code);
  });
});
