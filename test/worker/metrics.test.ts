import { describe, expect, it } from "vitest";
import { ADMIN_PASSWORD, bearer, call, enrolAndLogin, tokenWithRole } from "./client.ts";
import { admin, advance, get, scenario, scrape, sum, valueOf } from "./helpers.ts";
import type { z } from "zod";
import type { AddressPool } from "../../src/schemas/address-pools.ts";
import type { RadiusPoolStatus } from "../../src/schemas/radius.ts";
import type { AlarmsResponse as Alarms } from "../../src/schemas/alarms.ts";
import type { CgnStatus as Cgn } from "../../src/schemas/cgn.ts";
import type { LogTail } from "../../src/schemas/logs.ts";
import type { MetricsHistory as History } from "../../src/schemas/metrics.ts";
import type { SessionSummaryCounts as Summary } from "../../src/schemas/sessions.ts";

type Pool = z.output<typeof AddressPool>;
type Radius = z.output<typeof RadiusPoolStatus>;

const lengthsOf = (h: History) =>
  [
    h.totalSessions,
    ...Object.values(h.byEncap),
    h.sessionsUp,
    h.sessionsDown,
    ...h.ports.flatMap((p) => [p.rxBps, p.txBps]),
  ].map((a) => a.length);

describe("metrics history", () => {
  it("is empty before the first step", async () => {
    expect(await get<History>("/api/v1/metrics/history")).toMatchObject({
      intervalSeconds: 10,
      times: [],
      totalSessions: [],
    });
  });

  it("holds an hour at 10 s, aligned arrays, the newest point equal to the summary", async () => {
    await advance(2 * 3600);
    const [history, summary] = await Promise.all([
      get<History>("/api/v1/metrics/history"),
      get<Summary>("/api/v1/sessions/summary"),
    ]);
    expect(history.intervalSeconds).toBe(10);
    expect(history.times).toHaveLength(360);
    expect(lengthsOf(history).every((n) => n === 360)).toBe(true);
    expect(history.totalSessions.at(-1)).toBe(summary.total);
    expect(history.byEncap.pppoeLocal.at(-1)).toBe(summary.byEncap["pppoe-local"]);
    history.times.forEach((_, i) =>
      expect(sum(Object.values(history.byEncap).map((a) => a[i]!))).toBe(history.totalSessions[i]),
    );
    expect(Date.parse(history.times[1]!) - Date.parse(history.times[0]!)).toBe(10_000);
    expect(history.ports.map((p) => p.label)).toEqual(["xe-0/0/0 OLT-north", "xe-0/0/1 OLT-south"]);
  });

  it("downsamples 6h and 24h, and falls back to 1h for any other range", async () => {
    await advance(7 * 3600);
    const six = await get<History>("/api/v1/metrics/history?range=6h");
    expect(six.intervalSeconds).toBe(60);
    // Buckets sit on the interval's boundaries; the window's oldest one may be partial, so one extra point can appear.
    expect(six.times.length).oneOf([360, 361]);
    expect(lengthsOf(six).every((n) => n === six.times.length)).toBe(true);
    const day = await get<History>("/api/v1/metrics/history?range=24h");
    expect(day.intervalSeconds).toBe(240);
    expect(day.times.length).oneOf([7 * 15, 7 * 15 + 1]);
    expect(lengthsOf(day).every((n) => n === day.times.length)).toBe(true);
    for (const range of ["2h", "", "1H", "%00"]) {
      const fallback = await get<History>(`/api/v1/metrics/history?range=${range}`);
      expect(fallback.intervalSeconds, range).toBe(10);
      expect(fallback.times, range).toHaveLength(360);
    }
  });

  it("is readable through the fleet proxy", async () => {
    await advance(60, "edge-2");
    expect((await get<History>("/api/v1/fleet/edge-2/metrics/history")).times).toHaveLength(6);
  });
});

