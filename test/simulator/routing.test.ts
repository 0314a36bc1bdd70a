import { describe, expect, it } from "vitest";
import { igpAdjacency, igpStatus, type IgpInterfaceConfig } from "../../simulator/igp.ts";
import {
  NEIGHBOR_SETTLE_MS,
  bgpNeighbor,
  bgpSummary,
  neighborRoutes,
  neighborSession,
  type BgpNeighborConfig,
  type RoutingWorld,
} from "../../simulator/routing.ts";
import { formatAddress } from "../../simulator/prefix.ts";
import { vrfRoutes } from "../../simulator/rib.ts";
import { allSessions, gateway, restore } from "./helpers.ts";

const SEED = 1001;
const T0 = Date.UTC(2026, 0, 5, 8, 0, 0);
const RR1: BgpNeighborConfig = {
  address: "10.0.255.1",
  remoteAs: 64500,
  description: "rr1",
  bfd: true,
  addressFamilies: ["ipv4Unicast", "ipv6Unicast", "ipv4Vpn"],
  holdTime: 90,
  keepAlive: 30,
  shutdown: false,
  provisionedMs: T0,
};
const TRANSIT: BgpNeighborConfig = {
  address: "192.0.2.254",
  remoteAs: 64511,
  description: "transit",
  bfd: false,
  addressFamilies: ["ipv4Unicast"],
  holdTime: 180,
  keepAlive: 60,
  shutdown: false,
  provisionedMs: T0,
};
const NO_IGP = { reachable: true, protocol: "none" as const, routerId: "10.0.0.2", interfaces: [], adjacencies: [] };

function world(patch: Partial<RoutingWorld> = {}): RoutingWorld {
  return {
    seed: SEED,
    nowMs: T0 + 120_000,
    daemonUp: true,
    localAs: 64500,
    routerId: "10.0.0.2",
    neighbors: [RR1, TRANSIT],
    vrfs: [
      {
        name: "cust-a",
        rd: "64500:100",
        importRt: ["64500:100"],
        exportRt: ["64500:100"],
        originateDefaultRoute: true,
      },
      { name: "cgn-inside", rd: null, importRt: [], exportRt: [], originateDefaultRoute: false },
    ],
    pools: [
      {
        family: "ipv4",
        vrf: "default",
        cgnTranslated: false,
        subnets: [
          { prefix: "198.18.0.0/22", announce: true },
          { prefix: "198.18.8.0/24", announce: false },
        ],
      },
      {
        family: "ipv6-pd",
        vrf: "default",
        cgnTranslated: false,
        subnets: [{ prefix: "2001:db8:4000::/44", announce: true }],
      },
      {
        family: "ipv4",
        vrf: "cgn-inside",
        cgnTranslated: true,
        subnets: [{ prefix: "100.64.0.0/20", announce: true }],
      },
      { family: "ipv4", vrf: "cust-a", cgnTranslated: false, subnets: [{ prefix: "10.128.0.0/22", announce: true }] },
    ],
    cgnPublic: [{ vrf: "default", prefix: "192.0.2.0/26" }],
    statics: [
      { vrf: "default", prefix: "203.0.113.0/24", nextHop: null, distance: 1, announce: true },
      { vrf: "default", prefix: "0.0.0.0/0", nextHop: "10.1.2.1", distance: 250, announce: false },
    ],
    framed: [{ vrf: "default", prefix: "198.51.100.0/29", nextHop: "198.18.0.10", interface: "ipoe7" }],
    circuits: [],
    igp: NO_IGP,
    ...patch,
  };
}

const all = (w: RoutingWorld, address: string, query: Parameters<typeof neighborRoutes>[2] = {}) =>
  neighborRoutes(w, address, { ...query, limit: 500 });

