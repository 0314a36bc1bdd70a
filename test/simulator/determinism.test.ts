import { describe, expect, it } from "vitest";
import { Gateway } from "../../simulator/index.ts";
import { START, gateway, observe, profile } from "./helpers.ts";

/** The same scripted sequence of calls, applied to any gateway. */
function script(g: Gateway): void {
  g.step(900);
  g.scenario({ action: "fail-radius-server", server: "radius-2.isp.example" });
  g.step(305);
  const newest = g.sessions.list({ limit: 3 }).items;
  for (const s of newest) g.disconnect(s.id);
  g.startCapture(g.sessions.list({ limit: 1 }).items[0]?.id ?? 0, "192.0.2.200", 500, null);
  g.scenario({ action: "disconnect-sessions", share: 0.1, filter: { encap: "ipoe" } });
  g.step(1800);
}

describe("determinism", () => {
  it("gives identical state for the same seed, profile and calls", () => {
    const a = gateway(profile(), 77);
    const b = gateway(profile(), 77);
    script(a);
    script(b);
    expect(observe(a)).toBe(observe(b));
  });

  it("gives a different state for a different seed", () => {
    const a = gateway(profile(), 77);
    const b = gateway(profile(), 78);
    script(a);
    script(b);
    expect(observe(a)).not.toBe(observe(b));
    const usernames = (g: Gateway) => g.sessions.list({ limit: 50 }).items.map((s) => s.username);
    expect(usernames(a)).not.toEqual(usernames(b));
  });

  it("does not depend on how a span of time is cut into step calls", () => {
    const a = Gateway.create(profile(), { seed: 5, startTimeMs: START });
    const b = Gateway.create(profile(), { seed: 5, startTimeMs: START });
    a.step(3600);
    for (let i = 0; i < 720; i++) b.step(5);
    expect(observe(a)).toBe(observe(b));
  });

  it("gives the same state for a clock advance in hour slices (pausing between them) as in one go", async () => {
    const a = gateway(profile(), 11);
    const b = gateway(profile(), 11);
    const oneGo = a.scenario({ action: "advance-clock", seconds: 86_400 + 25 });
    let pauses = 0;
    const sliced = await b.advanceClock(86_400 + 25, async () => void pauses++);
    expect(sliced).toEqual(oneGo);
    expect(observe(b)).toBe(observe(a));
    // 8,642 sub-steps of 10 s (the 5 s over carried), a pause before each simulated hour after the first: 24.
    expect(pauses).toBe(24);
  });

  it("runs 1,080 sub-steps for a three-hour step", () => {
    const g = gateway();
    const report = g.step(3 * 3600);
    expect(report.subSteps).toBe(1080);
    expect(g.nowMs - START).toBe(3 * 3600 * 1000);
    expect(g.metrics.history("6h").times.length).toBe(180);
  });
});
