import { describe, expect, it } from "vitest";
import { Gateway, type LocalSubscriber, type PoolSettings } from "../../simulator/index.ts";
import { allAllocations, allSessions, expectConsistent, gateway, observe, profile, restore } from "./helpers.ts";

const V4 = "residential-v4";
const FIRST = "198.18.0.0/22";
const SECOND = "198.18.4.0/23";
/** Each subnet's excluded gateway address. */
const GATEWAY: Record<string, string> = { [FIRST]: "198.18.0.1/32", [SECOND]: "198.18.4.1/32" };

/** A pool without one of its subnets (and the excludes inside it). */
const without = (p: PoolSettings, prefix: string): void => {
  p.subnets = p.subnets.filter((s) => s.prefix !== prefix);
  p.exclude = p.exclude.filter((e) => e !== GATEWAY[prefix]);
};

/** The running pools with one of them changed. */
function edited(g: Gateway, name: string, change: (pool: PoolSettings) => void): PoolSettings[] {
  const pools = g.poolSettings();
  const pool = pools.find((p) => p.name === name);
  if (!pool) throw new Error(`no pool ${name}`);
  change(pool);
  return pools;
}

function install(g: Gateway, pools: PoolSettings[]) {
  const r = g.setPools(pools);
  if (!r.ok) throw new Error(r.issues.join("\n"));
  return r.report;
}

const pool = (g: Gateway, name: string) => g.pools.list().find((p) => p.name === name)!;
const logged = (g: Gateway, msgId: string) => g.logs.tail({ count: 1000 }).entries.filter((e) => e.msgId === msgId);

const base = { framedIpv6: null, ipv6Pd: null, plan: "fibre-100", downloadKbps: 0, uploadKbps: 0 } as const;
/** A static IPoE subscriber in the second subnet of the residential pool, and one whose WAN and PD are static too. */
const LOCALS: LocalSubscriber[] = [
  {
    ...base,
    kind: "ipoe",
    key: "1:3000:7",
    username: "circuit-7",
    vrf: "default",
    framedIp: "198.18.5.20",
    line: { portId: 1, svlan: 3000, cvlan: 7 },
  },
  {
    ...base,
    kind: "pppoe",
    key: "carol@corp.example",
    username: "carol@corp.example",
    vrf: "default",
    framedIp: "198.18.5.21",
    framedIpv6: "2001:db8:100:ff00::1",
    ipv6Pd: "2001:db8:400f:ff00::/56",
    line: null,
  },
];