describe("a BGP session", () => {
  it("goes Idle → Connect (→ Active) → OpenSent → OpenConfirm → Established within 45 s of its configuration", () => {
    const order = ["Idle", "Connect", "Active", "OpenSent", "OpenConfirm", "Established"];
    const seen: string[] = [];
    for (let t = T0; t <= T0 + 45_000; t += 1_000) {
      const state = neighborSession(SEED, RR1, t).state;
      if (seen.at(-1) !== state) seen.push(state);
    }
    expect(seen[0]).toBe("Idle");
    expect(seen.at(-1)).toBe("Established");
    expect(seen.map((s) => order.indexOf(s))).toEqual([...seen.map((s) => order.indexOf(s))].sort((a, b) => a - b));
  });

  it("counts its uptime from the moment it came up, on the simulated clock", () => {
    const up = neighborSession(SEED, RR1, T0 + 60_000);
    expect(up.establishedMs).not.toBeNull();
    const later = neighborSession(SEED, RR1, T0 + 300_000);
    expect(later.establishedMs).toBe(up.establishedMs);
  });

  it("is held in Idle (Admin) while shut down", () => {
    expect(neighborSession(SEED, { ...RR1, shutdown: true }, T0 + 600_000).state).toBe("Idle (Admin)");
  });

  it("negotiates the lower hold time of both ends, and knows the peer's router id once its OPEN arrived", () => {
    const s = neighborSession(SEED, { ...RR1, holdTime: 30, keepAlive: 10 }, T0 + 60_000);
    expect(s).toMatchObject({ state: "Established", holdTime: 30, keepAlive: 10, routerId: "10.0.255.1" });
    expect(neighborSession(SEED, RR1, T0).routerId).toBeNull();
  });

  it("flaps now and then, the same way for the same seed: with BFD at once, without only past the hold timer", () => {
    const from = T0 + NEIGHBOR_SETTLE_MS + 60_000;
    const downs = (n: BgpNeighborConfig, seed = SEED) => {
      const out: number[] = [];
      for (let t = from; t < from + 3 * 86_400_000; t += 10_000)
        if (neighborSession(seed, n, t).state !== "Established") out.push(t);
      return out;
    };
    const withBfd = downs(RR1);
    expect(withBfd.length).toBeGreaterThan(0);
    expect(downs(RR1)).toEqual(withBfd);
    expect(downs(RR1, SEED + 1)).not.toEqual(withBfd);
    // Without BFD the same outages are noticed later or not at all.
    expect(downs({ ...RR1, bfd: false }).length).toBeLessThan(withBfd.length);
  });
});

describe("the BGP summary", () => {
  it("has one row per neighbor per address family, numbers equal to the route pages' totals", () => {
    const w = world();
    const summary = bgpSummary(w);
    expect(summary.reachable).toBe(true);
    expect(summary.peers.map((p) => `${p.peer} ${p.afiSafi}`)).toEqual([
      "10.0.255.1 ipv4Unicast",
      "10.0.255.1 ipv6Unicast",
      "10.0.255.1 ipv4Vpn",
      "192.0.2.254 ipv4Unicast",
    ]);
    for (const row of summary.peers) {
      expect(row.state).toBe("Established");
      expect(row.prefixesReceived).toBe(all(w, row.peer, { type: "received", af: row.afiSafi }).total);
      expect(row.prefixesSent).toBe(all(w, row.peer, { af: row.afiSafi }).total);
    }
    const detail = bgpNeighbor(w, "10.0.255.1");
    for (const af of detail.addressFamilies) {
      const row = summary.peers.find((p) => p.peer === "10.0.255.1" && p.afiSafi === af.afiSafi)!;
      expect([af.received, af.advertised]).toEqual([row.prefixesReceived, row.prefixesSent]);
    }
  });

  it(
    "reads zero prefixes and zero uptime (the spec's summary row is not nullable) " +
      "for a session that is not up yet",
    () => {
      const w = world({ nowMs: T0 });
      expect(
        bgpSummary(w).peers.every(
          (p) => p.state === "Idle" && p.prefixesReceived === 0 && p.prefixesSent === 0 && p.uptimeSeconds === 0,
        ),
      ).toBe(true);
    },
  );

  it("is unreachable, with no rows, when the daemon is down or no peer is configured", () => {
    expect(bgpSummary(world({ daemonUp: false }))).toMatchObject({ reachable: false, peers: [] });
    expect(bgpSummary(world({ neighbors: [] }))).toMatchObject({ reachable: false, peers: [] });
  });
});

