import { describe, expect, it } from "vitest";
import { METRICS_CAPACITY } from "../../simulator/index.ts";
import { MetricsRing } from "../../simulator/metrics.ts";
import { START, gateway, profile } from "./helpers.ts";

describe("metrics history", () => {
  it("is empty before the first step", () => {
    const h = gateway().metrics.history();
    expect(h.times).toEqual([]);
    expect(h.ports.map((p) => p.rxBps)).toEqual([[], []]);
  });

  it("keeps the last hour at the native 10 s, aligned, with the newest sample equal to the live count", () => {
    const g = gateway(profile(), 101, 2 * 3600);
    const h = g.metrics.history("1h");
    expect(h.intervalSeconds).toBe(10);
    expect(h.times).toHaveLength(360);
    expect(Date.parse(h.times.at(-1) ?? "")).toBe(g.nowMs);
    expect(Date.parse(h.times[1] ?? "") - Date.parse(h.times[0] ?? "")).toBe(10_000);
    expect(h.totalSessions.at(-1)).toBe(g.sessions.summary().total);
    const byEncap = g.sessions.summary().byEncap;
    expect([
      h.byEncap.ipoe.at(-1),
      h.byEncap.pppoeLocal.at(-1),
      h.byEncap.pppoeLac.at(-1),
      h.byEncap.l2tp.at(-1),
    ]).toEqual([byEncap.ipoe, byEncap["pppoe-local"], byEncap["pppoe-lac"], byEncap.l2tp]);
  });

  it("downsamples 6h to 60 s and 24h to 240 s, summing ups and downs per interval", () => {
    const g = gateway(profile(), 102, 30 * 3600);
    const native = g.metrics.history("1h");
    const six = g.metrics.history("6h");
    const day = g.metrics.history("24h");
    expect(six.intervalSeconds).toBe(60);
    expect(six.times).toHaveLength(360);
    expect(day.intervalSeconds).toBe(240);
    expect(day.times).toHaveLength(360);
    expect(six.times.at(-1)).toBe(native.times.at(-1));
    expect(six.totalSessions.at(-1)).toBe(native.totalSessions.at(-1));
    // The last six native samples make the last 60 s point.
    const lastSix = (a: number[]) => a.slice(-6).reduce((x, y) => x + y, 0);
    expect(six.sessionsUp.at(-1)).toBe(lastSix(native.sessionsUp));
    expect(six.sessionsDown.at(-1)).toBe(lastSix(native.sessionsDown));
    const port = 0;
    expect(six.ports[port]?.rxBps.at(-1)).toBeCloseTo(lastSix(native.ports[port]?.rxBps ?? []) / 6, -2);
  });

  it("retains at most 24 hours (8,640 samples)", () => {
    const g = gateway(profile("small"), 103, 26 * 3600);
    const day = g.metrics.history("24h");
    expect(METRICS_CAPACITY).toBe(8640);
    expect(Date.parse(day.times[0] ?? "")).toBeGreaterThanOrEqual(g.nowMs - 24 * 3600 * 1000);
    expect(Date.parse(day.times[0] ?? "")).toBeGreaterThan(START + 2 * 3600 * 1000 - 240_000);
  });

  it("reads back every sample of a day recorded one by one, and only the last day's after more", () => {
    // Hand-made samples every 10 s: sample k has k sessions, one up, k on port 0's receive side.
    const ring = new MetricsRing(1);
    const t0 = Date.UTC(2026, 0, 1);
    const record = (k: number) =>
      ring.record(t0 + k * 10_000, k, new Int32Array([k, 0, 0, 0]), 1, 0, new Float64Array([k]), new Float64Array([0]));
    for (let k = 1; k <= 8640; k++) record(k);
    const day = ring.history("24h", [{ portId: 0, label: "p0" }]);
    expect(ring.size).toBe(8640);
    // 8,640 samples of 10 s in 360 buckets of 240 s: 24 samples each, every one of them counted once.
    expect(day.times).toHaveLength(360);
    expect(day.sessionsUp.reduce((a, b) => a + b, 0)).toBe(8640);
    expect(day.totalSessions.at(-1)).toBe(8640);
    // The newest hour: samples 8,281 to 8,640, each as recorded.
    const hour = ring.history("1h", [{ portId: 0, label: "p0" }]);
    expect(hour.totalSessions).toEqual(Array.from({ length: 360 }, (_, i) => 8281 + i));
    expect(hour.ports[0]?.rxBps).toEqual(hour.totalSessions);
    // 100 more: the oldest 100 are dropped, so the day starts at sample 101.
    for (let k = 8641; k <= 8740; k++) record(k);
    const later = ring.history("24h", [{ portId: 0, label: "p0" }]);
    expect(ring.size).toBe(8640);
    expect(later.sessionsUp.reduce((a, b) => a + b, 0)).toBe(8640);
    expect(later.totalSessions.at(-1)).toBe(8740);
    expect(ring.history("1h", [{ portId: 0, label: "p0" }]).totalSessions[0]).toBe(8381);
  });

  it("gives each port's newest rates as the last point of the hour, before and after the ring wraps", () => {
    // Hand-made samples every 10 s: sample k carries k bit/s received and 2k sent on port 0, 1000 + k received on port
    // 1.
    const ring = new MetricsRing(2);
    const ports = [
      { portId: 0, label: "p0" },
      { portId: 1, label: "p1" },
    ];
    const t0 = Date.UTC(2026, 0, 1);
    const record = (k: number, t = t0 + k * 10_000) =>
      ring.record(t, k, new Int32Array(4), 0, 0, new Float64Array([k, 1000 + k]), new Float64Array([2 * k, 0]));
    expect(ring.newestPortRates(ports)).toEqual([
      { portId: 0, label: "p0", rxBps: 0, txBps: 0 },
      { portId: 1, label: "p1", rxBps: 0, txBps: 0 },
    ]);
    record(1);
    record(2);
    expect(ring.newestPortRates(ports)).toEqual([
      { portId: 0, label: "p0", rxBps: 2, txBps: 4 },
      { portId: 1, label: "p1", rxBps: 1002, txBps: 0 },
    ]);
    // A day and 100 samples more: the ring has wrapped, and the newest is sample 8,742.
    for (let k = 3; k <= 8742; k++) record(k);
    expect(ring.newestPortRates(ports).map((p) => [p.rxBps, p.txBps])).toEqual([
      [8742, 17484],
      [9742, 0],
    ]);
    // Two samples 5 s apart fall in one 10 s bucket (a sample at t covers the 10 s before it): the point is their mean,
    // rounded.
    record(8743, t0 + 8742 * 10_000 + 5_000);
    expect(ring.newestPortRates(ports).map((p) => [p.rxBps, p.txBps])).toEqual([
      [Math.round((8742 + 8743) / 2), Math.round((17484 + 17486) / 2)],
      [Math.round((9742 + 9743) / 2), 0],
    ]);
    // Always the hour's own last point.
    const hour = ring.history("1h", ports);
    expect(ring.newestPortRates(ports).map((p) => p.rxBps)).toEqual(hour.ports.map((p) => p.rxBps.at(-1)));
  });

  it("falls back to 1h for any other range", () => {
    const g = gateway(profile(), 104, 600);
    for (const r of ["7d", "", "toString", null, undefined])
      expect(g.metrics.history(r)).toEqual(g.metrics.history("1h"));
  });

  it("sums port rates over the port's sessions' frames: their packets, access headers and control plane", () => {
    const g = gateway(profile(), 105, 1800);
    const h = g.metrics.history();
    for (const port of h.ports) {
      const sessions = g.sessions.list({ port: port.portId, limit: 500 });
      const pages = [sessions.items];
      for (let offset = 500; offset < sessions.total; offset += 500)
        pages.push(g.sessions.list({ port: port.portId, offset, limit: 500 }).items);
      let rx = 0;
      let tx = 0;
      for (const s of pages.flat()) {
        const r = g.sessions.rates(s.id);
        if (r.ok) {
          // By hand, a frame's header on the access port: Ethernet 14 + two 802.1Q tags 8; PPPoE 6 + PPP 2 more.
          const header = s.encap === "ipoe" ? 22 : 30;
          // Control: a PPP session's LCP echo each way every 10 s (a 60-byte minimum frame: 48 b/s); an IPoE
          // session's DHCP REQUEST and ACK every half hour (T1 of the 3,600 s lease), 350-byte frames: 1.56 b/s.
          const control = s.encap === "ipoe" ? (350 * 8) / 1800 : (60 * 8) / 10;
          rx += r.rates.rxBps + 8 * header * r.rates.rxPps + control;
          tx += r.rates.txBps + 8 * header * r.rates.txPps + control;
        }
      }
      // Per-session rates are rounded to whole bits per second.
      expect(Math.abs((port.rxBps.at(-1) ?? 0) - rx)).toBeLessThanOrEqual(sessions.total);
      expect(Math.abs((port.txBps.at(-1) ?? 0) - tx)).toBeLessThanOrEqual(sessions.total);
      expect(tx).toBeGreaterThan(0);
    }
  });

  it("carries more traffic in the evening than at night", () => {
    const g = gateway(profile(), 106, 8 * 3600);
    const total = () => g.metrics.history().ports.reduce((n, p) => n + (p.txBps.at(-1) ?? 0), 0);
    const evening = total();
    g.step(10 * 3600);
    expect(total()).toBeLessThan(evening / 2);
  });
});
