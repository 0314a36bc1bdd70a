/**
 * A VRF's routing table (RIB) at one instant: what the routing model
 * (routing.ts) installed from BGP, plus the connected subnets, the live
 * sessions' own routes, framed, static and CGN routes and the IGP's. The
 * sessions' routes are the bulk (one to three per session, 128,000 sessions
 * on the large profile): they are sorted on numbers and rendered only for the
 * page asked for, so a page costs one sort, not a table of strings.
 */
import { adjacencyLoopback } from "./igp.ts";
import { pageWindow } from "./paging.ts";
import { formatAddress, type Family } from "./prefix.ts";
import {
  DISTANCE,
  ROUTES_DEFAULT_LIMIT,
  ROUTES_MAX_LIMIT,
  Snapshot,
  compareEntries,
  fromText,
  page,
  stripVpn,
  wire,
  type Entry,
  type RouteQuery,
  type RoutingWorld,
  type SubscriberRoute,
} from "./routing.ts";
import type { Route, RoutePage } from "../src/schemas/routing.ts";

export interface VrfRouteQuery extends RouteQuery {
  family?: "ipv4" | "ipv6" | null | undefined;
  protocol?: string | null | undefined;
}

/**
 * A VRF's routing table (`default` = the global table): the connected
 * subnets (address pools, IGP interfaces, GRE tunnels), each live session's
 * routes (`subscriber`: its IPv4 /32, IPv6 WAN prefix and delegated prefix),
 * framed routes, static routes, CGN public subnets, what BGP installed (best
 * accepted routes; in a VRF, the VPN routes its import route targets select
 * and its GRE customers' prefixes) and, in the global table, the IGP's routes
 * to its neighbors' router ids. Per prefix the route of the lowest
 * administrative distance is `best` (installed in the forwarding table).
 */
export function vrfRoutes(w: RoutingWorld, vrf: string, subscribers: readonly SubscriberRoute[] | SortedSubscriberRoutes, query: VrfRouteQuery = {}): RoutePage {
  if (!w.daemonUp) return page([], query, false);
  const s = new Snapshot(w);
  const family: Family | null = query.family === "ipv4" ? 4 : query.family === "ipv6" ? 6 : null;
  const protocol = query.protocol?.trim().toLowerCase() || null;
  const wants = (f: Family) => family === null || family === f;
  const entries: Entry[] = [];
  const add = (e: Entry | null) => {
    if (e && wants(e.family)) entries.push(e);
  };
  const subscriberInterface = `sub-${vrf}`.slice(0, 15);
  for (const pool of w.pools) {
    if (pool.vrf !== vrf) continue;
    for (const sub of pool.subnets) add(fromText(sub.prefix, { protocol: "connected", interface: subscriberInterface, metric: 0, source: "local", distance: DISTANCE.connected! }));
  }
  for (const f of w.framed) if (f.vrf === vrf) add(fromText(f.prefix, { protocol: "framed", nextHop: f.nextHop, interface: f.interface, metric: 0, source: "local", distance: DISTANCE.framed! }));
  for (const st of w.statics) {
    if (st.vrf !== vrf) continue;
    add(fromText(st.prefix, { protocol: "static", nextHop: st.nextHop, interface: st.nextHop === null ? "blackhole" : null, metric: 0, source: "local", distance: st.distance }));
  }
  for (const c of w.cgnPublic) if (c.vrf === vrf) add(fromText(c.prefix, { protocol: "cgn", interface: "cgn0", metric: 0, source: "local", distance: DISTANCE.cgn! }));
  for (const c of w.circuits) {
    if (c.vrf !== vrf) continue;
    if (c.tunnelUp) add(fromText(c.localAddress, { protocol: "connected", interface: `gre-${c.id}`.slice(0, 15), metric: 0, source: "local", distance: DISTANCE.connected! }));
    for (const r of s.receivedFromCircuit(c)) if (r.accepted) add({ ...r });
  }
  const bgp = (r: Entry) => add({ ...r, rd: undefined, routeTargets: undefined, interface: null });
  if (vrf === "default") {
    for (const af of ["ipv4Unicast", "ipv6Unicast"] as const) for (const n of w.neighbors) for (const r of s.received(n, af)) if (r.best) bgp(r);
    if (w.igp.reachable && w.igp.protocol !== "none") {
      for (const i of w.igp.interfaces) add(fromText(i.address, { protocol: "connected", interface: i.name, metric: 0, source: "local", distance: DISTANCE.connected! }));
      const final = w.igp.protocol === "ospf" ? "Full" : "Up";
      for (const a of w.igp.adjacencies) {
        if (a.state !== final) continue;
        add(fromText(`${adjacencyLoopback(a)}/32`, { protocol: w.igp.protocol, nextHop: a.neighborAddress, interface: a.interface, metric: a.cost, source: a.neighborAddress, distance: DISTANCE[w.igp.protocol]! }));
      }
    }
  } else {
    const v = w.vrfs.find((x) => x.name === vrf);
    if (v) for (const f of [4, 6] as const) for (const r of s.imported(v, f)) bgp(r);
  }
  // The sessions' routes are the bulk (one to three per session): sorted on numbers, shown only for the page.
  const sorted = subscribers instanceof SortedSubscriberRoutes ? subscribers : new SortedSubscriberRoutes(subscribers);
  const subs = family === null ? sorted.routes : sorted.routes.filter((r) => wants(r.route.family));
  const others = entries.map(stripVpn);
  // Per prefix, the lowest administrative distance is installed; a session's own route (distance 0) wins its prefix.
  const chosen = new Map<string, Entry>();
  for (const e of others) {
    e.best = false;
    const current = chosen.get(e.prefix);
    if (!current || e.distance < current.distance) chosen.set(e.prefix, e);
  }
  for (const e of chosen.values()) e.best = !hasSubscriberRoute(subs, e);
  others.sort((a, b) => compareEntries(a, b) || a.distance - b.distance);
  return mergedPage(
    protocol === null ? others : others.filter((e) => e.protocol === protocol),
    protocol === null || protocol === "subscriber" ? subs : [],
    query,
  );
}