describe("advertised routes", () => {
  it(
    "are what the box originates: announced pool subnets, CGN public subnets, " + "announced statics and framed routes",
    () => {
      const page = all(world(), "192.0.2.254");
      expect(page.routes.map((r) => `${r.prefix} ${r.protocol}`)).toEqual([
        "192.0.2.0/26 cgn",
        "198.18.0.0/22 connected",
        "198.51.100.0/29 framed",
        "203.0.113.0/24 static",
      ]);
      // eBGP: our AS prepended, next hop self, no LOCAL_PREF.
      expect(page.routes[0]).toMatchObject({ nextHop: "10.0.0.2", asPath: "64500", localPref: 0, best: true });
      // iBGP: no prepend, LOCAL_PREF 100.
      expect(all(world(), "10.0.255.1").routes[0]).toMatchObject({ asPath: "", localPref: 100 });
    },
  );

  it("follow a new announced pool subnet at once", () => {
    const w = world();
    const before = all(w, "10.0.255.1").total;
    w.pools[0]!.subnets.push({ prefix: "198.18.16.0/24", announce: true });
    const after = all(w, "10.0.255.1");
    expect(after.total).toBe(before + 1);
    expect(after.routes.map((r) => r.prefix)).toContain("198.18.16.0/24");
  });

  it(
    "carry the VRF's RD and export route targets in ipv4Vpn, with its default route; " +
      "a VRF without RD exports nothing",
    () => {
      const page = all(world(), "10.0.255.1", { af: "ipv4Vpn" });
      expect(page.routes.map((r) => [r.prefix, r.rd, r.routeTargets])).toEqual([
        ["0.0.0.0/0", "64500:100", ["64500:100"]],
        ["10.128.0.0/22", "64500:100", ["64500:100"]],
      ]);
    },
  );

  it("never include a CGN-translated pool, announced or not", () => {
    const prefixes = [
      ...all(world(), "10.0.255.1").routes,
      ...all(world(), "10.0.255.1", { af: "ipv4Vpn" }).routes,
    ].map((r) => r.prefix);
    expect(prefixes).not.toContain("100.64.0.0/20");
  });
});

describe("received routes", () => {
  it("hold a default route and upstream prefixes, stable per neighbor and seed", () => {
    const page = all(world(), "192.0.2.254", { type: "received" });
    expect(page.routes[0]).toMatchObject({
      prefix: "0.0.0.0/0",
      nextHop: "192.0.2.254",
      asPath: "64511",
      protocol: "bgp",
    });
    expect(page.total).toBeGreaterThanOrEqual(5);
    expect(all(world(), "192.0.2.254", { type: "received" })).toEqual(page);
    expect(all(world({ seed: SEED + 7 }), "192.0.2.254", { type: "received" })).not.toEqual(page);
  });

  it("include more-specifics the inbound policy rejects: received, not accepted, never best", () => {
    const neighbors = Array.from({ length: 8 }, (_, i) => ({ ...TRANSIT, address: `192.0.2.${200 + i}` }));
    const w = world({ neighbors });
    const details = neighbors.map((n) => bgpNeighbor(w, n.address).addressFamilies[0]!);
    expect(details.some((af) => af.accepted < af.received)).toBe(true);
    for (const n of neighbors) {
      for (const r of all(w, n.address, { type: "received" }).routes)
        if (Number(r.prefix.split("/")[1]) > 24) expect(r.best).toBe(false);
    }
  });

  it("pick one best path per prefix across neighbors", () => {
    const w = world();
    const defaults = [RR1, TRANSIT].map(
      (n) => all(w, n.address, { type: "received" }).routes.find((r) => r.prefix === "0.0.0.0/0")!,
    );
    expect(defaults.filter((r) => r.best)).toHaveLength(1);
  });

  it("in ipv4Vpn, are the remote sites of the route targets this box imports", () => {
    const page = all(world(), "10.0.255.1", { type: "received", af: "ipv4Vpn" });
    expect(page.total).toBeGreaterThan(0);
    expect(page.routes.every((r) => r.routeTargets?.includes("64500:100"))).toBe(true);
    const w = world();
    w.vrfs[0]!.importRt = [];
    expect(all(w, "10.0.255.1", { type: "received", af: "ipv4Vpn" }).total).toBe(0);
  });
});

