/**
 * Allocation artifacts an engineer would call fake (issue #52 item 7): an IPv4 pool's addresses spread over the
 * pool as ISC Kea's random allocator spreads them (no first /24 or CGN bypass range filled first, subnets filling
 * together); CPE MAC vendors in the shares the profile gives (identities.macOuiWeights), not an even split.
 */
import { describe, expect, it } from "vitest";
import { allAllocations, allSessions, gateway, profile } from "./helpers.ts";

describe("IPv4 address allocation", () => {
  const g = gateway(profile(), 72, 3600);

  it("puts CGN-VRF subscribers in the bypass /24 in its share of the pool, not first", () => {
    const inside = allSessions(g, { vrf: "cgn-inside" }).filter((s) => s.encap !== "pppoe-lac");
    expect(inside.length).toBeGreaterThan(300);
    // By hand: cgn-inside-v4 is 100.64.0.0/20 less 100.64.0.0/24, 3,840 addresses; the bypass 100.64.1.0/24 holds
    // 256 of them, 6.7 %. Spread over the pool, its share of n subscribers is 6.7 % within binomial noise (4σ).
    const p = 256 / 3840;
    const share = inside.filter((s) => s.ipv4.startsWith("100.64.1.")).length / inside.length;
    expect(Math.abs(share - p)).toBeLessThan(4 * Math.sqrt((p * (1 - p)) / inside.length));
    // Every /24 of the pool is in use, not the first few.
    const used = new Set(inside.map((s) => s.ipv4.split(".")[2]));
    expect(used.size).toBe(15);
  });

  it("fills a pool's subnets together: each within a few points of the pool's utilisation", () => {
    // residential-v4 on small: 198.18.0.0/22 (1,024 less one excluded) and 198.18.4.0/23 (512 less one).
    const pool = g.pools.list().find((x) => x.name === "residential-v4")!;
    const dynamic = allAllocations(g, "residential-v4").filter((a) => a.kind === "dynamic");
    const inFirst = dynamic.filter(
      (a) =>
        a.prefix.startsWith("198.18.0.") ||
        a.prefix.startsWith("198.18.1.") ||
        a.prefix.startsWith("198.18.2.") ||
        a.prefix.startsWith("198.18.3."),
    ).length;
    const inSecond = dynamic.length - inFirst;
    expect(dynamic.length).toBeGreaterThan(200);
    // Least utilised first: the two subnets' utilisations differ by at most one block's worth of either.
    expect(Math.abs(inFirst / 1023 - inSecond / 511)).toBeLessThan(0.02 + 2 / 511);
    expect(pool.used).toBeGreaterThanOrEqual(dynamic.length);
  });
});

describe("subscribers' CPE vendors", () => {
  it("split as the profile's weights say, 55/25/12/8 on small, within binomial noise", () => {
    const g = gateway(profile(), 71, 1800);
    const macs = allSessions(g)
      .map((s) => s.mac)
      .filter((m) => m !== "");
    expect(macs.length).toBeGreaterThan(1500);
    // By hand: the weights of small.json; a share's binomial σ is sqrt(p(1 − p) / n), at most 0.0129 for n = 1,500.
    const weights: Record<string, number> = { "00:1b:21": 0.55, "3c:37:86": 0.25, "a4:91:b1": 0.12, "f0:9f:c2": 0.08 };
    for (const [oui, p] of Object.entries(weights)) {
      const share = macs.filter((m) => m.startsWith(oui)).length / macs.length;
      expect(Math.abs(share - p), oui).toBeLessThan(4 * Math.sqrt((p * (1 - p)) / macs.length));
    }
    expect(macs.every((m) => Object.keys(weights).some((oui) => m.startsWith(oui)))).toBe(true);
  });
});
