import { describe, expect, it } from "vitest";
import { expectConsistent, gateway, profile } from "./helpers.ts";

// The large profile's 128,000 sessions: the indexes the list, the username and ip filters and the snapshot
// rely on must agree with every other endpoint at full size too, not only on the small profile's 2,000.
describe("consistency across endpoints at 128,000 sessions", () => {
  it("holds on the large profile after bring-up and an hour of churn with a mass disconnect", {
    timeout: 300_000,
  }, () => {
    const g = gateway(profile("large"), 14, 900);
    expect(g.sessions.summary().total).toBeGreaterThan(127_000);
    expectConsistent(g, { justStepped: true, noReservations: true });
    expect(g.scenario({ action: "disconnect-sessions", share: 0.3, filter: { vrf: "cgn-inside" } }).ok).toBe(true);
    g.step(3600);
    expectConsistent(g, { justStepped: true, noReservations: true });
  });
});
