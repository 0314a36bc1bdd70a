/**
 * What a LAC and an LNS know of a session (issue #52): a LAC forwards the subscriber's PPP into an L2TP tunnel,
 * and the LNS at the far end authenticates it and assigns its addresses (IPCP, RFC 1332; RFC 2661 §1.1), so a
 * LAC session holds no local pool block, counts in no pool, and shows the IPv4 address it learned from IPCP;
 * an LNS hears the subscriber only through the tunnel: no MAC, no access VLANs, no port.
 */
import { describe, expect, it } from "vitest";
import { allAllocations, allSessions, gateway, profile } from "./helpers.ts";

describe("a LAC and an LNS", () => {
  const g = gateway(profile(), 61, 3600);
  const sessions = allSessions(g);
  const lac = sessions.filter((s) => s.encap === "pppoe-lac");
  const lns = sessions.filter((s) => s.encap === "l2tp");

  it("LAC sessions show the address their LNS gave, learned, from the partners' space and no local pool", () => {
    expect(lac.length).toBeGreaterThan(50);
    for (const s of lac) {
      const d = g.sessions.detail(s.id);
      if (!d.ok) throw new Error(`session ${s.id}`);
      expect(d.session.addresses).toEqual({
        ipv4: { address: s.ipv4, pool: null, subnet: null, cgnTranslated: false, learned: true },
        ipv6Wan: null,
        ipv6Pd: null,
      });
      // 10.192.0.0/10 (docs/simulation.md): the first two octets 10 and 192-255.
      const [a, b] = s.ipv4.split(".").map(Number);
      expect(a).toBe(10);
      expect(b).toBeGreaterThanOrEqual(192);
      expect(s.ipv6).toBe("");
      expect(d.session.cgn).toBeNull();
    }
    expect(new Set(lac.map((s) => s.ipv4)).size).toBe(lac.length);
  });

  it("count only LNS-terminated sessions in the wholesale pool", () => {
    const holders = allAllocations(g, "wholesale-v4").filter((x) => x.kind === "dynamic");
    expect(holders.length).toBe(lns.filter((s) => s.vrf === "wholesale").length);
    const pool = g.pools.list().find((p) => p.name === "wholesale-v4")!;
    expect(pool.used).toBeLessThan(lac.length + lns.length);
  });

  it("finds a LAC session by the address it learned", () => {
    const s = lac[0]!;
    expect(g.sessions.list({ ip: s.ipv4 }).items.map((x) => x.id)).toContain(s.id);
    expect(g.sessions.list({ ip: `${s.ipv4}/32` }).items.map((x) => x.id)).toContain(s.id);
  });

  it("LNS sessions show no subscriber MAC, no access VLANs and no port", () => {
    expect(lns.length).toBeGreaterThan(20);
    for (const s of lns) expect(s).toMatchObject({ mac: "", svlan: 0, vlan: 0, portId: null });
    expect(sessions.filter((s) => s.encap !== "l2tp").every((s) => /^([0-9a-f]{2}:){5}[0-9a-f]{2}$/.test(s.mac))).toBe(
      true,
    );
  });
});
