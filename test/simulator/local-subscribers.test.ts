import { describe, expect, it } from "vitest";
import { Gateway, LOCAL_RETRY_MS, type LocalSubscriber } from "../../simulator/index.ts";
import { allAllocations, allSessions, expectConsistent, gateway, observe, profile, restore } from "./helpers.ts";

const base = { framedIp: null, framedIpv6: null, ipv6Pd: null, plan: null, downloadKbps: 0, uploadKbps: 0 } as const;

/**
 * An IPoE subscriber in pools (static IPv4, WAN and PD), one dynamic behind CGN, PPPoE ones outside every pool and in a
 * VRF the profile lacks.
 */
const LOCALS: LocalSubscriber[] = [
  {
    ...base,
    kind: "ipoe",
    key: "1:3000:7",
    username: "circuit-7",
    vrf: "default",
    framedIp: "198.18.5.20",
    framedIpv6: "2001:db8:100:ff00::1",
    ipv6Pd: "2001:db8:400f:ff00::/56",
    plan: "fibre-100",
    line: { portId: 1, svlan: 3000, cvlan: 7 },
  },
  {
    ...base,
    kind: "ipoe",
    key: "2:3000:8",
    username: "local-ipoe-2-3000-8",
    vrf: "cgn-inside",
    downloadKbps: 50_000,
    uploadKbps: 10_000,
    line: { portId: 2, svlan: 3000, cvlan: 8 },
  },
  {
    ...base,
    kind: "pppoe",
    key: "alice@corp.example",
    username: "alice@corp.example",
    vrf: "default",
    framedIp: "203.0.113.10",
    framedIpv6: "2001:db8:ffff::1",
    plan: "fibre-300",
    line: null,
  },
  {
    ...base,
    kind: "pppoe",
    key: "bob@corp.example",
    username: "bob@corp.example",
    vrf: "corp",
    framedIp: "10.99.0.1",
    downloadKbps: 1000,
    uploadKbps: 1000,
    line: null,
  },
];

const sessionOf = (g: Gateway, kind: LocalSubscriber["kind"], key: string) => {
  const r = g.localSubscribers.session(kind, key);
  if (!r.ok) throw new Error(`${kind}/${key}: ${r.reason}`);
  return r.session;
};