describe("route pages", () => {
  it("clamp the limit to 1-500 and page with offset", () => {
    const w = world();
    expect(neighborRoutes(w, "10.0.255.1", { type: "received", limit: 0 })).toMatchObject({
      limit: 1,
      routes: [expect.anything()],
    });
    expect(neighborRoutes(w, "10.0.255.1", { limit: 100_000 }).limit).toBe(500);
    expect(neighborRoutes(w, "10.0.255.1", {}).limit).toBe(50);
    const second = neighborRoutes(w, "10.0.255.1", { type: "received", offset: 1, limit: 1 });
    expect(second.routes[0]).toEqual(all(w, "10.0.255.1", { type: "received" }).routes[1]);
    expect(neighborRoutes(w, "10.0.255.1", { offset: 10_000 })).toMatchObject({
      routes: [],
      total: all(w, "10.0.255.1").total,
    });
  });

  it("filter by substring over prefix, next hop, AS path and protocol", () => {
    const w = world();
    expect(all(w, "192.0.2.254", { filter: "STATIC" }).routes.map((r) => r.prefix)).toEqual(["203.0.113.0/24"]);
    expect(all(w, "192.0.2.254", { filter: "198.18" }).total).toBe(1);
    const byPath = all(w, "192.0.2.254", { type: "received", filter: "64511" });
    expect(byPath.total).toBe(all(w, "192.0.2.254", { type: "received" }).total);
  });

  it("of an unknown neighbor read unreachable; of a family it does not carry, empty", () => {
    expect(neighborRoutes(world(), "192.0.2.99")).toMatchObject({ reachable: false, total: 0 });
    expect(neighborRoutes(world(), "192.0.2.254", { af: "ipv6Unicast" })).toMatchObject({ reachable: true, total: 0 });
    expect(bgpNeighbor(world(), "192.0.2.99")).toMatchObject({
      reachable: false,
      peer: "192.0.2.99",
      state: "Unknown",
      addressFamilies: [],
    });
  });

  it("find a neighbor by any text form of its address", () => {
    const v6 = { ...TRANSIT, address: "2001:db8::1", addressFamilies: ["ipv6Unicast" as const] };
    expect(bgpNeighbor(world({ neighbors: [v6] }), "2001:DB8:0::1")).toMatchObject({
      reachable: true,
      peer: "2001:db8::1",
    });
  });
});

describe("GRE customers' sessions", () => {
  const circuit = {
    id: "acme-1",
    vrf: "cust-a",
    address: "10.255.0.2",
    localAddress: "10.255.0.1/30",
    remoteAs: 65010,
    description: "",
    bfd: true,
    state: "Established" as const,
    prefixes: 7,
    lastChangeMs: T0,
    tunnelUp: true,
  };

  it("are summary rows in their VRF whose received total is the circuit's prefix count", () => {
    const w = world({ circuits: [circuit] });
    const row = bgpSummary(w).peers.find((p) => p.peer === "10.255.0.2")!;
    expect(row).toMatchObject({
      vrf: "cust-a",
      remoteAs: 65010,
      prefixesReceived: 7,
      description: "GRE circuit acme-1",
    });
    expect(row.prefixesSent).toBe(all(w, "10.255.0.2").total);
    expect(
      all(w, "10.255.0.2", { type: "received" }).routes.every(
        (r) => r.asPath === "65010" && r.nextHop === "10.255.0.2",
      ),
    ).toBe(true);
  });

  it("get their prefixes into the VRF's table and exported to the VPN with the VRF's RD", () => {
    const w = world({ circuits: [circuit] });
    const vpn = all(w, "10.0.255.1", { af: "ipv4Vpn" });
    expect(vpn.total).toBe(2 + 7);
    expect(vpn.routes.filter((r) => r.asPath === "65010")).toHaveLength(7);
    const rib = vrfRoutes(w, "cust-a", [], { limit: 500 });
    expect(rib.routes.filter((r) => r.protocol === "bgp" && r.interface === "gre-acme-1")).toHaveLength(7);
  });
});