describe("Prometheus scrape", () => {
  it("answers text exposition 0.0.4 to a read-only token, and refuses a session cookie", async () => {
    const response = await call("/api/v1/metrics", { headers: bearer(await tokenWithRole("read-only")) });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    const text = await response.text();
    expect(text).toMatch(/^# HELP bng_appliance_info /);
    expect(text).toContain(
      'bng_appliance_info{appliance="edge-1",profile="small",software_version="bngfleet 0.1.0"} 1',
    );
    const { cookie } = await enrolAndLogin("admin", ADMIN_PASSWORD);
    expect((await call("/api/v1/metrics", { headers: { cookie } })).status).toBe(401);
  });

  it("shows the same numbers as the JSON endpoints at the same instant", async () => {
    await advance(3600);
    await scenario({ action: "fill-cgn-group", group: "cgn-1", percent: 95 });
    await scenario({ action: "fail-radius-server", server: "radius-2.isp.example" });
    await advance(120);
    const [samples, summary, history, pools, cgn, radius, alarms, tail] = await Promise.all([
      scrape(),
      get<Summary>("/api/v1/sessions/summary"),
      get<History>("/api/v1/metrics/history"),
      get<Pool[]>("/api/v1/address-pools"),
      get<Cgn>("/api/v1/cgn/status"),
      get<Radius>("/api/v1/radius/servers"),
      get<Alarms>("/api/v1/alarms"),
      get<LogTail>("/api/v1/logs/tail?count=1"),
    ]);

    expect(valueOf(samples, "bng_sessions")).toBe(summary.total);
    for (const [encap, n] of Object.entries(summary.byEncap))
      expect(valueOf(samples, "bng_sessions_by_encap", { encap })).toBe(n);
    for (const [type, n] of Object.entries(summary.byType))
      expect(valueOf(samples, "bng_sessions_by_type", { type })).toBe(n);
    for (const [vrf, n] of Object.entries(summary.byVrf))
      expect(valueOf(samples, "bng_sessions_by_vrf", { vrf })).toBe(n);
    for (const p of summary.byPort)
      expect(valueOf(samples, "bng_sessions_by_port", { port_id: String(p.portId), port_label: p.label })).toBe(
        p.count,
      );
    expect(valueOf(samples, "bng_sessions_walled_garden")).toBe(summary.walledGarden);

    for (const p of history.ports) {
      expect(valueOf(samples, "bng_port_receive_bytes_per_second", { port_id: String(p.portId) })).toBe(
        p.rxBps.at(-1)! / 8,
      );
      expect(valueOf(samples, "bng_port_transmit_bytes_per_second", { port_id: String(p.portId) })).toBe(
        p.txBps.at(-1)! / 8,
      );
    }

    for (const pool of pools) {
      const labels = { pool: pool.name, family: pool.family, vrf: pool.vrf ?? "default" };
      expect(valueOf(samples, "bng_address_pool_size_blocks", labels)).toBe(pool.size);
      expect(valueOf(samples, "bng_address_pool_used_blocks", labels)).toBe(pool.used);
      expect(valueOf(samples, "bng_address_pool_free_blocks", labels)).toBe(pool.free);
      expect(valueOf(samples, "bng_address_pool_offered_blocks", labels)).toBe(pool.offered);
      expect(valueOf(samples, "bng_address_pool_quarantined_blocks", labels)).toBe(pool.quarantined);
      expect(valueOf(samples, "bng_address_pool_allocation_failures_total", labels)).toBe(pool.allocationFailures);
    }

    expect(valueOf(samples, "bng_cgn_active_bindings")).toBe(cgn.activeBindings);
    expect(valueOf(samples, "bng_cgn_auto_learned_bindings")).toBe(cgn.autoLearnedBindings);
    expect(valueOf(samples, "bng_cgn_max_bindings")).toBe(cgn.maxBindings);
    for (const g of cgn.groups) {
      expect(valueOf(samples, "bng_cgn_group_active_bindings", { group: g.name })).toBe(g.activeBindings);
      expect(valueOf(samples, "bng_cgn_group_size_chunks", { group: g.name })).toBe(g.utilisation.totalChunks);
      expect(valueOf(samples, "bng_cgn_group_used_chunks", { group: g.name })).toBe(g.utilisation.usedChunks);
      expect(valueOf(samples, "bng_cgn_group_free_chunks", { group: g.name })).toBe(g.utilisation.freeChunks);
      expect(valueOf(samples, "bng_cgn_group_quarantined_chunks", { group: g.name })).toBe(
        g.utilisation.quarantinedChunks,
      );
    }
    expect(valueOf(samples, "bng_cgn_autolearn_misses_total")).toBe(cgn.nativeCounters.autolearnMisses);
    expect(valueOf(samples, "bng_cgn_no_mapping_total")).toBe(cgn.nativeCounters.noMapping);
    expect(valueOf(samples, "bng_cgn_extension_wanted_total")).toBe(cgn.nativeCounters.extensionWanted);
    expect(valueOf(samples, "bng_cgn_event_ring_drops_total")).toBe(cgn.nativeCounters.eventRingDrops);

    expect(valueOf(samples, "bng_radius_live_servers")).toBe(radius.liveServers);
    for (const s of radius.servers) {
      const labels = { server: `${s.host}:${s.port}` };
      expect(
        sum(
          samples
            .filter((x) => x.name === "bng_radius_requests_total" && x.labels.server === labels.server)
            .map((x) => x.value),
        ),
      ).toBe(s.requestsSent);
      expect(valueOf(samples, "bng_radius_consecutive_failures", labels)).toBe(s.consecutiveFailures);
      expect(valueOf(samples, "bng_radius_server_dead", labels)).toBe(s.isDead ? 1 : 0);
    }

    expect(alarms.count).toBeGreaterThan(0);
    for (const [severity, n] of Object.entries(alarms.countBySeverity))
      expect(valueOf(samples, "bng_alarms_active", { severity })).toBe(n);
    expect(valueOf(samples, "bng_alarms_raised_total")).toBe(alarms.stats.raised);
    expect(valueOf(samples, "bng_alarms_cleared_total")).toBe(alarms.stats.cleared);

    expect(valueOf(samples, "bng_licence_meter_current", { meter: "sessions" })).toBe(summary.total);
    expect(valueOf(samples, "bng_licence_meter_max", { meter: "sessions" })).toBe(2500);
    expect(valueOf(samples, "bng_licence_meter_peak", { meter: "sessions" })).toBeGreaterThanOrEqual(summary.total);
    // The scrape is read before the tail here, and reads log nothing: the sequence is the same.
    expect(valueOf(samples, "bng_log_entries_total")).toBe(tail.lastSeq);
  });

  it("declares every family once, with HELP and TYPE, and counters end in _total", async () => {
    await advance(600);
    const text = await (await call("/api/v1/metrics", { headers: admin })).text();
    const types = [...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => [m[1]!, m[2]!] as const);
    const helps = [...text.matchAll(/^# HELP (\S+) /gm)].map((m) => m[1]);
    expect(new Set(types.map(([n]) => n)).size).toBe(types.length);
    expect(helps).toEqual(types.map(([n]) => n));
    for (const [name, type] of types) {
      expect(name).toMatch(/^bng_[a-z0-9_]+$/);
      expect(name.endsWith("_total"), name).toBe(type === "counter");
    }
  });
});
