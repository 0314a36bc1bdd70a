/**
 * Cross-endpoint consistency: after hours of churn and faults, every
 * endpoint that shows a number shows the same number, read at one instant
 * (the clock is manual, so nothing moves between the reads).
 */
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { advance, get, scenario, scrape, sum, valueOf } from "./helpers.ts";
import type { AddressPool, AddressPoolAllocationsPage } from "../../src/schemas/address-pools.ts";
import type { RadiusPoolStatus } from "../../src/schemas/radius.ts";
import type { AlarmsResponse as Alarms } from "../../src/schemas/alarms.ts";
import type { CgnBindingsPage, CgnStatus as Cgn } from "../../src/schemas/cgn.ts";
import type { L2tpTunnelList } from "../../src/schemas/l2tp.ts";
import type { LicenceStatus } from "../../src/schemas/licensing.ts";
import type { MetricsHistory as History } from "../../src/schemas/metrics.ts";
import type { SessionList, SessionSummaryCounts as Summary } from "../../src/schemas/sessions.ts";

type Pool = z.output<typeof AddressPool>;
type Radius = z.output<typeof RadiusPoolStatus>;

describe("cross-endpoint consistency", () => {
  it("holds after hours of churn, a dead RADIUS server, a filled pool and a mass disconnect", async () => {
    await advance(3600);
    await scenario({ action: "set-churn-multiplier", multiplier: 5 });
    await scenario({ action: "fail-radius-server", server: "radius-1.isp.example" });
    await scenario({ action: "fill-pool", pool: "residential-v4", percent: 100 });
    await advance(3600);
    await scenario({ action: "disconnect-sessions", share: 0.2, filter: {} });
    await scenario({ action: "fill-cgn-group", group: "cgn-1", percent: 60 });
    await advance(3600);

    const [list, summary, pools, cgn, bindings, history, alarms, radius, samples, l2tp, licence] = await Promise.all([
      get<SessionList>("/api/v1/sessions?limit=1"),
      get<Summary>("/api/v1/sessions/summary"),
      get<Pool[]>("/api/v1/address-pools"),
      get<Cgn>("/api/v1/cgn/status"),
      get<CgnBindingsPage>("/api/v1/cgn/bindings?limit=1"),
      get<History>("/api/v1/metrics/history"),
      get<Alarms>("/api/v1/alarms"),
      get<Radius>("/api/v1/radius/servers"),
      scrape(),
      get<L2tpTunnelList>("/api/v1/l2tp/tunnels"),
      get<LicenceStatus>("/api/v1/licensing"),
    ]);

    // Sessions
    expect(summary.total).toBeGreaterThan(1000);
    expect(list.total).toBe(summary.total);
    expect(sum(Object.values(summary.byEncap))).toBe(summary.total);
    expect(sum(Object.values(summary.byType))).toBe(summary.total);
    expect(sum(Object.values(summary.byVrf))).toBe(summary.total);
    expect(sum(summary.byPort.map((p) => p.count))).toBe(summary.total - (summary.byEncap.l2tp ?? 0));

    // L2TP tunnels carry every LAC (upstream) and LNS (downstream) session; the licence meter counts them all
    const carried = (direction: string) =>
      sum(l2tp.tunnels.filter((t) => t.direction === direction).map((t) => t.sessions));
    expect(carried("upstream")).toBe(summary.byEncap["pppoe-lac"]);
    expect(carried("downstream")).toBe(summary.byEncap.l2tp);
    for (const t of l2tp.tunnels) expect(t.state === "established").toBe(t.sessions > 0);
    expect(licence.currentCount).toBe(summary.total);
    expect(valueOf(samples, "bng_licence_meter_peak", { meter: "sessions" })).toBe(licence.peakCount);

    // Address pools
    for (const pool of pools) {
      expect(pool.used + pool.free, pool.name).toBe(pool.size);
      expect(sum(pool.subnets.map((s) => s.used)), pool.name).toBe(pool.used);
      expect(sum(pool.subnets.map((s) => s.size)), pool.name).toBe(pool.size);
      const page = await get<z.output<typeof AddressPoolAllocationsPage>>(
        `/api/v1/address-pools/${pool.name}/allocations?limit=1`,
      );
      expect(page.total, pool.name).toBe(pool.used);
    }

    // CGN
    expect(bindings.total).toBe(cgn.activeBindings);
    expect(sum(cgn.groups.map((g) => g.activeBindings))).toBe(cgn.activeBindings);
    for (const { utilisation: u } of cgn.groups)
      expect(u.usedChunks + u.freeChunks + u.quarantinedChunks).toBe(u.totalChunks);

    // Metrics history: aligned arrays, the newest point is now (the last action was a step)
    const arrays = [
      history.totalSessions,
      ...Object.values(history.byEncap),
      history.sessionsUp,
      history.sessionsDown,
      ...history.ports.flatMap((p) => [p.rxBps, p.txBps]),
    ];
    expect(history.times).toHaveLength(360);
    for (const array of arrays) expect(array).toHaveLength(history.times.length);
    expect(history.totalSessions.at(-1)).toBe(summary.total);

    // Alarms agree with their counts and with the state they describe
    expect(alarms.count).toBe(alarms.active.length);
    expect(sum(Object.values(alarms.countBySeverity))).toBe(alarms.count);
    const poolAlarms = alarms.active.filter((a) => a.id === "pool.utilisation.high").map((a) => a.instance);
    expect(poolAlarms).toContain("residential-v4");
    for (const name of poolAlarms)
      expect(pools.find((p) => p.name === name)!.utilisationPercent).toBeGreaterThanOrEqual(80);
    const deadAlarms = alarms.active
      .filter((a) => a.id === "radius.server.dead")
      .map((a) => a.instance)
      .sort();
    expect(deadAlarms).toEqual(
      radius.servers
        .filter((s) => s.isDead)
        .map((s) => `${s.host}:${s.port}`)
        .sort(),
    );
    expect(radius.liveServers + radius.deadServers).toBe(radius.totalServers);

    // The Prometheus scrape
    expect(valueOf(samples, "bng_sessions")).toBe(summary.total);
    expect(valueOf(samples, "bng_cgn_active_bindings")).toBe(cgn.activeBindings);
    expect(sum(Object.values(alarms.countBySeverity))).toBe(
      sum(samples.filter((s) => s.name === "bng_alarms_active").map((s) => s.value)),
    );
  });
});