interface SortedSubscriberRoute {
  route: SubscriberRoute;
  /** The address's top 53 bits (all of an IPv4 one): exact order but for rare IPv6 ties. */
  key: number;
}

/**
 * The sessions' routes in table order. Sorting 190,000 of them is most of a
 * page's cost, and they only change when the sessions do, so the appliance
 * keeps the last sorted set and pages through it (durable-objects/routing.ts).
 */
export class SortedSubscriberRoutes {
  readonly routes: readonly SortedSubscriberRoute[];

  constructor(routes: readonly SubscriberRoute[]) {
    const keyed = routes.map((route) => ({ route, key: route.family === 4 ? Number(route.base) : Number(route.base >> 75n) }));
    keyed.sort((a, b) => compareSubscriber(a, b));
    this.routes = keyed;
  }
}

function compareSubscriber(a: SortedSubscriberRoute, b: SortedSubscriberRoute): number {
  return a.route.family - b.route.family || a.key - b.key || (a.route.base < b.route.base ? -1 : a.route.base > b.route.base ? 1 : 0) || a.route.length - b.route.length;
}

/** Whether a session's own route has exactly this prefix (binary search of the sorted routes). */
function hasSubscriberRoute(sorted: readonly SortedSubscriberRoute[], e: Entry): boolean {
  const probe: SortedSubscriberRoute = { route: { family: e.family, base: e.base, length: e.length, interface: "" }, key: e.family === 4 ? Number(e.base) : Number(e.base >> 75n) };
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const c = compareSubscriber(sorted[mid]!, probe);
    if (c === 0) return true;
    if (c < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

const subscriberText = (r: SubscriberRoute) => `${formatAddress(r.family, r.base)}/${r.length}`;

/** The page of two sorted runs of routes merged by family and prefix, filtered by `filter`. */
function mergedPage(others: Entry[], subs: readonly SortedSubscriberRoute[], query: RouteQuery): RoutePage {
  const { offset, limit } = pageWindow(query.offset, query.limit, ROUTES_DEFAULT_LIMIT, ROUTES_MAX_LIMIT);
  const needle = query.filter?.trim().toLowerCase() ?? "";
  const keptOthers = needle === "" ? others : others.filter((e) => [e.prefix, e.nextHop, e.asPath, e.protocol].some((f) => f !== null && f.toLowerCase().includes(needle)));
  // Only the prefix and the protocol of a session's route can match (it has no next hop or AS path).
  const keptSubs = needle === "" || "subscriber".includes(needle) ? subs : subs.filter((r) => subscriberText(r.route).includes(needle));
  const routes: Route[] = [];
  let i = 0;
  let j = 0;
  for (let n = 0; n < offset + limit && (i < keptOthers.length || j < keptSubs.length); n++) {
    const o = keptOthers[i];
    const r = keptSubs[j];
    const order =
      o === undefined ? 1 : r === undefined ? -1 : o.family - r.route.family || (o.base < r.route.base ? -1 : o.base > r.route.base ? 1 : 0) || o.length - r.route.length || (o.distance > 0 ? 1 : -1);
    if (order < 0) {
      if (n >= offset) routes.push(wire(o!));
      i++;
    } else {
      if (n >= offset) routes.push({ prefix: subscriberText(r!.route), nextHop: null, protocol: "subscriber", interface: r!.route.interface, metric: 0, localPref: null, asPath: null, origin: null, best: true });
      j++;
    }
  }
  return { reachable: true, total: keptOthers.length + keptSubs.length, offset, limit, routes };
}
