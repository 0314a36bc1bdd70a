/** A change's answer as one sentence, never a line of `Member: value` pairs. */
import { describe, expect, it } from "vitest";
import { resultSentence } from "../../ui/components/result-words.ts";
import { utc } from "../../ui/format.ts";

describe("a change's answer in words", () => {
  it("says what was done to what", () => {
    expect(resultSentence({ status: "created", username: "noc1" }, utc)).toBe("Created noc1.");
    expect(resultSentence({ status: "stopped", sessionId: 42 }, utc)).toBe("Stopped 42.");
    expect(resultSentence({ status: "deleted" }, utc)).toBe("Deleted.");
  });

  it("names the configuration version a commit made, and a restart it needs", () => {
    expect(
      resultSentence(
        {
          status: "committed",
          version: 12,
          committedUtc: "2026-03-02T09:00:00.000Z",
          restartRequired: true,
          changedPaths: [],
        },
        utc,
      ),
    ).toBe("Saved as configuration version 12 at 2026-03-02 09:00:00 UTC; it applies at the next restart.");
  });

  it("leaves an answer that is more than a status to the page", () => {
    expect(resultSentence({ destination: "10.0.0.1", sent: 5 }, utc)).toBeUndefined();
    expect(resultSentence([1, 2], utc)).toBeUndefined();
  });
});
