/**
 * A VRF's routing table (RIB) at one instant: what the routing model
 * (routing.ts) installed from BGP, plus the connected subnets, the live
 * sessions' own routes, framed, static and CGN routes and the IGP's. The
 * sessions' routes are the bulk (one to three per session, 128,000 sessions
 * on the large profile): they come as a list in table order read in place
 * (subscriber-route-index.ts), the other routes are placed among them by
 * binary search, and only the page asked for is rendered.
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
export function vrfRoutes(
  w: RoutingWorld,
  vrf: string,
  subscribers: readonly SubscriberRoute[] | SubscriberRouteList,
  query: VrfRouteQuery = {},
): RoutePage {
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
    for (const sub of pool.subnets)
      add(
        fromText(sub.prefix, {
          protocol: "connected",
          interface: subscriberInterface,
          metric: 0,
          source: "local",
          distance: DISTANCE.connected!,
        }),
      );
  }
  for (const f of w.framed)
    if (f.vrf === vrf)
      add(
        fromText(f.prefix, {
          protocol: "framed",
          nextHop: f.nextHop,
          interface: f.interface,
          metric: 0,
          source: "local",
          distance: DISTANCE.framed!,
        }),
      );
  for (const st of w.statics) {
    if (st.vrf !== vrf) continue;
    add(
      fromText(st.prefix, {
        protocol: "static",
        nextHop: st.nextHop,
        interface: st.nextHop === null ? "blackhole" : null,
        metric: 0,
        source: "local",
        distance: st.distance,
      }),
    );
  }
  for (const c of w.cgnPublic)
    if (c.vrf === vrf)
      add(
        fromText(c.prefix, { protocol: "cgn", interface: "cgn0", metric: 0, source: "local", distance: DISTANCE.cgn! }),
      );
  for (const c of w.circuits) {
    if (c.vrf !== vrf) continue;
    if (c.tunnelUp)
      add(
        fromText(c.localAddress, {
          protocol: "connected",
          interface: `gre-${c.id}`.slice(0, 15),
          metric: 0,
          source: "local",
          distance: DISTANCE.connected!,
        }),
      );
    for (const r of s.receivedFromCircuit(c)) if (r.accepted) add({ ...r });
  }
  const bgp = (r: Entry) => add({ ...r, rd: undefined, routeTargets: undefined, interface: null });
  if (vrf === "default") {
    for (const af of ["ipv4Unicast", "ipv6Unicast"] as const)
      for (const n of w.neighbors) for (const r of s.received(n, af)) if (r.best) bgp(r);
    if (w.igp.reachable && w.igp.protocol !== "none") {
      for (const i of w.igp.interfaces)
        add(
          fromText(i.address, {
            protocol: "connected",
            interface: i.name,
            metric: 0,
            source: "local",
            distance: DISTANCE.connected!,
          }),
        );
      const final = w.igp.protocol === "ospf" ? "Full" : "Up";
      for (const a of w.igp.adjacencies) {
        if (a.state !== final) continue;
        add(
          fromText(`${adjacencyLoopback(a)}/32`, {
            protocol: w.igp.protocol,
            nextHop: a.neighborAddress,
            interface: a.interface,
            metric: a.cost,
            source: a.neighborAddress,
            distance: DISTANCE[w.igp.protocol]!,
          }),
        );
      }
    }
  } else {
    const v = w.vrfs.find((x) => x.name === vrf);
    if (v) for (const f of [4, 6] as const) for (const r of s.imported(v, f)) bgp(r);
  }
  // The sessions' routes are the bulk (one to three per session): sorted on numbers, rendered only for the page.
  const sorted = Array.isArray(subscribers)
    ? new SortedSubscriberRoutes(subscribers)
    : (subscribers as SubscriberRouteList);
  const subs = family === null ? sorted : ofFamily(sorted, family);
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
    protocol === null || protocol === "subscriber" ? subs : emptyList,
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
export class SortedSubscriberRoutes implements SubscriberRouteList {
  readonly routes: readonly SortedSubscriberRoute[];

  constructor(routes: readonly SubscriberRoute[]) {
    const keyed = routes.map((route) => ({
      route,
      key: route.family === 4 ? Number(route.base) : Number(route.base >> 75n),
    }));
    keyed.sort((a, b) => compareSubscriber(a, b));
    this.routes = keyed;
  }

  get length(): number {
    return this.routes.length;
  }

  at(i: number): SubscriberRoute {
    return this.routes[i]!.route;
  }

  text(i: number): string {
    return subscriberText(this.routes[i]!.route);
  }
}

/** Sessions' routes in table order (family, address, length), read one at a time so a page renders only its own. */
export interface SubscriberRouteList {
  readonly length: number;
  at(i: number): SubscriberRoute;
  /** Route i's prefix as text (what a text filter reads), without building the route. */
  text(i: number): string;
}

