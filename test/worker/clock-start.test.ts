/**
 * The pinned simulated clock (BNG_CLOCK_START, set by vitest.config.ts): a fresh appliance's model starts at
 * that instant rather than at the wall clock, so traffic, churn and outages, which follow the simulated time
 * of day, are the same whenever the suite runs.
 */
import { abortAllDurableObjects, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { advance, get } from "./helpers.ts";

type State = { simulatedTimeUtc: string; clockLeadSeconds: number };
const pinned = Date.parse(env.BNG_CLOCK_START!);

describe("the simulated clock of a fresh appliance", () => {
  it("starts at BNG_CLOCK_START on every appliance, whatever the wall clock says", async () => {
    for (const appliance of ["edge-1", "edge-2"]) {
      const state = await get<State>("/twin/v1/scenario", appliance);
      expect(Date.parse(state.simulatedTimeUtc), appliance).toBe(pinned);
    }
  });

  it("moves only by scenario advances, and keeps its place when the object is reopened", async () => {
    await advance(3600);
    expect(Date.parse((await get<State>("/twin/v1/scenario")).simulatedTimeUtc)).toBe(pinned + 3_600_000);
    // A reopen re-simulates from the snapshot and the stored offset: the pinned start is not applied again.
    await abortAllDurableObjects();
    const after = Date.parse((await get<State>("/twin/v1/scenario")).simulatedTimeUtc);
    expect(after).toBeGreaterThanOrEqual(pinned + 3_600_000);
    expect(after).toBeLessThan(pinned + 3_600_000 + 60_000);
  });
});
