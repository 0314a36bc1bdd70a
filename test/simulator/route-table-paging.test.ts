import { describe, expect, it } from "vitest";
import type { Gateway, LocalSubscriber } from "../../simulator/index.ts";
import { formatAddress, parsePrefix } from "../../simulator/prefix.ts";
import { SortedSubscriberRoutes, vrfRoutes, type VrfRouteQuery } from "../../simulator/rib.ts";
import type { RoutingWorld } from "../../simulator/routing.ts";
import type { Route } from "../../src/schemas/routing.ts";
import { gateway } from "./helpers.ts";

const T0 = Date.UTC(2026, 0, 5, 8, 0, 0);

/**
 * A world whose statics sit on a session's own /32 (distance 1, after it) and whose pools' connected subnets share
 * prefixes with nothing.
 */
function world(g: Gateway): RoutingWorld {
  const first = g.subscriberRoutes.list("default", 4)[0]!;
  const own = `${formatAddress(4, first.base)}/32`;
  return {
    seed: 7,
    nowMs: T0,
    daemonUp: true,
    localAs: 64500,
    routerId: "10.0.0.2",
    neighbors: [],
    vrfs: [],
    pools: [
      { family: "ipv4", vrf: "default", cgnTranslated: false, subnets: [{ prefix: "0.0.0.0/1", announce: true }] },
    ],
    cgnPublic: [{ vrf: "default", prefix: "192.0.2.0/26" }],
    statics: [
      { vrf: "default", prefix: own, nextHop: null, distance: 1, announce: false },
      { vrf: "default", prefix: "255.255.255.255/32", nextHop: "10.1.2.1", distance: 5, announce: false },
      { vrf: "default", prefix: "::/0", nextHop: null, distance: 250, announce: false },
    ],
    framed: [],
    circuits: [],
    igp: { reachable: true, protocol: "none", routerId: "10.0.0.2", interfaces: [], adjacencies: [] },
  };
}

/**
 * The straightforward table: the routes other than the sessions' (read with no
 * sessions, then un-installed where a session holds the same prefix), and
 * every session's route as the gateway lists them, sorted in full by family,
 * address and length (a connected route before the session's, any other
 * after), filtered, then sliced.
 */
function reference(g: Gateway, w: RoutingWorld, vrf: string, query: VrfRouteQuery): { total: number; routes: Route[] } {
  const family = query.family === "ipv4" ? 4 : query.family === "ipv6" ? 6 : null;
  const subs = g.subscriberRoutes.list(vrf, family).map(
    (r): Route => ({
      prefix: `${formatAddress(r.family, r.base)}/${r.length}`,
      nextHop: "",
      protocol: "subscriber",
      interface: r.interface,
      metric: 0,
      localPref: 0,
      asPath: "",
      origin: "",
      best: true,
    }),
  );
  const held = new Set(subs.map((r) => r.prefix));
  const others: Route[] = [];
  for (let offset = 0; ; offset += 500) {
    const page = vrfRoutes(w, vrf, [], { family: query.family, offset, limit: 500 });
    others.push(...page.routes.map((r) => ({ ...r, best: r.best && !held.has(r.prefix) })));
    if (offset + 500 >= page.total) break;
  }
  const keyed = [...others, ...subs].map((route, order) => {
    const p = parsePrefix(route.prefix, false)!;
    const tie = route.protocol === "subscriber" ? 0 : route.protocol === "connected" ? -1 : 1;
    return { route, family: p.family, base: p.base, length: p.length, tie, order };
  });
  keyed.sort(
    (a, b) =>
      a.family - b.family ||
      (a.base < b.base ? -1 : a.base > b.base ? 1 : 0) ||
      a.length - b.length ||
      a.tie - b.tie ||
      a.order - b.order,
  );
  const protocol = query.protocol?.trim().toLowerCase() || null;
  const needle = query.filter?.trim().toLowerCase() ?? "";
  const kept = keyed
    .map((k) => k.route)
    .filter((r) => protocol === null || r.protocol === protocol)
    .filter(
      (r) =>
        needle === "" ||
        [r.prefix, r.nextHop, r.asPath, r.protocol].some((f) => f !== null && f.toLowerCase().includes(needle)),
    );
  const offset = query.offset ?? 0;
  const limit = query.limit ?? 50;
  return { total: kept.length, routes: kept.slice(offset, offset + limit) };
}

/**
 * Pages of `vrf`'s table at many offsets, families, protocols and filters equal the reference's, from the gateway's
 * table and from sorted objects alike.
 */
