import { describe, expect, it } from "vitest";
import { expectConsistent, gateway, profile } from "./helpers.ts";

describe("consistency across endpoints", () => {
  it("holds on a fresh, empty appliance", () => {
    const g = gateway();
    expect(g.sessions.summary().total).toBe(0);
    expectConsistent(g, { noReservations: true });
  });

  it("holds after six hours of churn on the small profile, checked every hour", () => {
    const g = gateway(profile("small"), 11);
    for (let hour = 0; hour < 6; hour++) {
      g.step(3600);
      expectConsistent(g, { justStepped: true, noReservations: true });
    }
    expect(g.sessions.summary().total).toBeGreaterThan(1900);
  });

  it("holds through faults: RADIUS outage, pool and CGN fills, mass disconnects, churn surges", () => {
    const g = gateway(profile("small"), 12, 600);
    const actions = [
      () => g.scenario({ action: "fail-radius-server", server: "radius-1.isp.example" }),
      () => g.scenario({ action: "set-churn-multiplier", multiplier: 20 }),
      () => g.scenario({ action: "fill-pool", pool: "residential-v4", percent: 95 }),
      () => g.scenario({ action: "fill-cgn-group", group: "cgn-1", percent: 97 }),
      () => g.scenario({ action: "disconnect-sessions", share: 0.4, filter: {} }),
      () => g.scenario({ action: "fail-radius-server", server: "radius-2.isp.example" }),
      () => g.scenario({ action: "revive-radius-server", server: "radius-1.isp.example" }),
      () => g.scenario({ action: "drain-pool", pool: "residential-v4" }),
      () => g.scenario({ action: "drain-cgn-group", group: "cgn-1" }),
      () => g.scenario({ action: "revive-radius-server", server: "radius-2.isp.example" }),
      () => g.scenario({ action: "set-churn-multiplier", multiplier: 1 }),
    ];
    for (const act of actions) {
      expect(act().ok).toBe(true);
      expectConsistent(g);
      g.step(1200);
      expectConsistent(g, { justStepped: true });
    }
    expectConsistent(g, { justStepped: true, noReservations: true });
  });

  it("holds on the default profile after two hours", () => {
    const g = gateway(profile("default"), 13, 7200);
    expect(g.sessions.summary().total).toBeGreaterThan(19_000);
    expectConsistent(g, { justStepped: true, noReservations: true });
  });
});
