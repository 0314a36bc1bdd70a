import { describe, expect, it } from "vitest";
import { RadiusPool } from "../../simulator/aaa.ts";
import { LogRing } from "../../simulator/logs.ts";
import { Random } from "../../simulator/random.ts";
import { START, expectConsistent, gateway, profile } from "./helpers.ts";

function pool(patch: (aaa: Record<string, any>) => void = () => {}): { radius: RadiusPool; logs: LogRing } {
  const p = profile("small", (raw) => patch(raw.aaa));
  const logs = new LogRing();
  return { radius: new RadiusPool(p.aaa, logs), logs };
}

describe("RADIUS server pool", () => {
  it("spreads requests by weight", () => {
    const { radius } = pool((aaa) => {
      aaa.servers = [
        { host: "a.example", port: 1812, weight: 300, failureProbability: 0 },
        { host: "b.example", port: 1812, weight: 100, failureProbability: 0 },
      ];
      aaa.rejectProbability = 0;
    });
    const rng = new Random(3);
    for (let i = 0; i < 8000; i++) radius.authenticate(rng, START);
    const [a, b] = radius.status().servers.map((s) => s.requestsSent);
    expect((a ?? 0) / ((a ?? 0) + (b ?? 0))).toBeCloseTo(0.75, 1);
    expect((a ?? 0) + (b ?? 0)).toBe(8000);
  });

  it("marks a server dead after consecutive failures, fails over, and revives it after the dead time", () => {
    const { radius, logs } = pool((aaa) => (aaa.rejectProbability = 0));
    const rng = new Random(4);
    radius.forceDown(0);
    let now = START;
    for (;;) {
      // Every request still succeeds: the client retries the other server.
      expect(radius.authenticate(rng, now).ok).toBe(true);
      if (radius.isDead(0)) break;
      now += 1000;
    }
    const dead = radius.status().servers[0];
    expect(dead).toMatchObject({ isDead: true, consecutiveFailures: 3, lastFailure: expect.any(String) });
    expect(logs.tail().entries.map((e) => e.msgId)).toContain("radius.server.dead");
    radius.tick(now + 59_000);
    expect(radius.isDead(0)).toBe(true);
    radius.tick(now + 60_000);
    expect(radius.isDead(0)).toBe(false);
    expect(radius.status().servers[0]?.consecutiveFailures).toBe(0);
    expect(logs.tail().entries.at(-1)?.msgId).toBe("radius.server.alive");
  });

  it("answers no-live-server without sending when every server is dead", () => {
    const { radius } = pool();
    const rng = new Random(5);
    radius.forceDown(0);
    radius.forceDown(1);
    for (let i = 0; i < 10; i++) radius.authenticate(rng, START);
    expect(radius.liveCount).toBe(0);
    const sent = radius.status().servers.reduce((n, s) => n + s.requestsSent, 0);
    expect(radius.authenticate(rng, START)).toEqual({ ok: false, reason: "no-live-server", server: -1 });
    expect(radius.status().servers.reduce((n, s) => n + s.requestsSent, 0)).toBe(sent);
  });
});

describe("AAA in session setup", () => {
  it("keeps local subscribers coming up while every RADIUS server is dead", () => {
    const g = gateway(
      profile("small", (raw) => (raw.aaa.localShare = 0.3)),
      41,
      600,
    );
    g.scenario({ action: "fail-radius-server", server: "radius-1.isp.example" });
    g.scenario({ action: "fail-radius-server", server: "radius-2.isp.example" });
    g.scenario({ action: "set-churn-multiplier", multiplier: 0 });
    g.scenario({ action: "disconnect-sessions", share: 0.5, filter: {} });
    const firstNew = g.sessions.list({ limit: 1 }).items[0]?.id ?? 0;
    const before = g.lastSeq;
    g.step(300);
    const radius = g.radius.status();
    expect(radius.deadServers).toBe(2);
    const fresh = g.sessions.list({ limit: 500 }).items.filter((s) => s.id > firstNew);
    expect(fresh.length).toBeGreaterThan(50);
    for (const s of fresh) {
      const d = g.sessions.detail(s.id);
      expect(d.ok && d.session.aaa).toEqual({ method: "local", server: null });
    }
    const logged = g.logs.tail({ sinceSeq: before, count: 1000 }).entries;
    expect(logged.some((e) => e.msgId === "aaa.reject" && e.fields.reason === "no-live-server")).toBe(true);
    expect(logged.some((e) => e.msgId === "session.setup-failed" && e.fields.reason === "no-live-server")).toBe(true);
    const alarms = g.alarms.list().active.map((a) => `${a.id}/${a.instance}`);
    expect(alarms).toEqual(
      expect.arrayContaining([
        "radius.all-dead/null",
        "radius.server.dead/radius-1.isp.example:1812",
        "radius.server.dead/radius-2.isp.example:1812",
      ]),
    );
    expect(g.alarms.list().active[0]?.id).toBe("radius.all-dead");
    expectConsistent(g, { justStepped: true, noReservations: true });
  });

  it("lets RADIUS subscribers back in once a server is revived, and clears the alarms", () => {
    const g = gateway(profile(), 42, 600);
    g.scenario({ action: "fail-radius-server", server: "radius-1.isp.example" });
    g.scenario({ action: "fail-radius-server", server: "radius-2.isp.example" });
    g.scenario({ action: "disconnect-sessions", share: 0.3, filter: {} });
    g.step(120);
    const low = g.sessions.summary().total;
    g.scenario({ action: "revive-radius-server", server: "radius-2.isp.example" });
    g.step(120);
    expect(g.sessions.summary().total).toBeGreaterThan(low + 300);
    const ids = g.alarms.list().active.map((a) => `${a.id}/${a.instance}`);
    expect(ids).not.toContain("radius.all-dead/null");
    expect(ids).not.toContain("radius.server.dead/radius-2.isp.example:1812");
    // The still-failing server is retried after each dead time and fails again.
    const failing = g.radius.status().servers[0];
    expect(Date.parse(failing?.lastFailure ?? "")).toBeGreaterThan(g.nowMs - 120_000);
  });
});