describe("local subscribers", () => {
  describe("in the sessions list", () => {
    // Generated usernames are matched from their template; a local subscriber's by its configured text, through every
    // path the filter takes.
    it.each(["corp.example", "ALICE@", "7", "circuit-7", "3000-8", "sub0", "isp.example", "@"])(
      "finds username needle %j as a text search of the rows does",
      (needle) => {
        const g = gateway(profile(), 44, 600);
        g.setLocalSubscribers(LOCALS);
        g.step(10);
        const expected = allSessions(g)
          .filter((s) => s.username.toLowerCase().includes(needle.toLowerCase()))
          .map((s) => s.id);
        expect(allSessions(g, { username: needle }).map((s) => s.id)).toEqual(expected);
        if (needle === "corp.example") expect(expected).toHaveLength(2);
      },
    );

    it.each(["198.18.5.20", "203.0.113.0/24", "10.99.", "2001:db8:ffff::/48", "2001:db8:f", "2001:db8:100:ff00::/64"])(
      "finds ip %j for local subscribers' addresses inside and outside the pools",
      (ip) => {
        const g = gateway(profile(), 45, 600);
        g.setLocalSubscribers(LOCALS);
        g.step(10);
        const locals = new Set(g.localSubscribers.list().flatMap((s) => (s.sessionId === null ? [] : [s.sessionId])));
        const found = allSessions(g, { ip })
          .map((s) => s.id)
          .filter((id) => locals.has(id));
        expect(found.length).toBeGreaterThan(0);
      },
    );
  });

  describe("bring-up", () => {
    it("brings every configured subscriber up at the next sub-step, through local AAA", () => {
      const g = gateway(profile(), 41, 600);
      // A generated subscriber holding the configured 198.18.5.20 (addresses spread over the pool) goes down for it.
      const taken = allAllocations(g, "residential-v4").some((a) => a.prefix === "198.18.5.20" && a.kind === "dynamic");
      const report = g.setLocalSubscribers(LOCALS);
      expect(report).toEqual({ installed: 4, added: 4, changed: 0, removed: 0, disconnected: taken ? 1 : 0 });
      expect(g.localSubscribers.list().every((s) => s.sessionId === null)).toBe(true);
      g.step(10);
      const statuses = g.localSubscribers.list();
      expect(statuses.map((s) => [s.kind, s.key])).toEqual([
        ["ipoe", "1:3000:7"],
        ["ipoe", "2:3000:8"],
        ["pppoe", "alice@corp.example"],
        ["pppoe", "bob@corp.example"],
      ]);
      expect(statuses.every((s) => s.sessionId !== null)).toBe(true);
      for (const l of LOCALS) {
        const d = sessionOf(g, l.kind, l.key);
        expect(d.aaa).toEqual({ method: "local", server: null });
        expect(d.username).toBe(l.username);
        expect(d.encap).toBe(l.kind === "ipoe" ? "ipoe" : "pppoe-local");
        expect(d.vrf).toBe(l.vrf);
      }
      expect(g.logs.tail({ count: 1000 }).entries.find((e) => e.msgId === "aaa.local.table")?.fields).toMatchObject({
        installed: 4,
        added: 4,
      });
    });

    it("gives an IPoE subscriber its line, addresses and plan", () => {
      const g = gateway(profile(), 42, 60);
      g.setLocalSubscribers(LOCALS);
      g.step(10);
      const d = sessionOf(g, "ipoe", "1:3000:7");
      expect(d).toMatchObject({
        portId: 1,
        svlan: 3000,
        vlan: 7,
        ipv4: "198.18.5.20",
        ipv6: "2001:db8:100:ff00::/64",
        plan: "fibre-100",
        realm: "",
      });
      expect(d.addresses.ipv4).toEqual({
        address: "198.18.5.20",
        pool: "residential-v4",
        subnet: "198.18.4.0/23",
        cgnTranslated: false,
        learned: false,
      });
      expect(d.addresses.ipv6Wan).toEqual({
        prefix: "2001:db8:100:ff00::/64",
        pool: "residential-v6-wan",
        subnet: "2001:db8:100::/48",
      });
      expect(d.addresses.ipv6Pd).toEqual({
        prefix: "2001:db8:400f:ff00::/56",
        pool: "residential-v6-pd",
        subnet: "2001:db8:4000::/44",
      });
      expect(d.planRates).toEqual({ downloadKbps: 100_000, uploadKbps: 20_000 });
      expect(d.mac).toMatch(/^02:/);
      expect(d.leaseExpiresUtc).not.toBeNull();
    });

    it("gives a subscriber without an address a dynamic one from its VRF's pool, translated by CGN", () => {
      const g = gateway(profile(), 43, 60);
      g.setLocalSubscribers(LOCALS);
      g.step(10);
      const d = sessionOf(g, "ipoe", "2:3000:8");
      expect(d.addresses.ipv4.pool).toBe("cgn-inside-v4");
      // Translated, unless the address falls in the group's bypass prefix (100.64.1.0/24), which CGN leaves alone.
      expect(d.cgn?.sessionId).toBe(d.ipv4.startsWith("100.64.1.") ? undefined : d.id);
      expect(d.plan).toBe("local");
      expect(d.planRates).toEqual({ downloadKbps: 50_000, uploadKbps: 10_000 });
      const dynamic = allAllocations(g, "cgn-inside-v4").find((a) => a.prefix === d.ipv4);
      expect(dynamic).toMatchObject({ kind: "dynamic", sessionId: d.id, static: false });
    });

    it("uses addresses outside every pool as configured, and learns a VRF the profile lacks", () => {
      const g = gateway(profile(), 44, 60);
      g.setLocalSubscribers(LOCALS);
      g.step(10);
      const alice = sessionOf(g, "pppoe", "alice@corp.example");
      expect(alice).toMatchObject({
        ipv4: "203.0.113.10",
        ipv6: "2001:db8:ffff::1",
        realm: "corp.example",
        plan: "fibre-300",
        portId: expect.any(Number),
      });
      expect(alice.addresses.ipv4).toEqual({
        address: "203.0.113.10",
        pool: null,
        subnet: null,
        cgnTranslated: false,
        learned: false,
      });
      expect(alice.addresses.ipv6Wan).toEqual({ prefix: "2001:db8:ffff::1", pool: null, subnet: null });
      const bob = sessionOf(g, "pppoe", "bob@corp.example");
      expect(bob.vrf).toBe("corp");
      expect(g.sessions.summary().byVrf.corp).toBe(1);
      expect(g.sessions.list({ vrf: "CORP" }).items.map((s) => s.username)).toEqual(["bob@corp.example"]);
      expect(g.sessions.list({ ip: "2001:db8:ffff::/48" }).items.map((s) => s.username)).toEqual([
        "alice@corp.example",
      ]);
      expect(g.sessions.list({ ip: "203.0.113.10" }).items.map((s) => s.username)).toEqual(["alice@corp.example"]);
    });

    it("shapes traffic to the configured rates", () => {
      const g = gateway(profile(), 45, 60);
      g.setLocalSubscribers([{ ...LOCALS[3]!, downloadKbps: 1, uploadKbps: 1 }]);
      g.step(600);
      const rates = g.sessions.rates(sessionOf(g, "pppoe", "bob@corp.example").id);
      if (!rates.ok) throw new Error(rates.reason);
      expect(rates.rates.txBps).toBeLessThanOrEqual(1000);
      expect(rates.rates.rxBps).toBeLessThanOrEqual(1000);
    });

    it("reconnects a subscriber whose session was disconnected", () => {
      const g = gateway(profile(), 46, 60);
      g.setLocalSubscribers(LOCALS);
      g.step(10);
      const first = sessionOf(g, "pppoe", "alice@corp.example").id;
      g.disconnect(first);
      expect(g.localSubscribers.session("pppoe", "alice@corp.example")).toEqual({ ok: false, reason: "offline" });
      g.step(10);
      expect(sessionOf(g, "pppoe", "alice@corp.example").id).toBeGreaterThan(first);
    });

    it("answers unknown-subscriber for a kind and key that are not installed", () => {
      const g = gateway(profile(), 47, 0);
      g.setLocalSubscribers(LOCALS);
      expect(g.localSubscribers.session("pppoe", "1:3000:7")).toEqual({ ok: false, reason: "unknown-subscriber" });
    });
  });

  describe("static allocations", () => {
    it("holds a configured address inside a pool from installation, and names the live session once up", () => {
      const g = gateway(profile(), 51, 600);
      const usedBefore = g.pools.list().find((p) => p.name === "residential-v4")!.used;
      // A generated subscriber may hold the configured address already (addresses spread over the pool): it goes down.
      const taken = allAllocations(g, "residential-v4").some((a) => a.prefix === "198.18.5.20");
      const report = g.setLocalSubscribers(LOCALS);
      expect(report.disconnected).toBe(taken ? 1 : 0);
      expect(g.pools.list().find((p) => p.name === "residential-v4")!.used).toBe(usedBefore + (taken ? 0 : 1));
      const held = () => allAllocations(g, "residential-v4").find((a) => a.prefix === "198.18.5.20");
      expect(held()).toEqual({
        prefix: "198.18.5.20",
        kind: "static",
        sessionId: 0,
        username: "circuit-7",
        vrf: "default",
        static: true,
      });
      g.step(10);
      expect(held()).toMatchObject({ kind: "static", static: true, sessionId: sessionOf(g, "ipoe", "1:3000:7").id });
      expect(allAllocations(g, "residential-v6-pd").find((a) => a.prefix === "2001:db8:400f:ff00::/56")).toMatchObject({
        kind: "static",
        username: "circuit-7",
      });
      expectConsistent(g);
    });

    it("takes a block a dynamic session holds, disconnecting that session", () => {
      const g = gateway(profile(), 52, 900);
      const victim = allSessions(g).find((s) => s.vrf === "default" && s.ipv4.startsWith("198.18."))!;
      g.setLocalSubscribers([{ ...LOCALS[0]!, framedIp: victim.ipv4 }]);
      expect(g.sessions.detail(victim.id)).toEqual({ ok: false, reason: "unknown-session" });
      const down = g.logs
        .tail({ count: 1000 })
        .entries.find((e) => e.msgId === "session.down" && e.fields.sessionId === victim.id);
      expect(down?.fields.cause).toBe("static-address-claimed");
      g.step(10);
      expect(sessionOf(g, "ipoe", "1:3000:7").ipv4).toBe(victim.ipv4);
      expectConsistent(g);
    });

    it("never hands a claimed block out dynamically", () => {
      const g = gateway(profile(), 53, 0);
      g.setLocalSubscribers([{ ...LOCALS[0]!, framedIp: "198.18.0.2" }]);
      g.step(3600);
      const holders = allAllocations(g, "residential-v4").filter((a) => a.prefix === "198.18.0.2");
      expect(holders).toHaveLength(1);
      expect(holders[0]).toMatchObject({ kind: "static", username: "circuit-7" });
      expectConsistent(g, { justStepped: true });
    });
  });

  describe("changes and removal", () => {
    it("disconnects a removed subscriber and frees what it held", () => {
      const g = gateway(profile(), 61, 600);
      g.setLocalSubscribers(LOCALS);
      g.step(10);
      const id = sessionOf(g, "ipoe", "1:3000:7").id;
      const used = g.pools.list().find((p) => p.name === "residential-v4")!.used;
      const report = g.setLocalSubscribers(LOCALS.slice(1));
      expect(report).toEqual({ installed: 3, added: 0, changed: 0, removed: 1, disconnected: 1 });
      expect(g.sessions.detail(id)).toEqual({ ok: false, reason: "unknown-session" });
      expect(g.pools.list().find((p) => p.name === "residential-v4")!.used).toBe(used - 1);
      expect(allAllocations(g, "residential-v4").some((a) => a.prefix === "198.18.5.20")).toBe(false);
      expect(allAllocations(g, "residential-v6-pd").some((a) => a.prefix === "2001:db8:400f:ff00::/56")).toBe(false);
      const down = g.logs
        .tail({ count: 1000 })
        .entries.find((e) => e.msgId === "session.down" && e.fields.sessionId === id);
      expect(down?.fields.cause).toBe("local-subscriber-removed");
      expect(g.localSubscribers.session("ipoe", "1:3000:7")).toEqual({ ok: false, reason: "unknown-subscriber" });
      expectConsistent(g);
    });

    it("keeps an unchanged subscriber's session and reconnects a changed one with its new attributes", () => {
      const g = gateway(profile(), 62, 60);
      g.setLocalSubscribers(LOCALS);
      g.step(10);
      const kept = sessionOf(g, "pppoe", "alice@corp.example").id;
      const changed = sessionOf(g, "ipoe", "1:3000:7").id;
      const report = g.setLocalSubscribers(
        LOCALS.map((l) => (l.key === "1:3000:7" ? { ...l, framedIp: "198.18.5.21" } : l)),
      );
      expect(report).toMatchObject({ added: 0, changed: 1, removed: 0, disconnected: 1 });
      expect(sessionOf(g, "pppoe", "alice@corp.example").id).toBe(kept);
      expect(g.sessions.detail(changed).ok).toBe(false);
      expect(allAllocations(g, "residential-v4").some((a) => a.prefix === "198.18.5.20")).toBe(false);
      g.step(10);
      expect(sessionOf(g, "ipoe", "1:3000:7").ipv4).toBe("198.18.5.21");
    });

    it("is a no-op when the same table is installed again", () => {
      const g = gateway(profile(), 63, 60);
      g.setLocalSubscribers(LOCALS);
      g.step(10);
      const before = observe(g);
      expect(g.setLocalSubscribers([...LOCALS].reverse())).toEqual({
        installed: 4,
        added: 0,
        changed: 0,
        removed: 0,
        disconnected: 0,
      });
      expect(observe(g)).toBe(before);
    });
  });

  describe("subscribers that cannot come up", () => {
    it("retry once a minute, logging why", () => {
      const g = gateway(profile(), 71, 0);
      // 198.18.0.10 is the profile's static address of noc-probe@isp.example.
      g.setLocalSubscribers([
        { ...LOCALS[0]!, framedIp: "198.18.0.10" },
        { ...LOCALS[1]!, line: { portId: 9, svlan: 3000, cvlan: 8 } },
      ]);
      g.step(300);
      expect(g.localSubscribers.list().map((s) => s.sessionId)).toEqual([null, null]);
      const failures = g.logs
        .tail({ count: 1000 })
        .entries.filter(
          (e) =>
            e.msgId === "session.setup-failed" &&
            (e.fields.username === "circuit-7" || e.fields.username === "local-ipoe-2-3000-8"),
        );
      expect(failures.filter((e) => e.fields.reason === "address-refused")).toHaveLength(300_000 / LOCAL_RETRY_MS);
      expect(failures.filter((e) => e.fields.reason === "unknown-port")).toHaveLength(300_000 / LOCAL_RETRY_MS);
    });
  });

  describe("the model as a whole", () => {
    it("stays consistent across endpoints through churn, faults and table changes", () => {
      const g = gateway(profile(), 81, 600);
      g.setLocalSubscribers(LOCALS);
      g.scenario({ action: "set-churn-multiplier", multiplier: 20 });
      g.step(1200);
      expectConsistent(g, { justStepped: true });
      g.scenario({ action: "disconnect-sessions", share: 0.5, filter: {} });
      g.scenario({ action: "fill-pool", pool: "residential-v4", percent: 100 });
      g.setLocalSubscribers([...LOCALS.slice(1), { ...LOCALS[0]!, framedIp: "198.18.5.200" }]);
      expectConsistent(g);
      g.step(1200);
      expectConsistent(g, { justStepped: true });
      g.scenario({ action: "drain-pool", pool: "residential-v4" });
      g.setLocalSubscribers([]);
      g.step(600);
      expectConsistent(g, { justStepped: true, noReservations: true });
      expect(g.localSubscribers.list()).toEqual([]);
    });

    it("is deterministic: the same seed, table and calls give the same state", () => {
      const run = () => {
        const g = gateway(profile(), 82, 300);
        g.setLocalSubscribers(LOCALS);
        g.step(1800);
        g.setLocalSubscribers(LOCALS.slice(2));
        g.step(600);
        return observe(g);
      };
      expect(run()).toBe(run());
    });

    it("leaves the model untouched when the table is empty", () => {
      const a = gateway(profile(), 83, 300);
      const b = gateway(profile(), 83, 300);
      b.setLocalSubscribers([]);
      a.step(1800);
      b.step(1800);
      expect(observe(b)).toBe(observe(a));
    });

    it("restores exactly from a snapshot, claimed blocks, learnt VRFs and live sessions included", () => {
      const original = gateway(profile(), 84, 600);
      original.setLocalSubscribers(LOCALS);
      // Restored once before the subscribers connected and once after.
      const early = restore(original);
      original.step(10);
      const late = restore(original);
      early.step(10);
      for (const g of [original, early, late]) {
        g.step(1800);
        g.setLocalSubscribers(LOCALS.slice(1));
        g.step(600);
      }
      expect(observe(late)).toBe(observe(original));
      expect(observe(early)).toBe(observe(original));
      expect(late.localSubscribers.list()).toEqual(original.localSubscribers.list());
      expect(allAllocations(late, "residential-v4")).toEqual(allAllocations(original, "residential-v4"));
      expect(late.sessions.summary().byVrf.corp).toBe(1);
      expectConsistent(late, { justStepped: true });
    });

    it("installs the table again after a reseed", () => {
      const g = gateway(profile(), 85, 600);
      g.setLocalSubscribers(LOCALS);
      g.step(10);
      g.scenario({ action: "reseed", seed: 9 });
      expect(g.localSubscribers.list().map((s) => s.sessionId)).toEqual([null, null, null, null]);
      expect(allAllocations(g, "residential-v4").find((a) => a.prefix === "198.18.5.20")?.kind).toBe("static");
      g.step(10);
      expect(g.localSubscribers.list().every((s) => s.sessionId !== null)).toBe(true);
      expectConsistent(g, { justStepped: true });
    });
  });
});
