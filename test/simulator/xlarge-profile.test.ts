/** The shipped `xlarge` profile (issue #11): 256,000 sessions, with room in its pools and CGN port blocks. */
import { describe, expect, it } from "vitest";
import { gateway, profile } from "./helpers.ts";

describe("the xlarge profile", () => {
  it("brings up about 256,000 sessions within two simulated minutes and raises no pool, CGN or capacity alarm", () => {
    const g = gateway(profile("xlarge"), 1, 120);
    const total = g.sessions.summary().total;
    // Issue #11: "an xlarge profile of 256,000 sessions"; churn keeps it within a percent of that.
    expect(total).toBeGreaterThan(253_000);
    expect(total).toBeLessThan(259_000);
    expect(g.alarms.list().active).toEqual([]);
  });
});
