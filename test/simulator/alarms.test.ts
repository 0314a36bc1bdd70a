import { describe, expect, it } from "vitest";
import { ALARM_CATALOGUE } from "../../simulator/index.ts";
import { expectConsistent, gateway, profile } from "./helpers.ts";

describe("alarms", () => {
  it("raises pool utilisation high above 90 % with pool context and clears it below 80 %", () => {
    const g = gateway(profile(), 81, 600);
    g.scenario({ action: "fill-pool", pool: "residential-v4", percent: 80 });
    const pool = g.pools.list().find((p) => p.name === "residential-v4");
    expect(pool?.utilisationPercent).toBeGreaterThanOrEqual(90);
    const alarm = g.alarms.list().active.find((a) => a.id === "pool.utilisation.high");
    expect(alarm).toMatchObject({ instance: "residential-v4", severity: "major", ageSeconds: 0 });
    expect(alarm?.context).toMatchObject({
      pool: "residential-v4",
      used: String(pool?.used),
      size: String(pool?.size),
    });
    g.step(600);
    expect(g.alarms.list().active.find((a) => a.id === "pool.utilisation.high")?.ageSeconds).toBe(600);
    g.scenario({ action: "drain-pool", pool: "residential-v4" });
    expect(g.alarms.list().active.some((a) => a.id === "pool.utilisation.high")).toBe(false);
    expect(g.alarms.list().stats).toMatchObject({ raised: 1, cleared: 1, events: 2 });
  });

  it("does not flap between the clear and raise levels", () => {
    const g = gateway(profile(), 82, 600);
    g.scenario({ action: "fill-pool", pool: "residential-v4", percent: 80 });
    const poolRaises = () => {
      const raises = g.logs.tail({ count: 1000 }).entries.filter((e) => e.msgId === "alarm.raise");
      return raises.filter((e) => e.fields.id === "pool.utilisation.high").length;
    };
    const raised = poolRaises();
    g.scenario({ action: "disconnect-sessions", share: 0.15, filter: { vrf: "default" } });
    const pct = g.pools.list().find((p) => p.name === "residential-v4")?.utilisationPercent ?? 0;
    expect(pct).toBeLessThan(90);
    expect(pct).toBeGreaterThanOrEqual(80);
    expect(g.alarms.list().active.some((a) => a.id === "pool.utilisation.high")).toBe(true);
    expect(poolRaises()).toBe(raised);
  });

  it("lets an operator clear an alarm, which stays cleared until its condition recurs", () => {
    const g = gateway(profile(), 83, 600);
    g.scenario({ action: "fill-cgn-group", group: "cgn-1", percent: 95 });
    expect(g.clearAlarm("cgn.pool.high", "cgn-1")).toEqual({ cleared: true, id: "cgn.pool.high", instance: "cgn-1" });
    expect(g.clearAlarm("cgn.pool.high", "cgn-1")).toEqual({ cleared: false, id: "cgn.pool.high", instance: "cgn-1" });
    expect(g.clearAlarm("no.such.alarm", null)).toEqual({ cleared: false, id: "no.such.alarm", instance: null });
    g.step(60);
    expect(g.alarms.list().active.some((a) => a.id === "cgn.pool.high")).toBe(false);
    g.scenario({ action: "drain-cgn-group", group: "cgn-1" });
    g.scenario({ action: "fill-cgn-group", group: "cgn-1", percent: 95 });
    expect(g.alarms.list().active.some((a) => a.id === "cgn.pool.high")).toBe(true);
    expect(
      g.logs
        .tail({ count: 100 })
        .entries.filter((e) => e.msgId === "alarm.clear")
        .map((e) => e.fields.manual),
    ).toEqual([true]);
  });

  it("orders active alarms most severe first and counts them by severity", () => {
    const g = gateway(profile(), 84, 600);
    g.scenario({ action: "fill-pool", pool: "wholesale-v4", percent: 100 });
    g.scenario({ action: "fail-radius-server", server: "radius-1.isp.example" });
    g.scenario({ action: "fail-radius-server", server: "radius-2.isp.example" });
    g.step(60);
    const alarms = g.alarms.list();
    const rank = (s: string) => ["critical", "major", "minor", "warning"].indexOf(s);
    const ranks = alarms.active.map((a) => rank(a.severity));
    expect([...ranks].sort((a, b) => a - b)).toEqual(ranks);
    expect(alarms.active[0]).toMatchObject({ id: "radius.all-dead", instance: null, severity: "critical" });
    expect(alarms.countBySeverity.critical).toBe(1);
    expect(alarms.countBySeverity.major).toBe(alarms.active.filter((a) => a.severity === "major").length);
    for (const a of alarms.active)
      expect(a.severity).toBe(ALARM_CATALOGUE[a.id as keyof typeof ALARM_CATALOGUE].severity);
    expectConsistent(g, { justStepped: true });
  });

  it("warns when sessions approach the licensed capacity and refuses setups beyond it", () => {
    const g = gateway(
      profile("small", (raw) => {
        raw.population.licensedSessions = 2050;
      }),
      85,
      600,
    );
    expect(g.alarms.list().active.find((a) => a.id === "sessions.capacity.high")?.context).toMatchObject({
      licensed: "2050",
    });
    g.scenario({ action: "set-churn-multiplier", multiplier: 30 });
    g.step(3600);
    expect(g.sessions.summary().total).toBeLessThanOrEqual(2050);
    expect(g.licence.meter()).toMatchObject({ bandMax: 2050, currentCount: g.sessions.summary().total });
    expect(g.licence.meter().peakCount).toBeGreaterThanOrEqual(g.sessions.summary().total);
  });
});
