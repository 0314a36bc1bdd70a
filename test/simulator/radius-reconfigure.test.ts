import { describe, expect, it } from "vitest";
import { Gateway, type RadiusServerSettings } from "../../simulator/index.ts";
import { allSessions, expectConsistent, gateway, observe, profile, restore } from "./helpers.ts";

const R1 = { host: "radius-1.isp.example", port: 1812, weight: 100 };
const R2 = { host: "radius-2.isp.example", port: 1812, weight: 100 };
const R3 = { host: "radius-3.isp.example", port: 1812, weight: 200 };

const sent = (g: Gateway) =>
  Object.fromEntries(g.radius.status().servers.map((s) => [`${s.host}:${s.port}`, s.requestsSent]));
const delta = (before: Record<string, number>, after: Record<string, number>) =>
  Object.fromEntries(Object.entries(after).map(([k, v]) => [k, v - (before[k] ?? 0)]));
const share = (d: Record<string, number>, key: string) => (d[key] ?? 0) / Object.values(d).reduce((a, b) => a + b, 0);
/** A server that has taken no accounting yet (port 1813: the authentication port + 1). */
const NO_ACCOUNTING = {
  port: 1813,
  requestsSent: 0,
  requestsByType: { start: 0, interimUpdate: 0, stop: 0 },
  responses: 0,
  timeouts: 0,
};
const alarmsOf = (g: Gateway, id: string) =>
  g.alarms
    .list()
    .active.filter((a) => a.id === id)
    .map((a) => a.instance);

/** A busy appliance: a churn storm (lines dropping every half hour): thousands of requests go out in an hour. */
function busy(seed: number): Gateway {
  const g = gateway(profile(), seed, 1800);
  g.scenario({ action: "set-churn-multiplier", multiplier: 1000 });
  return g;
}

describe("RADIUS server reconfiguration", () => {
  it("sends an added server requests by weight at once, keeping the others' counters", () => {
    const g = busy(21);
    const before = sent(g);
    const report = g.setRadiusServers([R1, R2, R3]);
    expect(report).toEqual({ servers: 3, added: ["radius-3.isp.example:1812"], removed: [], changed: [] });
    const status = g.radius.status();
    expect(status).toMatchObject({ configured: true, totalServers: 3, liveServers: 3, deadServers: 0 });
    expect(status.servers[2]).toEqual({
      host: R3.host,
      port: 1812,
      weight: 200,
      isDead: false,
      consecutiveFailures: 0,
      requestsSent: 0,
      requestsByResult: { accept: 0, reject: 0, timeout: 0 },
      lastFailure: null,
      lastSuccess: null,
      transport: "simulated",
      lastFailureReason: null,
      accounting: NO_ACCOUNTING,
    });
    expect(sent(g)).toEqual({ ...before, "radius-3.isp.example:1812": 0 });
    expect(
      g.logs
        .tail({ count: 1000 })
        .entries.filter((e) => e.msgId === "radius.servers")
        .map((e) => e.fields),
    ).toEqual([{ servers: 3, added: 1, removed: 0, changed: 0 }]);
    g.step(3600);
    const d = delta(before, sent(g));
    // About a thousand setups an hour at this churn on small (sessions live for days, lifetimes.ts): half of them.
    expect(d["radius-3.isp.example:1812"]).toBeGreaterThan(300);
    expect(share(d, "radius-3.isp.example:1812")).toBeCloseTo(0.5, 1);
    expectConsistent(g, { justStepped: true });
  });

  it("changes the share with the weight", () => {
    const g = busy(22);
    expect(g.setRadiusServers([{ ...R1, weight: 300 }, R2])).toEqual({
      servers: 2,
      added: [],
      removed: [],
      changed: ["radius-1.isp.example:1812"],
    });
    const before = sent(g);
    g.step(3600);
    expect(share(delta(before, sent(g)), "radius-1.isp.example:1812")).toBeCloseTo(0.75, 1);
  });

  it("stops sending to a removed server, clears its alarms, and its sessions still name it", () => {
    const g = busy(23);
    g.scenario({ action: "fail-radius-server", server: R1.host });
    g.step(600);
    expect(alarmsOf(g, "radius.server.dead")).toEqual(["radius-1.isp.example:1812"]);
    const byR1 = allSessions(g).find((s) => {
      const d = g.sessions.detail(s.id);
      return d.ok && d.session.aaa.server === "radius-1.isp.example:1812";
    });
    expect(byR1).toBeDefined();

    expect(g.setRadiusServers([R2])).toEqual({
      servers: 1,
      added: [],
      removed: ["radius-1.isp.example:1812"],
      changed: [],
    });
    expect(alarmsOf(g, "radius.server.dead")).toEqual([]);
    expect(g.radius.status().servers.map((s) => s.host)).toEqual([R2.host]);
    const r2 = sent(g)["radius-2.isp.example:1812"]!;
    const detail = g.sessions.detail(byR1!.id);
    expect(detail.ok && detail.session.aaa).toEqual({ method: "radius", server: "radius-1.isp.example:1812" });
    g.step(1800);
    expect(sent(g)["radius-2.isp.example:1812"]).toBeGreaterThan(r2 + 500);
    expect(g.radius.status().totalServers).toBe(1);
    expectConsistent(g, { justStepped: true });

    // Added again, it starts afresh (and answers: the scenario's fault went with it).
    g.setRadiusServers([R1, R2]);
    expect(g.radius.status().servers[0]).toMatchObject({
      host: R1.host,
      requestsSent: 0,
      isDead: false,
      consecutiveFailures: 0,
    });
    g.step(600);
    expect(g.radius.status().servers[0]!.requestsSent).toBeGreaterThan(0);
    expect(alarmsOf(g, "radius.server.dead")).toEqual([]);
  });

  it("with no server left, refuses RADIUS subscribers without raising the all-dead alarm", () => {
    const g = busy(24);
    g.setRadiusServers([]);
    const accounting = { queued: 0, dropped: 0 };
    const none = {
      configured: false,
      totalServers: 0,
      liveServers: 0,
      deadServers: 0,
      servers: [],
      pacing: null,
      accounting,
    };
    expect(g.radius.status()).toEqual(none);
    g.step(600);
    const failures = g.logs
      .tail({ count: 1000 })
      .entries.filter((e) => e.msgId === "aaa.reject")
      .map((e) => e.fields.reason);
    expect(failures.length).toBeGreaterThan(0);
    expect(new Set(failures)).toEqual(new Set(["no-live-server"]));
    expect(alarmsOf(g, "radius.all-dead")).toEqual([]);
    expectConsistent(g, { justStepped: true });
  });

  it("is deterministic, survives a snapshot and a reseed", () => {
    const servers: RadiusServerSettings[] = [
      R3,
      { ...R2, weight: 50 },
      { host: "2001:db8::1812", port: 11812, weight: 10 },
    ];
    const run = () => {
      const g = busy(25);
      g.setRadiusServers(servers);
      g.step(900);
      return g;
    };
    const a = run();
    const b = run();
    expect(observe(a)).toBe(observe(b));
    const restored = restore(a);
    expect(restored.radius.status()).toEqual(a.radius.status());
    a.step(900);
    restored.step(900);
    expect(observe(restored)).toBe(observe(a));
    a.scenario({ action: "reseed", seed: 7 });
    expect(a.radius.status().servers.map((s) => [s.host, s.port, s.weight, s.requestsSent])).toEqual([
      [R3.host, 1812, 200, 0],
      [R2.host, 1812, 50, 0],
      ["2001:db8::1812", 11812, 10, 0],
    ]);
    expectConsistent(a);
  });
});
