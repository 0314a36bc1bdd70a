/** The launcher's start-up checks that need no fleet: they run before anything is built or bound. */
import { describe, expect, it } from "vitest";
import { loadSettings } from "../../scripts/config.ts";

describe("BNG_BOOTSTRAP_TOKEN at start", () => {
  it("refuses a malformed token with a message saying how to make one", async () => {
    await expect(loadSettings({ BNG_BOOTSTRAP_TOKEN: "bngtok_" + "B".repeat(36) })).rejects.toThrow(/not a well-formed token.*npm run -s token/);
  });

  it("accepts a well-formed one", async () => {
    // 30 characters and their CRC-32 in base62, computed outside the code under test.
    const settings = await loadSettings({ BNG_BOOTSTRAP_TOKEN: "bngtok_" + "B".repeat(30) + "1rpRcy" });
    expect(settings.bootstrapToken).toBe("bngtok_" + "B".repeat(30) + "1rpRcy");
  });
});