describe("a VRF's route table", () => {
  const subscribers = [
    { family: 4 as const, base: BigInt(((198 << 24) | (18 << 16) | 10) >>> 0), length: 32, interface: "ipoe7" },
    { family: 6 as const, base: 0x20010db840000000n << 64n, length: 56, interface: "ipoe7" },
  ];

  it(
    "holds connected pool subnets, subscriber routes, framed, static, CGN and BGP " +
      "routes, sorted by family and prefix",
    () => {
      const page = vrfRoutes(world(), "default", subscribers, { limit: 500 });
      const protocols = new Set(page.routes.map((r) => r.protocol));
      expect([...protocols].sort()).toEqual(["bgp", "cgn", "connected", "framed", "static", "subscriber"]);
      expect(page.routes.find((r) => r.protocol === "subscriber")).toMatchObject({
        prefix: "198.18.0.10/32",
        interface: "ipoe7",
        best: true,
      });
      expect(page.routes.find((r) => r.prefix === "2001:db8:4000::/56")).toMatchObject({ protocol: "subscriber" });
      const families = page.routes.map((r) => (r.prefix.includes(":") ? 6 : 4));
      expect(families).toEqual([...families].sort());
    },
  );

  it("installs the route of the lowest administrative distance: iBGP's default over a floating static", () => {
    const defaults = vrfRoutes(world(), "default", [], { limit: 500 }).routes.filter((r) => r.prefix === "0.0.0.0/0");
    expect(defaults.find((r) => r.best)).toMatchObject({ protocol: "bgp" });
    expect(defaults.find((r) => r.protocol === "static")).toMatchObject({ best: false, nextHop: "10.1.2.1" });
  });

  it("of a VRF holds the VPN routes its import route targets select", () => {
    const page = vrfRoutes(world(), "cust-a", [], { limit: 500, protocol: "bgp" });
    expect(page.total).toBeGreaterThan(0);
    expect(page.routes.every((r) => r.rd === undefined && r.nextHop === "10.0.255.1")).toBe(true);
  });

  it(
    "pages consistently: consecutive pages make up the whole table, sessions' routes " +
      "in prefix order among the rest",
    () => {
      const many = Array.from({ length: 300 }, (_, i) => ({
        family: 4 as const,
        base: BigInt((((198 << 24) | (18 << 16)) >>> 0) + ((i * 37) % 1024)),
        length: 32,
        interface: `ppp${i}`,
      }));
      const w = world();
      const whole = vrfRoutes(w, "default", many, { limit: 500 });
      const pages = [0, 1, 2, 3, 4, 5, 6].flatMap(
        (n) => vrfRoutes(w, "default", many, { offset: n * 60, limit: 60 }).routes,
      );
      expect(pages).toEqual(whole.routes);
      expect(whole.total).toBe(whole.routes.length);
      const v4 = whole.routes
        .filter((r) => !r.prefix.includes(":"))
        .map((r) =>
          r.prefix
            .split("/")[0]!
            .split(".")
            .reduce((a, o) => a * 256 + Number(o), 0),
        );
      expect(v4).toEqual([...v4].sort((a, b) => a - b));
      const filtered = vrfRoutes(w, "default", many, { filter: "198.18.0.1", limit: 500 });
      expect(filtered.routes.every((r) => r.prefix.includes("198.18.0.1") || r.nextHop?.includes("198.18.0.1"))).toBe(
        true,
      );
      expect(filtered.total).toBe(
        whole.routes.filter((r) => r.prefix.includes("198.18.0.1") || r.nextHop?.includes("198.18.0.1")).length,
      );
    },
  );

  it("lets a session's own route win its prefix over a static one", () => {
    const w = world({
      statics: [{ vrf: "default", prefix: "198.18.0.10/32", nextHop: null, distance: 1, announce: false }],
    });
    const routes = vrfRoutes(w, "default", subscribers, { filter: "198.18.0.10/32" }).routes;
    expect(routes.map((r) => [r.protocol, r.best])).toEqual([
      ["subscriber", true],
      ["static", false],
    ]);
  });

  it("filters by family and protocol, and is unreachable while the daemon is down", () => {
    expect(
      vrfRoutes(world(), "default", subscribers, { family: "ipv6", limit: 500 }).routes.every((r) =>
        r.prefix.includes(":"),
      ),
    ).toBe(true);
    expect(vrfRoutes(world(), "default", subscribers, { protocol: "static" }).total).toBe(2);
    expect(vrfRoutes(world({ daemonUp: false }), "default", subscribers)).toMatchObject({ reachable: false, total: 0 });
  });
});

