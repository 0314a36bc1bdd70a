/**
 * Traffic with a shape (traffic.ts): an evening peak where residential networks have it, each subscriber's own
 * down:up ratio, packet sizes that follow the mix of full segments and ACKs, and upload bursts a dashboard sees.
 * Sources: the peak hours are Ofcom's and the ONS's (UK fixed broadband busiest 20:00-23:00, quietest before
 * dawn); packet sizes are bimodal (CAIDA; Sinha et al., 2007) with an ACK every second full segment (RFC 1122
 * §4.2.3.2). The expected figures are worked out by hand from the shipped `small` profile where they are used.
 */
import { describe, expect, it } from "vitest";
import { inUploadBurst } from "../../simulator/traffic.ts";
import type { Gateway } from "../../simulator/index.ts";
import { allSessions, gateway, profile } from "./helpers.ts";

/** A day on `small` from midnight local (UTC+1): every port rate at every 10 s step, by local hour. */
function day(): { g: Gateway; rx: number[][]; tx: number[][] } {
  const g = gateway(profile(), 301, 0);
  // START is 12:00 UTC: run on to 23:00 UTC, midnight local, and an hour more to be past the bring-up.
  g.step(12 * 3600);
  const rx: number[][] = Array.from({ length: 24 }, () => []);
  const tx: number[][] = Array.from({ length: 24 }, () => []);
  for (let k = 0; k < 24 * 360; k++) {
    g.step(10);
    const hour = (new Date(g.nowMs - 10_000).getUTCHours() + 1) % 24;
    const ports = g.portRates();
    rx[hour]!.push(ports.reduce((a, p) => a + p.rxBps, 0));
    tx[hour]!.push(ports.reduce((a, p) => a + p.txBps, 0));
  }
  return { g, rx, tx };
}

const mean = (a: number[]) => a.reduce((x, y) => x + y, 0) / a.length;
const quantile = (a: number[], q: number) => [...a].sort((x, y) => x - y)[Math.floor(q * (a.length - 1))]!;

describe("a day of traffic on the small profile", () => {
  const { g, rx, tx } = day();
  const byHour = tx.map(mean);

  it("peaks between 20:00 and 23:00 local and is quietest before dawn", () => {
    const order = byHour.map((v, h) => [v, h] as const).sort((a, b) => b[0] - a[0]);
    expect(
      order
        .slice(0, 3)
        .map(([, h]) => h)
        .sort(),
    ).toEqual([20, 21, 22]);
    const quietest = order.at(-1)![1];
    expect(quietest).toBeGreaterThanOrEqual(2);
    expect(quietest).toBeLessThanOrEqual(5);
    // The curve's hourly means by hand, (c[h] + c[h+1]) / 2: 21:00-22:00 is 1.0, 04:00-05:00 is 0.145, 6.9 to 1.
    expect(byHour[21]! / byHour[4]!).toBeGreaterThan(6.9 * 0.85);
    expect(byHour[21]! / byHour[4]!).toBeLessThan(6.9 * 1.15);
  });

  it("gives each subscriber its own down:up ratio: a spread of about six to one across the middle 80 %", () => {
    const ratios: number[] = [];
    for (const s of allSessions(g)) {
      const d = g.sessions.detail(s.id);
      if (!d.ok || d.session.counters.rxBytes < 1e6 || d.session.uptimeSeconds < 12 * 3600) continue;
      ratios.push(d.session.counters.txBytes / d.session.counters.rxBytes);
    }
    // By hand: upload = download × r, r log-normal (median 0.07, σ 0.9), plus ACKs of about 0.018 of the download
    // (an ACK of 52 bytes per two segments, 79 % full ones of a 1,157-byte mean). The 90th percentile of the
    // ratio is the 10th of r, 0.07 × e^(−1.2816 × 0.9) = 0.022: 1 / (0.022 + 0.018) = 25; the 10th is at most
    // 1 / (0.222 + 0.018) = 4.2 (the 90th of r), lower still with upload bursts.
    expect(quantile(ratios, 0.9)).toBeGreaterThan(25 * 0.8);
    expect(quantile(ratios, 0.9)).toBeLessThan(25 * 1.2);
    expect(quantile(ratios, 0.1)).toBeLessThan(4.2);
    // The port's own ratio moves over the day too, lowest at night when bursts weigh most.
    const portRatio = byHour.map((t, h) => t / mean(rx[h]!));
    expect(Math.max(...portRatio) / Math.min(...portRatio)).toBeGreaterThan(1.15);
  });

  it("sizes packets as the mix makes them: downloads near full segments, a downloader's upstream mostly ACKs", () => {
    const up: number[] = [];
    const down: number[] = [];
    for (const s of allSessions(g)) {
      const d = g.sessions.detail(s.id);
      if (!d.ok || d.session.counters.rxPackets < 10_000) continue;
      up.push(d.session.counters.rxBytes / d.session.counters.rxPackets);
      down.push(d.session.counters.txBytes / d.session.counters.txPackets);
    }
    // By hand (per byte of download, 79 % full segments of 1,500 B, the rest 200 B: 1,157 B on average):
    // r = 0.022 (10th percentile) gives (0.022 + 0.0176) / (0.022 / 1500 + 0.000339) = 112 B upstream, r = 0.222
    // (90th) 492 B. Downstream between 0.6 × 1500 + 0.4 × 200 = 980 B and 0.97 × 1500 + 0.03 × 200 = 1,461 B, less
    // the ACKs of uploads: at r = 0.222 and 980 B, (1 + 0.00385) / (1 / 980 + 0.222 / 1500 / 2) = 917 B.
    expect(quantile(up, 0.1)).toBeLessThan(150);
    expect(quantile(up, 0.9)).toBeGreaterThan(400);
    expect(quantile(down, 0.05)).toBeGreaterThan(917);
    expect(quantile(down, 0.95)).toBeLessThan(1461);
    expect(new Set(up.map(Math.round)).size).toBeGreaterThan(up.length / 4);
  });

  it("shows upload bursts on the port's upstream: a minute's spike well over the hour's median at night", () => {
    // At night the upstream is light; one subscriber's burst at 90 % of a 20-200 Mb/s upload stands out.
    for (const h of [1, 2, 3, 4]) expect(Math.max(...rx[h]!) / quantile(rx[h]!, 0.5), `${h}:00`).toBeGreaterThan(1.3);
  });
});

describe("upload bursts", () => {
  it("keep a subscriber bursting 0.30 a day × 3.9 min on average: 0.081 % of the time", () => {
    // By hand: a log-uniform burst of 1-10 min lasts (10 − 1) / ln 10 = 3.909 min; 0.3 a day of them is
    // 0.3 × 3.909 / 1440 = 0.000814 of the time.
    const b = { perDay: 0.3, minMinutes: 1, maxMinutes: 10 };
    let bursting = 0;
    const samples = 2_000_000;
    for (let i = 0; i < samples; i++) {
      if (inUploadBurst(7, i % 5000, Date.UTC(2026, 0, 1) + (i / 5000) * 37_000, b)) bursting++;
    }
    // Binomial: 1,628 expected, σ = 40 (the draws of one subscriber are not independent: allow 5σ).
    expect(Math.abs(bursting - samples * 0.000814)).toBeLessThan(5 * Math.sqrt(samples * 0.000814));
  });
});
