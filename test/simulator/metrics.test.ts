import { describe, expect, it } from "vitest";
import { METRICS_CAPACITY } from "../../simulator/index.ts";
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
    expect([h.byEncap.ipoe.at(-1), h.byEncap.pppoeLocal.at(-1), h.byEncap.pppoeLac.at(-1), h.byEncap.l2tp.at(-1)]).toEqual([
      byEncap.ipoe,
      byEncap["pppoe-local"],
      byEncap["pppoe-lac"],
      byEncap.l2tp,
    ]);
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

  it("falls back to 1h for any other range", () => {
    const g = gateway(profile(), 104, 600);
    for (const r of ["7d", "", "toString", null, undefined]) expect(g.metrics.history(r)).toEqual(g.metrics.history("1h"));
  });

  it("sums port rates over the port's sessions", () => {
    const g = gateway(profile(), 105, 1800);
    const h = g.metrics.history();
    for (const port of h.ports) {
      const sessions = g.sessions.list({ port: port.portId, limit: 500 });
      const pages = [sessions.items];
      for (let offset = 500; offset < sessions.total; offset += 500) pages.push(g.sessions.list({ port: port.portId, offset, limit: 500 }).items);
      let rx = 0;
      let tx = 0;
      for (const s of pages.flat()) {
        const r = g.sessions.rates(s.id);
        if (r.ok) {
          rx += r.rates.rxBps;
          tx += r.rates.txBps;
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