const none = (): never => {
  throw new RangeError("no sessions' routes");
};
const emptyList: SubscriberRouteList = { length: 0, at: none, text: none };

/** The part of `list` in `family`: a range, since the table orders by family first. */
function ofFamily(list: SubscriberRouteList, family: Family): SubscriberRouteList {
  const start = lowerBound(list.length, (i) => list.at(i).family < family);
  const end = lowerBound(list.length, (i) => list.at(i).family <= family);
  return start === 0 && end === list.length
    ? list
    : { length: end - start, at: (i) => list.at(start + i), text: (i) => list.text(start + i) };
}

/** The first index in [0, n) where `before` turns false (it must be true on a prefix, false after). */
function lowerBound(n: number, before: (i: number) => boolean): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (before(mid)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Table order of two routes: family, then address, then length. */
const compareRoutes = (
  a: { family: Family; base: bigint; length: number },
  b: { family: Family; base: bigint; length: number },
): number => a.family - b.family || (a.base < b.base ? -1 : a.base > b.base ? 1 : 0) || a.length - b.length;

function compareSubscriber(a: SortedSubscriberRoute, b: SortedSubscriberRoute): number {
  return (
    a.route.family - b.route.family ||
    a.key - b.key ||
    (a.route.base < b.route.base ? -1 : a.route.base > b.route.base ? 1 : 0) ||
    a.route.length - b.route.length
  );
}

/** Whether a session's own route has exactly this prefix (binary search of the sorted routes). */
function hasSubscriberRoute(sorted: SubscriberRouteList, e: Entry): boolean {
  const i = lowerBound(sorted.length, (k) => compareRoutes(sorted.at(k), e) < 0);
  return i < sorted.length && compareRoutes(sorted.at(i), e) === 0;
}

const subscriberText = (r: SubscriberRoute) => `${formatAddress(r.family, r.base)}/${r.length}`;

/**
 * The page of two sorted runs of routes merged by family and prefix, filtered
 * by `filter`. Each other route's place among the sessions' routes is found by
 * binary search, so a page renders only its own routes, wherever it starts.
 */
function mergedPage(others: Entry[], subs: SubscriberRouteList, query: RouteQuery): RoutePage {
  const { offset, limit } = pageWindow(query.offset, query.limit, ROUTES_DEFAULT_LIMIT, ROUTES_MAX_LIMIT);
  const needle = query.filter?.trim().toLowerCase() ?? "";
  const keptOthers =
    needle === ""
      ? others
      : others.filter((e) =>
          [e.prefix, e.nextHop, e.asPath, e.protocol].some((f) => f !== null && f.toLowerCase().includes(needle)),
        );
  // Only the prefix and the protocol of a session's route can match (it has no next hop or AS path).
  const keptSubs = needle === "" || "subscriber".includes(needle) ? subs : matching(subs, needle);
  // On an equal prefix a route of distance 0 comes before the session's, any other after it (as the tables have always
  // listed them).
  const before = (o: Entry, r: SubscriberRoute) => (compareRoutes(o, r) || (o.distance > 0 ? 1 : -1)) < 0;
  // Other route k sits at merged position k + (the sessions' routes before it).
  const placed = keptOthers.map((o, k) => k + lowerBound(keptSubs.length, (j) => !before(o, keptSubs.at(j))));
  const total = keptOthers.length + keptSubs.length;
  const routes: Route[] = [];
  let k = lowerBound(placed.length, (i) => placed[i]! < offset);
  for (let n = offset; n < Math.min(total, offset + limit); n++) {
    if (placed[k] === n) {
      routes.push(wire(keptOthers[k]!));
      k++;
      continue;
    }
    const r = keptSubs.at(n - k);
    routes.push({
      prefix: subscriberText(r),
      nextHop: "",
      protocol: "subscriber",
      interface: r.interface,
      metric: 0,
      localPref: 0,
      asPath: "",
      origin: "",
      best: true,
    });
  }
  return { reachable: true, total, offset, limit, routes };
}

/** The sessions' routes whose prefix text contains `needle`. */
function matching(subs: SubscriberRouteList, needle: string): SubscriberRouteList {
  // IPv4 text has no ':' nor hex letters and IPv6 text (RFC 5952, no dotted tail) no '.': a needle with either rules a
  // family out unread.
  const split = lowerBound(subs.length, (i) => subs.at(i).family === 4);
  const kept: number[] = [];
  if (!/[:a-f]/.test(needle)) joinedTexts(subs, 0, split).find(needle, kept);
  if (!needle.includes(".")) joinedTexts(subs, split, subs.length).find(needle, kept);
  return { length: kept.length, at: (i) => subs.at(kept[i]!), text: (i) => subs.text(kept[i]!) };
}

/**
 * Routes [from, to) of a list as one text, a line each, and where each line
 * starts: one native substring search finds a filter's routes. Rendering
 * 190,000 prefixes is most of a text filter's cost, so a list keeps its
 * texts once built; the appliance keeps a list for as long as the sessions
 * do not change (durable-objects/routing.ts), and drops both together.
 */
class JoinedTexts {
  readonly #from: number;
  readonly #text: string;
  /** Line k's first character; one more entry, one past the last line's newline. */
  readonly #starts: Uint32Array;

  constructor(list: SubscriberRouteList, from: number, to: number) {
    const lines: string[] = new Array(to - from);
    const starts = new Uint32Array(to - from + 1);
    let at = 0;
    for (let i = from; i < to; i++) {
      const line = list.text(i);
      lines[i - from] = line;
      starts[i - from] = at;
      at += line.length + 1;
    }
    starts[to - from] = at;
    this.#from = from;
    this.#text = lines.join("\n");
    this.#starts = starts;
  }

  /** Appends the list indices whose line contains `needle`, in order. */
  find(needle: string, into: number[]): void {
    const text = this.#text;
    const starts = this.#starts;
    const lines = starts.length - 1;
    let line = 0;
    let at = text.indexOf(needle);
    while (at >= 0) {
      while (line < lines && starts[line + 1]! <= at) line++;
      if (line === lines) return;
      const next = starts[line + 1]!;
      // A match running over the line's end (a needle with a newline in it) is not this route's.
      if (at + needle.length < next) {
        into.push(this.#from + line);
        at = text.indexOf(needle, next);
      } else {
        at = text.indexOf(needle, at + 1);
      }
    }
  }
}

const joined = new WeakMap<SubscriberRouteList, Map<string, JoinedTexts>>();

function joinedTexts(list: SubscriberRouteList, from: number, to: number): JoinedTexts {
  let byRange = joined.get(list);
  if (byRange === undefined) joined.set(list, (byRange = new Map()));
  const key = `${from}-${to}`;
  let texts = byRange.get(key);
  if (texts === undefined) byRange.set(key, (texts = new JoinedTexts(list, from, to)));
  return texts;
}
