import { describe, expect, it } from "vitest";
import { ScenarioAction } from "../../src/schemas/scenario.ts";
import { allAllocations, expectConsistent, gateway, profile } from "./helpers.ts";

const lastAction = (g: ReturnType<typeof gateway>) =>
  g.logs
    .tail({ count: 200 })
    .entries.filter((e) => e.msgId === "scenario.action")
    .at(-1);

describe("scenario actions", () => {
  it("validates action bodies with one schema", () => {
    expect(ScenarioAction.safeParse({ action: "fill-pool", pool: "p", percent: 50 }).success).toBe(true);
    expect(ScenarioAction.safeParse({ action: "fill-pool", pool: "p", percent: 150 }).success).toBe(false);
    expect(ScenarioAction.safeParse({ action: "explode" }).success).toBe(false);
    expect(ScenarioAction.parse({ action: "disconnect-sessions", share: 0.5 })).toEqual({
      action: "disconnect-sessions",
      share: 0.5,
      filter: {},
    });
  });

  it("advances the clock and logs it", () => {
    const g = gateway(profile(), 111);
    const start = g.nowMs;
    expect(g.scenario({ action: "advance-clock", seconds: 600 })).toEqual({
      ok: true,
      action: "advance-clock",
      detail: { seconds: 600, subSteps: 60 },
    });
    expect(g.nowMs - start).toBe(600_000);
    expect(lastAction(g)?.fields).toMatchObject({ action: "advance-clock" });
  });

  it("scales churn with the multiplier, down to none at zero", () => {
    const g = gateway(profile(), 112, 600);
    g.scenario({ action: "set-churn-multiplier", multiplier: 0 });
    const quietStart = g.sessions.list({ limit: 1 }).items[0]?.id ?? 0;
    g.step(1800);
    const quiet = g.metrics
      .history()
      .sessionsDown.slice(-180)
      .reduce((a, b) => a + b, 0);
    g.scenario({ action: "set-churn-multiplier", multiplier: 50 });
    g.step(1800);
    const busy = g.metrics
      .history()
      .sessionsDown.slice(-180)
      .reduce((a, b) => a + b, 0);
    expect(busy).toBeGreaterThan(quiet * 5 + 50);
    expect((g.sessions.list({ limit: 1 }).items[0]?.id ?? 0) - quietStart).toBeGreaterThan(busy / 2);
  });

  it("fills a pool by reserving a share of its free blocks and drains it again", () => {
    const g = gateway(profile(), 113, 600);
    const before = g.pools.list().find((p) => p.name === "wholesale-v4");
    const r = g.scenario({ action: "fill-pool", pool: "Wholesale-V4", percent: 50 });
    const reserved = Math.floor((before?.free ?? 0) / 2);
    expect(r).toEqual({ ok: true, action: "fill-pool", detail: { pool: "wholesale-v4", reserved } });
    expect(g.pools.list().find((p) => p.name === "wholesale-v4")?.used).toBe((before?.used ?? 0) + reserved);
    expect(allAllocations(g, "wholesale-v4").filter((a) => a.kind === "reserved")).toHaveLength(reserved);
    expect(g.scenario({ action: "drain-pool", pool: "wholesale-v4" })).toMatchObject({
      ok: true,
      detail: { released: reserved },
    });
    expect(g.pools.list().find((p) => p.name === "wholesale-v4")?.used).toBe(before?.used);
    expect(g.scenario({ action: "fill-pool", pool: "nope", percent: 1 })).toEqual({
      ok: false,
      reason: "unknown-pool",
    });
  });

  it("refuses to fill millions of blocks of a large IPv6 pool", () => {
    const g = gateway(
      profile("small", (raw) => (raw.pools[3].subnets[0].prefix = "2001:db8:100::/40")),
      113,
    );
    expect(g.scenario({ action: "fill-pool", pool: "residential-v6-wan", percent: 100 })).toEqual({
      ok: false,
      reason: "fill-too-large",
    });
    expect(g.scenario({ action: "fill-pool", pool: "residential-v6-wan", percent: 1 })).toMatchObject({
      ok: true,
      detail: { reserved: 167_772 },
    });
  });

  it("makes setups fail on a full pool, counting allocation failures", () => {
    const g = gateway(profile(), 114, 600);
    g.scenario({ action: "disconnect-sessions", share: 1, filter: { vrf: "wholesale" } });
    g.scenario({ action: "fill-pool", pool: "wholesale-v4", percent: 100 });
    g.step(600);
    const pool = g.pools.list().find((p) => p.name === "wholesale-v4");
    expect(pool?.free).toBe(0);
    // Only LNS-terminated sessions take a wholesale address: a LAC's come back with addresses from their LNS.
    const wholesale = g.sessions.list({ vrf: "wholesale", limit: 500 }).items;
    expect(wholesale.filter((s) => s.encap === "l2tp")).toEqual([]);
    expect(wholesale.length).toBeGreaterThan(0);
    expect(pool?.allocationFailures).toBeGreaterThan(0);
    const failures = g.logs
      .tail({ count: 1000 })
      .entries.filter((e) => e.msgId === "session.setup-failed")
      .map((e) => e.fields.reason);
    expect(failures).toContain("pool-exhausted");
    expect(
      g.logs
        .tail({ count: 1000 })
        .entries.some((e) => e.msgId === "pool.exhausted" && e.fields.pool === "wholesale-v4"),
    ).toBe(true);
  });

  it("fills and drains a CGN group's port blocks", () => {
    const g = gateway(profile(), 115, 600);
    const before = g.cgn.status().groups[0]?.utilisation;
    const r = g.scenario({ action: "fill-cgn-group", group: "cgn-1", percent: 50 });
    const reserved = Math.floor((before?.freeChunks ?? 0) / 2);
    expect(r).toMatchObject({ ok: true, detail: { reserved } });
    expect(g.cgn.status().groups[0]?.utilisation.usedChunks).toBe((before?.usedChunks ?? 0) + reserved);
    g.scenario({ action: "drain-cgn-group", group: "cgn-1" });
    expect(g.cgn.status().groups[0]?.utilisation.usedChunks).toBe(before?.usedChunks);
    expect(g.scenario({ action: "drain-cgn-group", group: "cgn-9" })).toEqual({ ok: false, reason: "unknown-group" });
  });

  it("fails and revives a RADIUS server by host or host:port", () => {
    const g = gateway(profile(), 116, 600);
    expect(g.scenario({ action: "fail-radius-server", server: "RADIUS-1.isp.example:1812" })).toMatchObject({
      ok: true,
    });
    g.step(300);
    expect(g.radius.status().servers[0]?.isDead).toBe(true);
    expect(g.scenario({ action: "revive-radius-server", server: "radius-1.isp.example" })).toMatchObject({ ok: true });
    expect(g.radius.status().servers[0]?.isDead).toBe(false);
    expect(g.scenario({ action: "fail-radius-server", server: "radius-9" })).toEqual({
      ok: false,
      reason: "unknown-server",
    });
  });

  it("disconnects a share of the sessions matching a filter, and only those", () => {
    const g = gateway(profile(), 117, 600);
    const summary = g.sessions.summary();
    const r = g.scenario({ action: "disconnect-sessions", share: 0.5, filter: { encap: "pppoe-local" } });
    const matched = summary.byEncap["pppoe-local"] ?? 0;
    expect(matched).toBeGreaterThan(0);
    expect(r).toEqual({
      ok: true,
      action: "disconnect-sessions",
      detail: { matched, disconnected: Math.round(matched / 2) },
    });
    const after = g.sessions.summary();
    expect(after.byEncap["pppoe-local"]).toBe(matched - Math.round(matched / 2));
    expect(after.byEncap.ipoe).toBe(summary.byEncap.ipoe);
    expect(lastAction(g)?.fields.detail).toBe(`matched=${matched} disconnected=${Math.round(matched / 2)}`);
    expectConsistent(g, { noReservations: true });
  });

  it("reseeds: the data plane restarts empty with new subscribers while logs and session ids continue", () => {
    const g = gateway(profile(), 118, 600);
    const seq = g.lastSeq;
    const nextId = (g.sessions.list({ limit: 1 }).items[0]?.id ?? 0) + 1;
    const users = new Set(g.sessions.list({ limit: 500 }).items.map((s) => s.username));
    expect(g.scenario({ action: "reseed", seed: 9 })).toMatchObject({ ok: true, detail: { seed: 9 } });
    expect(g.sessions.summary().total).toBe(0);
    expect(g.pools.list().every((p) => p.used === p.subnets.reduce((n, s) => n + s.used, 0))).toBe(true);
    expect(g.cgn.status().activeBindings).toBe(0);
    expect(g.seed).toBe(9);
    expect(g.lastSeq).toBe(seq + 1);
    g.step(60);
    expect(Math.min(...g.sessions.list({ limit: 500 }).items.map((s) => s.id))).toBeGreaterThanOrEqual(nextId);
    const fresh = g.sessions.list({ limit: 500 }).items.map((s) => s.username);
    expect(fresh.filter((u) => users.has(u)).length).toBeLessThan(fresh.length);
    expectConsistent(g, { justStepped: true, noReservations: true });
  });
});