describe("the IGP", () => {
  const uplink: IgpInterfaceConfig = {
    name: "uplink0",
    address: "10.1.2.0/31",
    area: "0.0.0.0",
    level: "level-2",
    cost: 10,
    passive: false,
    helloSeconds: 10,
    deadSeconds: 40,
    provisionedMs: T0,
  };
  const loopback: IgpInterfaceConfig = { ...uplink, name: "lo", address: "10.0.0.2/32", passive: true };

  it(
    "forms an OSPF adjacency with the other end of the link: Down → Init → ExStart → " + "Exchange → Loading → Full",
    () => {
      const seen: string[] = [];
      for (let t = T0; t <= T0 + 60_000; t += 500) {
        const state = igpAdjacency(SEED, "ospf", uplink, t)!.state;
        if (seen.at(-1) !== state) seen.push(state);
      }
      expect(seen).toEqual(["Down", "Init", "ExStart", "Exchange", "Loading", "Full"]);
      expect(igpAdjacency(SEED, "ospf", uplink, T0 + 60_000)).toMatchObject({
        neighborAddress: "10.1.2.1",
        area: "0.0.0.0",
        cost: 10,
      });
    },
  );

  it("forms IS-IS adjacencies as Initializing → Up, and none on a passive interface", () => {
    const status = igpStatus(SEED, T0 + 60_000, true, "isis", "10.0.0.2", [loopback, uplink]);
    expect(status.adjacencies).toEqual([
      expect.objectContaining({
        interface: "uplink0",
        state: "Up",
        area: "level-2",
        neighborId: expect.stringMatching(/^\d{4}\.[0-9a-f]{4}\.[0-9a-f]{4}$/),
      }),
    ]);
    expect(status.interfaces.map((i) => [i.name, i.fullNeighbors])).toEqual([
      ["lo", 0],
      ["uplink0", 1],
    ]);
  });

  it(
    "reads empty with no protocol, unreachable with the daemon down, and puts its " +
      "neighbors' loopbacks in the global table",
    () => {
      expect(igpStatus(SEED, T0, true, "none", null, [uplink])).toMatchObject({
        reachable: true,
        adjacencies: [],
        interfaces: [],
      });
      expect(igpStatus(SEED, T0, false, "ospf", null, [uplink]).reachable).toBe(false);
      const igp = igpStatus(SEED, T0 + 60_000, true, "ospf", "10.0.0.2", [loopback, uplink]);
      const ospf = vrfRoutes(world({ igp }), "default", [], { protocol: "ospf" });
      expect(ospf.routes).toEqual([
        expect.objectContaining({
          prefix: `${igp.adjacencies[0]!.neighborId}/32`,
          nextHop: "10.1.2.1",
          interface: "uplink0",
          metric: 10,
        }),
      ]);
    },
  );
});