describe("pool reconfiguration", () => {
  it("changes nothing when the pools are installed as they run", () => {
    const g = gateway(profile(), 3, 900);
    const before = observe(g);
    expect(install(g, g.poolSettings())).toEqual({ pools: 7, added: [], changed: [], removed: [], disconnected: 0 });
    expect(observe(g)).toBe(before);
  });

  describe("a subnet added", () => {
    // A residential pool too small for its subscribers: setups fail for lack of addresses.
    const tight = () =>
      profile("small", (raw) => {
        raw.pools[0].subnets = [{ prefix: "198.18.0.0/24", announce: true }];
        raw.pools[0].exclude = ["198.18.0.1/32"];
      });

    it(
      "grows size and free at once, and the sessions that failed for lack of addresses " + "come up at the next steps",
      () => {
        const g = gateway(tight(), 5, 1800);
        const small = pool(g, V4);
        expect(small.free).toBe(0);
        expect(small.allocationFailures).toBeGreaterThan(0);
        const live = g.sessions.summary().total;
        const report = install(
          g,
          edited(g, V4, (p) => p.subnets.push({ prefix: "198.18.8.0/21", announce: true })),
        );
        expect(report).toMatchObject({ changed: [V4], disconnected: 0 });
        const grown = pool(g, V4);
        expect(grown.size).toBe(small.size + 2048);
        expect(grown.free).toBe(2048);
        expect(grown.used).toBe(small.used);
        expect(grown.subnets.map((s) => [s.prefix, s.size, s.used])).toEqual([
          ["198.18.0.0/24", 255, small.used],
          ["198.18.8.0/21", 2048, 0],
        ]);
        expectConsistent(g);
        const failures = grown.allocationFailures;
        g.step(600);
        const after = pool(g, V4);
        expect(after.subnets[1]!.used).toBeGreaterThan(100);
        expect(g.sessions.summary().total).toBeGreaterThan(live + 100);
        expect(after.allocationFailures).toBe(failures);
        expectConsistent(g, { justStepped: true });
        expect(logged(g, "pool.reconfigured").map((e) => e.fields)).toEqual([
          { pool: V4, change: "changed", size: 2303, subnets: 2, disconnected: 0 },
        ]);
      },
    );
  });

  describe("a subnet removed", () => {
    it("disconnects every dynamic session holding a block in it and frees what they held", () => {
      const g = gateway(profile(), 7, 1800);
      // 198.18.0.0/22: third octets 0-3.
      const inFirst = allAllocations(g, V4)
        .filter((a) => a.kind === "dynamic" && Number(a.prefix.split(".")[2]) < 4)
        .map((a) => a.sessionId);
      expect(inFirst.length).toBeGreaterThan(500);
      const keptUsed = pool(g, V4).subnets[1]!.used;
      const report = install(
        g,
        edited(g, V4, (p) => without(p, FIRST)),
      );
      expect(report.disconnected).toBe(inFirst.length);
      for (const id of inFirst) expect(g.sessions.detail(id).ok).toBe(false);
      const shrunk = pool(g, V4);
      expect(shrunk.subnets.map((s) => s.prefix)).toEqual([SECOND]);
      expect(shrunk.used).toBe(keptUsed);
      expect(
        allAllocations(g, V4).every((a) => a.prefix.startsWith("198.18.4.") || a.prefix.startsWith("198.18.5.")),
      ).toBe(true);
      // Their WAN and PD blocks went back too: no allocation without a live session.
      expectConsistent(g);
      const down = logged(g, "session.down").filter((e) => e.fields.cause === "pool-reconfigured");
      expect(down.length).toBeGreaterThan(0);
      expect(logged(g, "pool.reconfigured").at(-1)?.fields).toEqual({
        pool: V4,
        change: "changed",
        size: 511,
        subnets: 1,
        disconnected: inFirst.length,
      });
      // The subscribers reconnect from the subnet left.
      g.step(300);
      expect(pool(g, V4).used).toBeGreaterThan(400);
      expectConsistent(g, { justStepped: true });
    });

    it(
      "keeps static allocations: a local subscriber keeps its session and its address, " +
        "now outside the pools, and is held again when the subnet returns",
      () => {
        const g = gateway(profile(), 8, 600);
        g.setLocalSubscribers(LOCALS);
        g.step(10);
        const ids = LOCALS.map((l) => g.localSubscribers.session(l.kind, l.key)).map((r) => (r.ok ? r.session.id : 0));
        expect(ids.every((id) => id > 0)).toBe(true);
        const staticsOf = (name: string) => allAllocations(g, name).filter((a) => a.static);
        expect(staticsOf(V4).map((a) => [a.prefix, a.sessionId])).toEqual([
          ["198.18.0.10", 0],
          ["198.18.0.11", 0],
          ["198.18.5.20", ids[0]],
          ["198.18.5.21", ids[1]],
        ]);

        // The generated subscribers holding an address of the removed subnet go down (addresses spread over both).
        const inSecond = allAllocations(g, V4).filter(
          (a) => a.kind === "dynamic" && (a.prefix.startsWith("198.18.4.") || a.prefix.startsWith("198.18.5.")),
        );
        const report = install(
          g,
          edited(g, V4, (p) => without(p, SECOND)),
        );
        expect(report.disconnected).toBe(inSecond.length);
        const ipoe = g.localSubscribers.session("ipoe", "1:3000:7");
        expect(ipoe.ok && ipoe.session.id).toBe(ids[0]);
        expect(ipoe.ok && ipoe.session.addresses.ipv4).toMatchObject({
          address: "198.18.5.20",
          pool: null,
          subnet: null,
        });
        expect(staticsOf(V4).map((a) => a.prefix)).toEqual(["198.18.0.10", "198.18.0.11"]);
        expectConsistent(g);

        // Its WAN and PD pools lose the subnets holding its blocks: the session stays, its IPv6 as configured.
        install(
          g,
          edited(g, "residential-v6-pd", (p) => (p.subnets = [{ prefix: "2001:db8:4000::/45", announce: true }])),
        );
        const carol = g.localSubscribers.session("pppoe", "carol@corp.example");
        expect(carol.ok && carol.session.id).toBe(ids[1]);
        expect(carol.ok && carol.session.addresses.ipv6Pd).toEqual({
          prefix: "2001:db8:400f:ff00::/56",
          pool: null,
          subnet: null,
        });
        expect(carol.ok && carol.session.addresses.ipv6Wan?.pool).toBe("residential-v6-wan");
        expectConsistent(g);

        g.step(60);
        install(
          g,
          edited(g, V4, (p) => p.subnets.push({ prefix: SECOND, announce: true })),
        );
        expect(staticsOf(V4).map((a) => [a.prefix, a.sessionId])).toEqual([
          ["198.18.0.10", 0],
          ["198.18.0.11", 0],
          ["198.18.5.20", ids[0]],
          ["198.18.5.21", ids[1]],
        ]);
        const back = g.localSubscribers.session("ipoe", "1:3000:7");
        expect(back.ok && back.session.addresses.ipv4).toMatchObject({
          address: "198.18.5.20",
          pool: V4,
          subnet: SECOND,
        });
        expectConsistent(g);
        // The block is never offered to anyone else meanwhile.
        g.step(1800);
        expect(allAllocations(g, V4).filter((a) => a.prefix === "198.18.5.20")).toEqual([
          expect.objectContaining({ static: true, sessionId: ids[0] }),
        ]);
        expectConsistent(g, { justStepped: true });
      },
    );

    it("stops holding the profile's statics of the subnet, and holds them again when it returns", () => {
      const g = gateway(profile(), 9, 300);
      install(
        g,
        edited(g, V4, (p) => without(p, FIRST)),
      );
      expect(allAllocations(g, V4).filter((a) => a.static)).toEqual([]);
      install(
        g,
        edited(g, V4, (p) => p.subnets.unshift({ prefix: FIRST, announce: true })),
      );
      expect(pool(g, V4).exclude).toEqual(["198.18.4.1/32"]);
      expect(
        allAllocations(g, V4)
          .filter((a) => a.static)
          .map((a) => a.username),
      ).toEqual(["noc-probe@isp.example", "sla-monitor@isp.example"]);
      expectConsistent(g);
    });
  });

  describe("excludes", () => {
    it("disconnects a session holding a newly excluded block; the block is never handed out again", () => {
      const g = gateway(profile(), 11, 1800);
      const victim = allAllocations(g, V4).find((a) => a.kind === "dynamic")!;
      const before = pool(g, V4);
      const report = install(
        g,
        edited(g, V4, (p) => p.exclude.push(`${victim.prefix}/32`)),
      );
      expect(report.disconnected).toBe(1);
      expect(g.sessions.detail(victim.sessionId).ok).toBe(false);
      const after = pool(g, V4);
      expect(after.size).toBe(before.size - 1);
      expect(after.used).toBe(before.used - 1);
      expect(after.exclude).toContain(`${victim.prefix}/32`);
      expectConsistent(g);
      g.step(3600);
      expect(allAllocations(g, V4).some((a) => a.prefix === victim.prefix)).toBe(false);
      expectConsistent(g, { justStepped: true });
    });

    it("frees a block whose exclude is removed at once", () => {
      const g = gateway(profile(), 12, 1800);
      const before = pool(g, V4);
      install(
        g,
        edited(g, V4, (p) => (p.exclude = p.exclude.filter((e) => e !== "198.18.0.1/32"))),
      );
      const after = pool(g, V4);
      expect(after.size).toBe(before.size + 1);
      expect(after.free).toBe(before.free + 1);
      expectConsistent(g);
      // Fill the pool: the freed block is among those handed out.
      g.scenario({ action: "fill-pool", pool: V4, percent: 100 });
      expect(allAllocations(g, V4).some((a) => a.prefix === "198.18.0.1")).toBe(true);
      expectConsistent(g);
    });
  });

  describe("pools added and removed", () => {
    it("hands a new pool out for its VRF and family", () => {
      const g = gateway(profile(), 13, 1800);
      const added: PoolSettings = {
        name: "wholesale-v4-b",
        family: "ipv4",
        vrf: "wholesale",
        delegationLength: 32,
        description: "second wholesale pool",
        subnets: [{ prefix: "10.129.0.0/22", announce: false }],
        exclude: [],
      };
      const report = install(g, [...g.poolSettings(), added]);
      expect(report).toMatchObject({ pools: 8, added: ["wholesale-v4-b"], changed: [], removed: [] });
      expect(pool(g, "wholesale-v4-b")).toMatchObject({ vrf: "wholesale", size: 1024, used: 0, cgnTranslated: false });
      g.scenario({ action: "set-churn-multiplier", multiplier: 1000 });
      g.step(1800);
      // Only LNS-terminated sessions take a wholesale address here (a LAC's comes from its LNS): 5 % of subscribers.
      expect(pool(g, "wholesale-v4-b").used).toBeGreaterThan(5);
      expect(allSessions(g).some((s) => s.vrf === "wholesale" && s.ipv4.startsWith("10.129."))).toBe(true);
      expectConsistent(g, { justStepped: true });
    });

    it(
      "disconnects a removed pool's sessions, clears its alarm, and its subscribers " +
        "reconnect from the VRF's other pools",
      () => {
        const g = gateway(profile(), 14, 1800);
        g.scenario({ action: "fill-pool", pool: "residential-v6-pd", percent: 100 });
        expect(
          g.alarms.list().active.some((a) => a.id === "pool.utilisation.high" && a.instance === "residential-v6-pd"),
        ).toBe(true);
        const holders = allAllocations(g, "residential-v6-pd").filter((a) => a.kind === "dynamic").length;
        const report = install(
          g,
          g.poolSettings().filter((p) => p.name !== "residential-v6-pd"),
        );
        expect(report).toMatchObject({ pools: 6, removed: ["residential-v6-pd"], disconnected: holders });
        expect(g.pools.list().map((p) => p.name)).not.toContain("residential-v6-pd");
        expect(g.pools.allocations("residential-v6-pd").ok).toBe(false);
        expect(g.alarms.list().active.some((a) => a.instance === "residential-v6-pd")).toBe(false);
        expectConsistent(g);
        g.step(600);
        expect(allSessions(g).filter((s) => s.vrf === "default").length).toBeGreaterThan(holders / 2);
        expectConsistent(g, { justStepped: true });
      },
    );

    it("rebuilds a pool whose VRF changes: its sessions are disconnected and it serves the other VRF", () => {
      const g = gateway(profile(), 15, 1800);
      const held = pool(g, "wholesale-v4").used;
      const report = install(
        g,
        edited(g, "wholesale-v4", (p) => (p.vrf = "default")),
      );
      expect(report.disconnected).toBe(held);
      expect(pool(g, "wholesale-v4")).toMatchObject({ vrf: null, used: 0 });
      expectConsistent(g);
    });
  });

  it("refuses pools that break a rule, changing nothing", () => {
    const g = gateway(profile(), 16, 600);
    const before = observe(g);
    const overlapping = edited(g, "wholesale-v4", (p) => {
      p.vrf = null;
      p.subnets = [{ prefix: "198.18.0.0/24", announce: false }];
    });
    const r = g.setPools(overlapping);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.issues.join()).toContain("overlaps 198.18.0.0/22 of pool 'residential-v4'");
    const wrong = g.setPools(edited(g, V4, (p) => p.exclude.push("2001:db8::1")));
    expect(!wrong.ok && wrong.issues).toEqual([
      "residential-v4: exclude: 2001:db8::1 is not an IPv4 address or prefix",
    ]);
    expect(observe(g)).toBe(before);
  });

  it("is deterministic, survives a snapshot and a reseed", () => {
    const run = () => {
      const g = gateway(profile(), 17, 1200);
      g.setLocalSubscribers(LOCALS);
      g.step(30);
      install(
        g,
        edited(g, V4, (p) => {
          p.subnets.reverse();
          p.exclude.push("198.18.4.128/25");
        }),
      );
      install(g, [
        ...g.poolSettings().filter((p) => p.name !== "cgn-v6-pd"),
        {
          name: "extra-pd",
          family: "ipv6-pd",
          vrf: "cgn-inside",
          delegationLength: 60,
          description: "",
          subnets: [{ prefix: "2001:db8:6000::/44", announce: true }],
          exclude: [],
        },
      ]);
      g.step(600);
      return g;
    };
    const a = run();
    const b = run();
    expect(observe(a)).toBe(observe(b));
    expectConsistent(a, { justStepped: true });

    const restored = restore(a);
    expect(restored.poolSettings()).toEqual(a.poolSettings());
    expect(observe(restored)).toBe(observe(a));
    a.step(900);
    restored.step(900);
    expect(observe(restored)).toBe(observe(a));
    expectConsistent(restored, { justStepped: true });

    a.scenario({ action: "reseed", seed: 99 });
    expect(a.poolSettings()).toEqual(restored.poolSettings());
    a.step(600);
    expect(pool(a, "extra-pd").used).toBeGreaterThan(0);
    expect(pool(a, V4).subnets.map((s) => s.prefix)).toEqual([SECOND, FIRST]);
    expectConsistent(a, { justStepped: true });
  });
});
