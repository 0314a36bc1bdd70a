import { describe, expect, it } from "vitest";
import { expectConsistent, gateway, profile } from "./helpers.ts";

describe("bring-up", () => {
  it("starts empty and fills to steady state at the profile's setup rate", () => {
    const p = profile();
    const g = gateway(p, 121);
    expect(g.sessions.summary().total).toBe(0);
    g.step(10);
    const perStep = p.population.setupsPerSecond * 10;
    expect(g.sessions.summary().total).toBeLessThanOrEqual(perStep);
    expect(g.sessions.summary().total).toBeGreaterThan(perStep * 0.95);
    g.step(60);
    expect(Math.abs(g.sessions.summary().total - p.population.steadyStateSessions)).toBeLessThan(
      p.population.steadyStateSessions * 0.02,
    );
    expectConsistent(g, { justStepped: true, noReservations: true });
  });

  it("brings the large profile up at 2,000 or more setups per simulated second", () => {
    const p = profile("large");
    expect(p.population.setupsPerSecond).toBeGreaterThanOrEqual(2000);
    const g = gateway(p, 122);
    g.step(10);
    expect(g.sessions.summary().total).toBeGreaterThanOrEqual(2000 * 10 * 0.98);
    g.step(60);
    expect(g.sessions.summary().total).toBeGreaterThan(127_000);
    expect(g.metrics.history().sessionsUp[0]).toBe(g.metrics.history().totalSessions[0]);
  });

  it("stays near steady state for a day, with each subscriber online at most once", () => {
    const p = profile();
    const g = gateway(p, 123, 24 * 3600);
    const totals = g.metrics.history("24h").totalSessions.slice(1);
    for (const t of totals)
      expect(Math.abs(t - p.population.steadyStateSessions)).toBeLessThan(p.population.steadyStateSessions * 0.05);
    const users = g.sessions.list({ limit: 500 }).items.map((s) => s.username);
    expect(new Set(users).size).toBe(users.length);
  });
});