function expectSamePages(g: Gateway, vrf: string): void {
  const w = world(g);
  const whole = g.subscriberRoutes.list(vrf).length;
  const queries: VrfRouteQuery[] = [
    {},
    { offset: 1, limit: 7 },
    { offset: Math.max(0, whole - 3), limit: 10 },
    { offset: Math.floor(whole / 2), limit: 500 },
    { offset: whole + 50, limit: 5 },
    { family: "ipv4", offset: 2, limit: 40 },
    { family: "ipv6", offset: 5, limit: 40 },
    { family: "ipv6", offset: Math.floor(whole / 3), limit: 100 },
    { protocol: "subscriber", offset: 3, limit: 20 },
    { protocol: "static", limit: 10 },
    { filter: "255.", limit: 10 },
    { filter: "/32", offset: 4, limit: 30 },
    { filter: "subscr", offset: 10, limit: 10 },
    { filter: "198.18.1", offset: 1, limit: 25 },
    { filter: "2001:db8:", offset: 2, limit: 25 },
    { filter: "::/5", limit: 25 },
    { filter: "0/", offset: 5, limit: 25 },
    // A needle with a line break in it matches no prefix, though the joined texts a filter searches hold one between
    // routes.
    { filter: "/56\n2001", limit: 25 },
    { filter: "/32\n1", limit: 25 },
  ];
  // One table per family for every query, as the appliance keeps one per sessions version: later filters search the
  // texts the first rendered.
  const tables = new Map([null, 4, 6].map((f) => [f, g.subscriberRoutes.table(vrf, f as 4 | 6 | null)]));
  for (const query of queries) {
    const expected = reference(g, w, vrf, query);
    // Both the gateway's table (read in place) and the sorted objects must page alike.
    for (const table of [
      tables.get(null)!,
      tables.get(query.family === "ipv4" ? 4 : query.family === "ipv6" ? 6 : null)!,
      g.subscriberRoutes.list(vrf),
    ]) {
      const page = vrfRoutes(w, vrf, table, query);
      expect({ query, total: page.total, routes: page.routes }).toEqual({
        query,
        total: expected.total,
        routes: expected.routes,
      });
    }
  }
}

describe("a VRF's route table, paged from the sessions' routes in place", () => {
  const g = gateway(undefined, 3, 900);
  const vrfs = [...new Set(g.sessions.list({ limit: 500 }).items.map((s) => s.vrf))];

  it("reads the holder tables without sorting objects", () => {
    expect(g.subscriberRoutes.table("default")).not.toBeInstanceOf(SortedSubscriberRoutes);
    expect(vrfs.length).toBeGreaterThan(1);
  });

  describe.each([0, 1, 2])("after %i churn steps", (steps) => {
    it.each(["default", "cgn-inside", "wholesale", "no-such-vrf"])(
      "in VRF %s gives the same pages, totals and fields as the sorted full list",
      (vrf) => {
        for (let i = 0; i < steps; i++) g.step(137);
        expectSamePages(g, vrf);
      },
    );
  });

  it("un-installs a static route on a session's own address and lists it after the session's", () => {
    const w = world(g);
    const own = w.statics[0]!.prefix;
    const page = vrfRoutes(w, "default", g.subscriberRoutes.table("default"), { filter: own, limit: 10 });
    expect(page.routes.map((r) => [r.protocol, r.best])).toEqual([
      ["subscriber", true],
      ["static", false],
    ]);
  });
});

describe("a VRF's route table with local subscribers online", () => {
  // A local subscriber's address may lie outside every pool (here 203.0.113.10), so its routes are not in the holder
  // tables' order.
  const none = { framedIp: null, framedIpv6: null, ipv6Pd: null, plan: null, downloadKbps: 0, uploadKbps: 0 } as const;
  const alice: LocalSubscriber = {
    ...none,
    kind: "pppoe",
    key: "alice@corp.example",
    username: "alice@corp.example",
    vrf: "default",
    framedIp: "203.0.113.10",
    framedIpv6: "2001:db8:ffff::1",
    line: null,
  };
  // Static blocks inside the pools (held as static, not in the holder tables), and a dynamic one behind CGN.
  const circuit: LocalSubscriber = {
    ...none,
    kind: "ipoe",
    key: "1:3000:7",
    username: "circuit-7",
    vrf: "default",
    framedIp: "198.18.5.20",
    framedIpv6: "2001:db8:100:ff00::1",
    ipv6Pd: "2001:db8:400f:ff00::/56",
    plan: "fibre-100",
    line: { portId: 1, svlan: 3000, cvlan: 7 },
  };
  const cgn: LocalSubscriber = {
    ...none,
    kind: "ipoe",
    key: "2:3000:8",
    username: "local-ipoe-2-3000-8",
    vrf: "cgn-inside",
    downloadKbps: 50_000,
    uploadKbps: 10_000,
    line: { portId: 2, svlan: 3000, cvlan: 8 },
  };

  it("merges their routes into the pools' and pages them the same as the sorted full list", () => {
    const g = gateway(undefined, 5, 600);
    g.setLocalSubscribers([alice, circuit, cgn]);
    g.step(10);
    expect(g.localSubscribers.list().every((l) => l.sessionId !== null)).toBe(true);
    expect(
      g.subscriberRoutes
        .list("default")
        .some((r) => r.interface.startsWith("ppp") && formatAddress(r.family, r.base) === "203.0.113.10"),
    ).toBe(true);
    expect(g.subscriberRoutes.table("default")).not.toBeInstanceOf(SortedSubscriberRoutes);
    expectSamePages(g, "default");
    expectSamePages(g, "cgn-inside");
    expect(
      vrfRoutes(world(g), "default", g.subscriberRoutes.table("default"), { filter: "203.0.113.10/" }).routes,
    ).toEqual([expect.objectContaining({ prefix: "203.0.113.10/32", protocol: "subscriber" })]);
  });
});
