import { describe, expect, it } from "vitest";
import type { PoolConfig } from "../../simulator/index.ts";
import { AddressPool } from "../../simulator/pools.ts";
import { START, allAllocations, gateway, profile } from "./helpers.ts";

function pool(config: Partial<PoolConfig> & Pick<PoolConfig, "family" | "delegationLength" | "subnets">): AddressPool {
  return new AddressPool({ name: "p", vrf: null, description: "", exclude: [], static: [], ...config }, 0, false);
}

const holder = (slot: number) => ({ sessionId: slot + 1000, username: `user${slot}`, vrf: "default" });

/** Allocates and commits n blocks to slots 0..n-1. */
function fill(p: AddressPool, n: number): { subnet: number; ordinal: number }[] {
  const got: { subnet: number; ordinal: number }[] = [];
  for (let i = 0; i < n; i++) {
    const o = p.offer();
    if (!o.ok) throw new Error(o.reason);
    p.commit(o.subnet, o.ordinal, i);
    got.push(o);
  }
  return got;
}

describe("address pools", () => {
  it("sizes an IPv4 pool without its excluded addresses and never hands them out", () => {
    const p = pool({
      family: "ipv4",
      delegationLength: 32,
      subnets: [{ prefix: "192.0.2.0/28", announce: true }],
      exclude: ["192.0.2.0/31", "192.0.2.15/32"],
    });
    expect(p.size).toBe(13);
    fill(p, 13);
    expect(p.offer()).toEqual({ ok: false, reason: "pool-exhausted" });
    const handed = p.allocations(0, 100, holder).items.map((a) => a.prefix);
    expect(handed).toHaveLength(13);
    for (const excluded of ["192.0.2.0", "192.0.2.1", "192.0.2.15"]) expect(handed).not.toContain(excluded);
    expect(handed[0]).toBe("192.0.2.2");
  });

  it("allocates /64 WAN prefixes and /56 delegations with real IPv6 arithmetic", () => {
    const wan = pool({
      family: "ipv6-wan",
      delegationLength: 64,
      subnets: [{ prefix: "2001:db8:100::/48", announce: true }],
      exclude: ["2001:db8:100::/63"],
    });
    expect(wan.size).toBe(65_536 - 2);
    fill(wan, 3);
    expect(wan.allocations(0, 10, holder).items.map((a) => a.prefix)).toEqual([
      "2001:db8:100:2::/64",
      "2001:db8:100:3::/64",
      "2001:db8:100:4::/64",
    ]);
    const pd = pool({
      family: "ipv6-pd",
      delegationLength: 56,
      subnets: [{ prefix: "2001:db8:4000::/36", announce: true }],
    });
    expect(pd.size).toBe(2 ** 20);
    fill(pd, 2);
    expect(pd.allocations(0, 10, holder).items.map((a) => a.prefix)).toEqual([
      "2001:db8:4000::/56",
      "2001:db8:4000:100::/56",
    ]);
  });

  it("writes a block's prefix from the block number wherever its bits fall among the address's groups", () => {
    // Hand-worked: 2001:db8:0:10::/60 in /68 blocks; block 0x2b puts 0x2 in the fourth group's low bits and 0xb at the
    // top of the fifth.
    const straddling = pool({
      family: "ipv6-pd",
      delegationLength: 68,
      subnets: [{ prefix: "2001:db8:0:10::/60", announce: true }],
    });
    expect(straddling.text(0, 0x2b)).toBe("2001:db8:0:12:b000::/68");
    expect(straddling.text(0, 0xff)).toBe("2001:db8:0:1f:f000::/68");
    // 2001:d00::/24 in /64 blocks holds 2^40: block numbers past 2^32 span three groups (0x2001_0d00_0000_0000 +
    // 0x12_3456_789a).
    const wide = pool({
      family: "ipv6-pd",
      delegationLength: 64,
      subnets: [{ prefix: "2001:d00::/24", announce: true }],
    });
    expect(wide.text(0, 0x12_3456_789a)).toBe("2001:d12:3456:789a::/64");
    expect(wide.text(0, 2 ** 40 - 1)).toBe("2001:dff:ffff:ffff::/64");
    expect(wide.text(0, 1)).toBe("2001:d00:0:1::/64");
  });

  it("falls over to the next subnet in preference order and counts refusals when all are full", () => {
    const p = pool({
      family: "ipv4",
      delegationLength: 32,
      subnets: [
        { prefix: "192.0.2.8/30", announce: true },
        { prefix: "192.0.2.0/30", announce: true },
      ],
    });
    fill(p, 8);
    const view = p.view();
    expect(view.subnets.map((s) => s.used)).toEqual([4, 4]);
    expect(p.offer()).toEqual({ ok: false, reason: "pool-exhausted" });
    expect(p.offer()).toEqual({ ok: false, reason: "pool-exhausted" });
    expect(p.view().allocationFailures).toBe(2);
    // Ordered by prefix, not by preference.
    expect(p.allocations(0, 100, holder).items[0]?.prefix).toBe("192.0.2.0");
  });

  it("keeps used + free = size through offers, commits, releases and expiries", () => {
    const p = pool({ family: "ipv4", delegationLength: 32, subnets: [{ prefix: "192.0.2.0/26", announce: true }] });
    const held = fill(p, 10);
    const offered = p.offer();
    if (!offered.ok) throw new Error();
    p.abandon(offered.subnet, offered.ordinal, START, 60);
    for (const h of held.slice(0, 4)) p.release(h.subnet, h.ordinal);
    const v = p.view();
    expect(v.used).toBe(7);
    expect(v.offered).toBe(1);
    expect(v.used + v.free).toBe(v.size);
    expect(p.allocations(0, 100, holder).total).toBe(v.used);
  });

  it("holds an abandoned offer until its hold lapses", () => {
    const p = pool({ family: "ipv4", delegationLength: 32, subnets: [{ prefix: "192.0.2.0/29", announce: true }] });
    const o = p.offer();
    if (!o.ok) throw new Error();
    p.abandon(o.subnet, o.ordinal, START, 60);
    p.expire(START + 50_000);
    expect(p.view().offered).toBe(1);
    p.expire(START + 60_000);
    expect(p.view().offered).toBe(0);
    expect(p.view().used).toBe(0);
  });

  it("quarantines a declined block for one hour, then returns it", () => {
    const p = pool({ family: "ipv4", delegationLength: 32, subnets: [{ prefix: "192.0.2.0/29", announce: true }] });
    const o = p.offer();
    if (!o.ok) throw new Error();
    p.decline(o.subnet, o.ordinal, START);
    expect(p.view().quarantined).toBe(1);
    expect(p.allocations(0, 10, holder).items).toEqual([
      expect.objectContaining({ prefix: "192.0.2.0", kind: "quarantined", sessionId: 0 }),
    ]);
    // The spec's Limits: "DHCP-declined block quarantine: blocks return after one hour".
    p.expire(START + 3_600_000 - 10_000);
    expect(p.view().quarantined).toBe(1);
    p.expire(START + 3_600_000);
    expect(p.view().quarantined).toBe(0);
    expect(p.view().free).toBe(p.view().size);
  });

  it("holds static allocations inside the pool and never hands them out", () => {
    const p = pool({
      family: "ipv4",
      delegationLength: 32,
      subnets: [{ prefix: "192.0.2.0/29", announce: true }],
      static: [{ prefix: "192.0.2.3/32", username: "noc@isp.example" }],
    });
    expect(p.view().used).toBe(1);
    fill(p, 7);
    const items = p.allocations(0, 100, holder).items;
    expect(items.filter((i) => i.prefix === "192.0.2.3")).toEqual([
      { prefix: "192.0.2.3", kind: "static", sessionId: 0, username: "noc@isp.example", vrf: "default", static: true },
    ]);
    expect(items).toHaveLength(8);
  });

  it("reuses the least recently released block first", () => {
    const p = pool({ family: "ipv4", delegationLength: 32, subnets: [{ prefix: "192.0.2.0/29", announce: true }] });
    const held = fill(p, 8);
    const first = p.text(held[5]?.subnet ?? 0, held[5]?.ordinal ?? 0);
    p.release(held[5]?.subnet ?? 0, held[5]?.ordinal ?? 0);
    p.release(held[2]?.subnet ?? 0, held[2]?.ordinal ?? 0);
    const next = p.offer();
    expect(next.ok && p.text(next.subnet, next.ordinal)).toBe(first);
  });

  it("pages allocations by prefix with the spec's clamp (default 100, range 1-1000)", () => {
    const g = gateway(profile(), 3, 300);
    const all = allAllocations(g, "residential-v4");
    const first = g.pools.allocations("residential-v4");
    expect(first.ok && first.page.limit).toBe(100);
    const clampedHigh = g.pools.allocations("residential-v4", { limit: 5000 });
    expect(clampedHigh.ok && clampedHigh.page.limit).toBe(1000);
    const clampedLow = g.pools.allocations("residential-v4", { limit: 0, offset: 3 });
    expect(clampedLow.ok && clampedLow.page.items).toEqual(all.slice(3, 4));
    const toNumber = (a: string) => a.split(".").reduce((n, o) => n * 256 + Number(o), 0);
    const numbers = all.map((a) => toNumber(a.prefix));
    expect([...numbers].sort((a, b) => a - b)).toEqual(numbers);
    expect(g.pools.allocations("no-such-pool")).toEqual({ ok: false, reason: "unknown-pool" });
  });
});