describe("the gateway's part", () => {
  it("lists every live session's routes in its VRF", () => {
    const g = gateway(undefined, 1, 600);
    const routes = g.subscriberRoutes.list("default", 4);
    const sessions = g.sessions.list({ vrf: "default", limit: 500 });
    expect(routes.length).toBe(sessions.total);
    expect(g.subscriberRoutes.list("no-such-vrf")).toEqual([]);
  });

  it("gives each session's IPv4 address, IPv6 WAN prefix and delegated prefix, on its own interface", () => {
    const g = gateway(undefined, 1, 600);
    const text = new Set(
      g.subscriberRoutes.list("default").map((r) => `${r.interface} ${formatAddress(r.family, r.base)}/${r.length}`),
    );
    const sessions = g.sessions.list({ vrf: "default", limit: 50 }).items;
    for (const summary of sessions) {
      const d = g.sessions.detail(summary.id);
      if (!d.ok) throw new Error("no session");
      const iface = `${d.session.encap === "ipoe" ? "ipoe" : "ppp"}${d.session.id}`;
      expect(text).toContain(`${iface} ${d.session.ipv4}/32`);
      if (d.session.addresses.ipv6Wan) expect(text).toContain(`${iface} ${d.session.addresses.ipv6Wan.prefix}`);
      if (d.session.addresses.ipv6Pd) expect(text).toContain(`${iface} ${d.session.addresses.ipv6Pd.prefix}`);
    }
  });

  it.each(["default", "cgn-inside", "wholesale"])(
    "gives exactly the routes of the %s VRF's sessions, one family or both, none for a LAC's",
    (vrf) => {
      const g = gateway(undefined, 3, 1800);
      const expected: string[] = [];
      // A LAC switches its sessions into their tunnels: the LNS routes to their addresses, the LAC installs nothing.
      const routed = allSessions(g, { vrf }).filter((s) => s.encap !== "pppoe-lac");
      for (const summary of routed) {
        const d = g.sessions.detail(summary.id);
        if (!d.ok) throw new Error("no session");
        const iface = `${d.session.encap === "ipoe" ? "ipoe" : "ppp"}${d.session.id}`;
        expected.push(`${iface} ${d.session.ipv4}/32`);
        if (d.session.addresses.ipv6Wan) expected.push(`${iface} ${d.session.addresses.ipv6Wan.prefix}`);
        if (d.session.addresses.ipv6Pd) expected.push(`${iface} ${d.session.addresses.ipv6Pd.prefix}`);
      }
      const routes = g.subscriberRoutes.list(vrf);
      expect(routes.map((r) => `${r.interface} ${formatAddress(r.family, r.base)}/${r.length}`).sort()).toEqual(
        expected.sort(),
      );
      expect(g.subscriberRoutes.list(vrf, 6).every((r) => r.family === 6)).toBe(true);
      expect(g.subscriberRoutes.list(vrf, 4).length).toBe(routed.length);
    },
  );

  it("gives a local subscriber's routes, inside the pools and outside them", () => {
    const g = gateway(undefined, 4, 600);
    const base = {
      framedIp: null,
      framedIpv6: null,
      ipv6Pd: null,
      plan: null,
      downloadKbps: 0,
      uploadKbps: 0,
      line: null,
    } as const;
    g.setLocalSubscribers([
      {
        ...base,
        kind: "pppoe",
        key: "in@corp.example",
        username: "in@corp.example",
        vrf: "default",
        framedIp: "198.18.5.21",
        ipv6Pd: "2001:db8:400f:fe00::/56",
      },
      {
        ...base,
        kind: "pppoe",
        key: "out@corp.example",
        username: "out@corp.example",
        vrf: "default",
        framedIp: "203.0.113.10",
        framedIpv6: "2001:db8:ffff::1",
      },
    ]);
    g.step(10);
    const ids = new Map(g.localSubscribers.list().map((s) => [s.key, s.sessionId]));
    const text = new Set(
      g.subscriberRoutes.list("default").map((r) => `${r.interface} ${formatAddress(r.family, r.base)}/${r.length}`),
    );
    expect(text).toContain(`ppp${ids.get("in@corp.example")} 198.18.5.21/32`);
    expect(text).toContain(`ppp${ids.get("in@corp.example")} 2001:db8:400f:fe00::/56`);
    expect(text).toContain(`ppp${ids.get("out@corp.example")} 203.0.113.10/32`);
    expect([...text].filter((r) => r.startsWith(`ppp${ids.get("out@corp.example")} 2001:db8:ffff:`))).toHaveLength(1);
  });

  it("keeps a failed daemon across a snapshot, and a reseed (a reboot) starts it again", () => {
    const g = gateway(undefined, 1, 60);
    expect(g.scenario({ action: "fail-daemon", daemon: "routing" }).ok).toBe(true);
    expect(g.daemons()).toEqual({ routing: false, ipsec: true });
    expect(restore(g).daemons()).toEqual({ routing: false, ipsec: true });
    g.scenario({ action: "reseed", seed: 9 });
    expect(g.daemons()).toEqual({ routing: true, ipsec: true });
    g.scenario({ action: "fail-daemon", daemon: "ipsec" });
    g.scenario({ action: "revive-daemon", daemon: "ipsec" });
    expect(g.daemons().ipsec).toBe(true);
  });
});
