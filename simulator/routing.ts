/**
 * BGP (and, with rib.ts, the route tables) as a pure function of what the appliance is
 * configured with (neighbors, VRFs, pools, static routes, GRE circuits, local
 * subscribers' framed routes, the IGP), the live sessions, the seed and the
 * simulated clock. Nothing is stored but when each neighbor was last
 * (re)configured, so every endpoint reading one instant sees the same numbers:
 * a summary row's `prefixesReceived`/`prefixesSent` are the totals of that
 * neighbor's received and advertised route pages.
 *
 * Sessions. After a (re)configuration a neighbor goes Idle → Connect (some
 * through Active, when the first TCP connect fails) → OpenSent → OpenConfirm
 * → Established within 5-45 s. About one hour in ten a neighbor's path fails
 * for 30-300 s (never in its first ten minutes up): with BFD the session drops
 * at once, without it only when the hold timer expires, so a short outage
 * leaves it up; when the path is back it comes up again the same way.
 * `shutdown` holds it in `Idle (Admin)`.
 *
 * What a neighbor sends (stable per seed and neighbor address):
 * - ipv4Unicast / ipv6Unicast: a default route and 4-12 (3-8) upstream
 *   prefixes, sometimes one more-specific than /24 (/48) that the inbound
 *   policy rejects (received, not accepted);
 * - ipv4Vpn / ipv6Vpn: for each route target this box imports (the route
 *   reflector honours RT Constraint, RFC 4684) some remote-site prefixes and,
 *   for half of them, a default route, with the remote PE's RD.
 *
 * What this box advertises is what it originates (it carries no transit): per
 * VRF, the announced subnets of its address pools (CGN-translated pools
 * never), the CGN public subnets of the groups whose outside VRF it is,
 * static routes marked `announce`, local subscribers' framed routes, the
 * prefixes its GRE customers announce, and in a VRF with
 * `originateDefaultRoute` a default route. The global table's go to
 * ipv4Unicast/ipv6Unicast; a VRF's, when it has an RD and export route
 * targets, to ipv4Vpn/ipv6Vpn with them. GRE customers' BGP sessions are
 * peers in their VRF: they receive the VRF's table.
 */
import { hashBetween, latestOutage, phaseAt, textKey, type FlapPolicy, type Phase } from "./flaps.ts";
import { pageWindow } from "./paging.ts";
import { familyBits, formatAddress, formatIpv4, parseAddress, parsePrefix, type Family } from "./prefix.ts";
import { hash32, hashUnit } from "./random.ts";
import { AFI_SAFIS, type AfiSafi } from "./vocabulary.ts";
import type { BgpNeighbor, BgpSummary, BgpSummaryRow, IgpStatus, Route, RoutePage } from "../src/schemas/routing.ts";

/**
 * LOCAL_PREF the best-path selection assumes for a route that carries none (eBGP-learned): every implementation's
 * default.
 */
const DEFAULT_LOCAL_PREF = 100;

export const afiFamily = (af: AfiSafi): Family => (af.startsWith("ipv4") ? 4 : 6);
export const isVpn = (af: AfiSafi): boolean => af.endsWith("Vpn");

export type BgpState = "Idle" | "Connect" | "Active" | "OpenSent" | "OpenConfirm" | "Established" | "Idle (Admin)";
export type Origin = "IGP" | "EGP" | "incomplete";

/** A global-table neighbor as configured (`bgp.neighbors`), with when its session was last (re)started. */
export interface BgpNeighborConfig {
  address: string;
  remoteAs: number;
  description: string | null;
  bfd: boolean;
  /** Never empty: the configuration's list, or the unicast family of the address. */
  addressFamilies: AfiSafi[];
  holdTime: number;
  keepAlive: number;
  shutdown: boolean;
  provisionedMs: number;
}

export interface VrfRouting {
  name: string;
  rd: string | null;
  importRt: string[];
  exportRt: string[];
  originateDefaultRoute: boolean;
}

/** A running address pool's routing half. */
export interface PoolRouting {
  family: "ipv4" | "ipv6-wan" | "ipv6-pd";
  /** `default` = the global table. */
  vrf: string;
  cgnTranslated: boolean;
  subnets: { prefix: string; announce: boolean }[];
}

export interface StaticRoute {
  vrf: string;
  prefix: string;
  /** Null = discard (blackhole). */
  nextHop: string | null;
  distance: number;
  announce: boolean;
}

/** A route to an online local subscriber's routed prefix (RFC 2865 Framed-Route). */
export interface FramedRoute {
  vrf: string;
  prefix: string;
  nextHop: string | null;
  interface: string;
}

/** A GRE circuit with BGP: a peer in the circuit's VRF, its state read from the circuit model. */
export interface CircuitPeer {
  id: string;
  vrf: string;
  /** The far end inside the tunnel (the BGP peer). */
  address: string;
  /** This end inside the tunnel, `address/length`. */
  localAddress: string;
  remoteAs: number;
  description: string;
  bfd: boolean;
  state: "Established" | "Active" | "Idle";
  /** Prefixes the customer announces while Established. */
  prefixes: number;
  lastChangeMs: number;
  tunnelUp: boolean;
}

/** A live session's route (its IPv4 /32, IPv6 WAN prefix or delegated prefix). */
export interface SubscriberRoute {
  family: Family;
  base: bigint;
  length: number;
  interface: string;
}

/** Everything the routing model reads at one instant. */
export interface RoutingWorld {
  seed: number;
  nowMs: number;
  daemonUp: boolean;
  localAs: number | null;
  routerId: string;
  neighbors: BgpNeighborConfig[];
  vrfs: VrfRouting[];
  pools: PoolRouting[];
  cgnPublic: { vrf: string; prefix: string }[];
  statics: StaticRoute[];
  framed: FramedRoute[];
  circuits: CircuitPeer[];
  igp: IgpStatus;
}

export interface RouteQuery {
  filter?: string | null | undefined;
  offset?: number | null | undefined;
  limit?: number | null | undefined;
}

/** Page size of route pages: default 50, clamped to 1-500 (spec Limits, BGP neighbor routes). */
export const ROUTES_DEFAULT_LIMIT = 50;
export const ROUTES_MAX_LIMIT = 500;

/** The session's path fails about one hour in ten. */
export const NEIGHBOR_FLAPS: FlapPolicy = {
  slotMs: 3_600_000,
  probability: 0.1,
  minMs: 30_000,
  maxMs: 300_000,
  tailMs: 600_000,
  salt: 41,
};
/** No flap this soon after a session first comes up, so a bring-up reads cleanly. */
export const NEIGHBOR_SETTLE_MS = 600_000;

/** Administrative distances (FRR's): the route a table installs for a prefix is the one with the lowest. */
export const DISTANCE: Record<string, number> = {
  connected: 0,
  subscriber: 0,
  framed: 1,
  cgn: 1,
  ebgp: 20,
  ospf: 110,
  isis: 115,
  ibgp: 200,
};

// ── sessions ───────────────────────────────────────────────────────────────

export interface SessionState {
  state: BgpState;
  /** When the session reached Established; null while it is not. */
  establishedMs: number | null;
  lastChangeMs: number;
  /** The peer's BGP identifier, known once its OPEN arrived. */
  routerId: string | null;
  holdTime: number;
  keepAlive: number;
}

/** The peer's BGP identifier: its address for an IPv4 peer (loopback peering), a stable 10.x address otherwise. */
function peerRouterId(seed: number, address: string): string {
  const a = parseAddress(address);
  if (a?.family === 4) return formatAddress(4, a.value);
  return formatIpv4(((10 << 24) | (hash32(seed, textKey(address), 9) & 0xffffff)) >>> 0);
}

/** The state of a neighbor's session at `nowMs`. */
export function neighborSession(seed: number, n: BgpNeighborConfig, nowMs: number): SessionState {
  const key = textKey(n.address);
  // The peer's hold time is 90 or 180 s; the lower of the two is used, and the keepalive follows (RFC 4271 §4.2).
  const peerHold = hashUnit(seed, key, 3) < 0.7 ? 90 : 180;
  const holdTime = Math.min(n.holdTime, peerHold);
  const keepAlive = holdTime === n.holdTime ? n.keepAlive : Math.floor(holdTime / 3);
  const base = { holdTime, keepAlive };
  if (n.shutdown)
    return { ...base, state: "Idle (Admin)", establishedMs: null, lastChangeMs: n.provisionedMs, routerId: null };
  const bringUp = (startMs: number): Phase<BgpState>[] => {
    const g = key ^ Math.floor(startMs / 1000);
    const phases: Phase<BgpState>[] = [{ atMs: startMs, state: "Idle" }];
    let at = startMs + hashBetween(seed, g, 11, 1_000, 5_000);
    phases.push({ atMs: at, state: "Connect" });
    at += hashBetween(seed, g, 12, 1_000, 8_000);
    if (hashUnit(seed, g, 13) < 0.4) {
      // The first TCP connect failed: Active until the connect-retry timer, then the peer's connection is accepted.
      phases.push({ atMs: at, state: "Active" });
      at += hashBetween(seed, g, 14, 5_000, 20_000);
    }
    phases.push({ atMs: at, state: "OpenSent" });
    at += hashBetween(seed, g, 15, 1_000, 4_000);
    phases.push({ atMs: at, state: "OpenConfirm" });
    at += hashBetween(seed, g, 16, 1_000, 3_000);
    phases.push({ atMs: at, state: "Established" });
    return phases;
  };
  let phases = bringUp(n.provisionedMs);
  const upMs = phases[phases.length - 1]!.atMs;
  const outage = latestOutage(seed, key, NEIGHBOR_FLAPS, upMs + NEIGHBOR_SETTLE_MS, nowMs);
  if (outage) {
    const endMs = outage.startMs + outage.lengthMs;
    // BFD notices at once; otherwise the hold timer must expire, and an outage shorter than it goes unnoticed.
    const dropMs = n.bfd
      ? outage.startMs
      : outage.startMs + holdTime * 1000 < endMs
        ? outage.startMs + holdTime * 1000
        : null;
    if (dropMs !== null) {
      const again = bringUp(endMs);
      // Down, the session retries: Active (connect failures) until the path is back.
      phases = [
        { atMs: upMs, state: "Established" },
        { atMs: dropMs, state: "Idle" },
        { atMs: dropMs + 1_000, state: "Active" },
        ...again.slice(1),
      ];
    }
  }
  const current = phaseAt(phases, nowMs);
  const known = current.state === "OpenConfirm" || current.state === "Established";
  return {
    ...base,
    state: current.state,
    establishedMs: current.state === "Established" ? current.atMs : null,
    lastChangeMs: current.atMs,
    routerId: known ? peerRouterId(seed, n.address) : null,
  };
}

// ── routes ─────────────────────────────────────────────────────────────────

/** Attributes a route may not have: the models hold them as null, the wire as the spec's "none" (see `wire`). */
type Optional = "nextHop" | "interface" | "metric" | "localPref" | "asPath" | "origin";

/** A route as the models hold it: the wire Route plus its numbers and provenance (internal to the simulator). */
export interface Entry extends Omit<Route, Optional> {
  nextHop: string | null;
  interface: string | null;
  metric: number | null;
  localPref: number | null;
  asPath: string | null;
  origin: Origin | null;
  family: Family;
  base: bigint;
  length: number;
  accepted: boolean;
  /** Who it came from, for best-path ties and split horizon. */
  source: string;
  distance: number;
}

const UPSTREAM_V4_FIRST_OCTETS = [23, 31, 37, 45, 62, 77, 81, 85, 91, 109, 151, 176, 185, 193, 212, 217];
/** Documentation ASNs (RFC 5398) for the transit paths of upstream prefixes. */
const TRANSIT_ASNS = [64496, 64497, 64498, 64499, 64501, 64502, 64503, 64505, 65536, 65537, 65538, 65540, 65545, 65550];

function mask(family: Family, value: bigint, length: number): bigint {
  const host = BigInt(familyBits(family) - length);
  return (value >> host) << host;
}

function entry(
  family: Family,
  value: bigint,
  length: number,
  fields: Partial<Entry> & { protocol: string; source: string },
): Entry {
  const base = mask(family, value, length);
  return {
    prefix: `${formatAddress(family, base)}/${length}`,
    nextHop: null,
    interface: null,
    metric: null,
    localPref: null,
    asPath: null,
    origin: null,
    best: false,
    accepted: true,
    distance: 0,
    ...fields,
    family,
    base,
    length,
  };
}

export function fromText(prefix: string, fields: Partial<Entry> & { protocol: string; source: string }): Entry | null {
  const p = parsePrefix(prefix, false);
  return p ? entry(p.family, p.base, p.length, fields) : null;
}

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
export const compareEntries = (a: Entry, b: Entry): number =>
  a.family - b.family ||
  (a.rd === b.rd ? 0 : compareText(a.rd ?? "", b.rd ?? "")) ||
  (a.base < b.base ? -1 : a.base > b.base ? 1 : 0) ||
  a.length - b.length;

const routeKey = (e: Entry) => `${e.rd ?? ""}|${e.prefix}`;

function transitPath(seed: number, key: number, salt: number): string {
  const n = hashBetween(seed, key, salt, 1, 3);
  const path: number[] = [];
  for (let i = 0; i < n; i++) {
    const asn = TRANSIT_ASNS[hash32(seed, key, salt * 8 + i) % TRANSIT_ASNS.length]!;
    if (!path.includes(asn)) path.push(asn);
  }
  return path.join(" ");
}

const joinPath = (...parts: (string | number | null | undefined)[]) =>
  parts.filter((p) => p !== null && p !== undefined && p !== "").join(" ");

/** The routes a global neighbor sends in one address family (whether or not its session is up). */
function sentBy(w: RoutingWorld, n: BgpNeighborConfig, af: AfiSafi): Entry[] {
  const { seed } = w;
  const ibgp = w.localAs === n.remoteAs;
  const key = textKey(`${n.address}|${af}`);
  const common = {
    protocol: "bgp",
    nextHop: formatAddress(...addressOf(n.address)),
    source: n.address,
    localPref: ibgp ? 100 : null,
    distance: ibgp ? DISTANCE.ibgp! : DISTANCE.ebgp!,
  };
  const out: Entry[] = [];
  const seen = new Set<string>();
  const push = (e: Entry) => {
    if (seen.has(routeKey(e))) return;
    seen.add(routeKey(e));
    out.push(e);
  };
  const peerPath = (path: string) => (ibgp ? path : joinPath(n.remoteAs, path));
  if (!isVpn(af)) {
    const family = afiFamily(af);
    push(entry(family, 0n, 0, { ...common, asPath: peerPath(""), origin: "IGP", metric: 0 }));
    const count = family === 4 ? hashBetween(seed, key, 1, 4, 12) : hashBetween(seed, key, 1, 3, 8);
    for (let i = 0; i < count + 8 && out.length < count + 1; i++) {
      const h = hash32(seed, key, 100 + i);
      const g = hash32(seed, key, 200 + i);
      const value =
        family === 4
          ? BigInt(
              ((UPSTREAM_V4_FIRST_OCTETS[h % UPSTREAM_V4_FIRST_OCTETS.length]! << 24) |
                (((h >>> 8) & 255) << 16) |
                (((g >>> 8) & 255) << 8)) >>>
                0,
            )
          : ((0x2a00n + BigInt(h % 16)) << 112n) | (BigInt((h >>> 8) & 0xffff) << 96n) | (BigInt(g & 0xffff) << 80n);
      const length = family === 4 ? 16 + ((h >>> 24) % 9) : 29 + ((h >>> 24) % 20);
      push(
        entry(family, value, length, {
          ...common,
          asPath: peerPath(transitPath(seed, key, 300 + i)),
          origin: g % 10 === 0 ? "incomplete" : "IGP",
          metric: ((g >>> 4) % 5) * 10,
        }),
      );
    }
    if (hashUnit(seed, key, 2) < 0.5) {
      // A more-specific than the inbound policy accepts (longer than /24, /48): received, not accepted.
      const first = out[1]!;
      const longer = family === 4 ? 25 + (hash32(seed, key, 4) % 4) : 56;
      push(
        entry(family, first.base | (family === 4 ? 128n : 0n), Math.max(longer, first.length + 1), {
          ...common,
          asPath: first.asPath,
          origin: "IGP",
          metric: 0,
          accepted: false,
        }),
      );
    }
    return out;
  }
  // VPN: what the route reflector holds for the route targets this box imports (RT Constraint).
  const family = afiFamily(af);
  const targets = [...new Set(w.vrfs.flatMap((v) => v.importRt))].sort();
  for (const rt of targets) {
    const t = textKey(`${rt}|${af}|${n.address}`);
    const rd = `${n.remoteAs}:${hashBetween(seed, textKey(rt), 5, 1, 65535)}`;
    const vpn = { ...common, rd, routeTargets: [rt], origin: "IGP" as Origin, metric: 0 };
    if (hashUnit(seed, t, 6) < 0.5) push(entry(family, 0n, 0, { ...vpn, asPath: peerPath("") }));
    const sites = hashBetween(seed, t, 7, 1, 4);
    for (let i = 0; i < sites; i++) {
      const h = hash32(seed, t, 400 + i);
      const value =
        family === 4
          ? BigInt(((10 << 24) | ((h & 255) << 16) | (((h >>> 8) & 255) << 8)) >>> 0)
          : (0xfdn << 120n) | (BigInt(h) << 88n);
      const site = 64512 + ((h >>> 20) % 1000);
      push(entry(family, value, family === 4 ? 24 : 48, { ...vpn, asPath: peerPath(String(site)) }));
    }
  }
  return out;
}

function addressOf(text: string): [Family, bigint] {
  const a = parseAddress(text);
  return a ? [a.family, a.value] : [4, 0n];
}

/** The prefixes a GRE customer announces (stable per seed and circuit id). */
function sentByCircuit(w: RoutingWorld, c: CircuitPeer): Entry[] {
  if (c.state !== "Established") return [];
  const [family] = addressOf(c.address);
  const h = hash32(w.seed, textKey(c.id), 1);
  const common = {
    protocol: "bgp",
    nextHop: c.address,
    interface: `gre-${c.id}`.slice(0, 15),
    source: `circuit:${c.id}`,
    asPath: String(c.remoteAs),
    origin: "IGP" as Origin,
    metric: 0,
    distance: DISTANCE.ebgp!,
  };
  const out: Entry[] = [];
  for (let i = 0; i < c.prefixes; i++) {
    const value =
      family === 4
        ? BigInt(((172 << 24) | ((16 + (h % 16)) << 16) | ((((h >>> 4) % 200) + i) << 8)) >>> 0)
        : (0xfdn << 120n) | (BigInt(h & 0xffffff) << 96n) | (BigInt(i) << 80n);
    out.push(entry(family, value, family === 4 ? 24 : 48, common));
  }
  return out;
}

/** Best-path selection (RFC 4271 §9.1.2.2, as FRR orders it) among the accepted routes of one prefix. */
function markBest(entries: Entry[]): void {
  const originRank = { IGP: 0, EGP: 1, incomplete: 2 } as const;
  const pathLength = (e: Entry) => (e.asPath ? e.asPath.split(" ").length : 0);
  const better = (a: Entry, b: Entry): boolean => {
    const lp = (a.localPref ?? DEFAULT_LOCAL_PREF) - (b.localPref ?? DEFAULT_LOCAL_PREF);
    if (lp !== 0) return lp > 0;
    if (pathLength(a) !== pathLength(b)) return pathLength(a) < pathLength(b);
    if (a.origin !== b.origin) return originRank[a.origin ?? "incomplete"] < originRank[b.origin ?? "incomplete"];
    if ((a.metric ?? 0) !== (b.metric ?? 0)) return (a.metric ?? 0) < (b.metric ?? 0);
    if (a.distance !== b.distance) return a.distance < b.distance;
    const [, x] = addressOf(a.nextHop ?? "");
    const [, y] = addressOf(b.nextHop ?? "");
    return x < y;
  };
  const best = new Map<string, Entry>();
  for (const e of entries) {
    e.best = false;
    if (!e.accepted) continue;
    const current = best.get(routeKey(e));
    if (!current || better(e, current)) best.set(routeKey(e), e);
  }
  for (const e of best.values()) e.best = true;
}

/** A read of the world at one instant: sessions and the routes each peer sent, computed once (shared with rib.ts). */
export class Snapshot {
  readonly w: RoutingWorld;
  readonly sessions: Map<BgpNeighborConfig, SessionState>;
  readonly #received = new Map<string, Entry[]>();
  readonly #originated = new Map<string, Entry[]>();

  constructor(w: RoutingWorld) {
    this.w = w;
    this.sessions = new Map(w.neighbors.map((n) => [n, neighborSession(w.seed, n, w.nowMs)]));
    // Best paths are chosen across every neighbor's routes of a family, so all are gathered first.
    for (const af of AFI_SAFIS) {
      const all: Entry[] = [];
      for (const n of w.neighbors) {
        const up = this.sessions.get(n)!.state === "Established" && n.addressFamilies.includes(af);
        const routes = up ? sentBy(w, n, af) : [];
        this.#received.set(`${n.address}|${af}`, routes);
        all.push(...routes);
      }
      markBest(all);
    }
    for (const c of w.circuits) {
      const routes = sentByCircuit(w, c);
      markBest(routes);
      this.#received.set(`circuit:${c.id}`, routes);
    }
  }

  get running(): boolean {
    return this.w.daemonUp && (this.w.neighbors.length > 0 || this.w.circuits.length > 0);
  }

  received(n: BgpNeighborConfig, af: AfiSafi): Entry[] {
    return this.#received.get(`${n.address}|${af}`) ?? [];
  }

  receivedFromCircuit(c: CircuitPeer): Entry[] {
    return this.#received.get(`circuit:${c.id}`) ?? [];
  }

  /**
   * What the VRF originates in a family: the routes it exports to the VPN (or, for `default`, to its unicast
   * neighbors).
   */
  originated(vrf: string, family: Family): Entry[] {
    const cacheKey = `${vrf}|${family}`;
    const cached = this.#originated.get(cacheKey);
    if (cached) return cached;
    const w = this.w;
    const out: Entry[] = [];
    const seen = new Set<string>();
    const push = (e: Entry | null) => {
      if (!e || e.family !== family || seen.has(e.prefix)) return;
      seen.add(e.prefix);
      out.push(e);
    };
    const v = w.vrfs.find((x) => x.name === vrf);
    if (v?.originateDefaultRoute && family === 4)
      push(entry(4, 0n, 0, { protocol: "bgp", origin: "IGP", source: "local" }));
    for (const pool of w.pools) {
      if (pool.vrf !== vrf || pool.cgnTranslated) continue;
      for (const s of pool.subnets)
        if (s.announce) push(fromText(s.prefix, { protocol: "connected", origin: "IGP", source: "local" }));
    }
    for (const c of w.cgnPublic)
      if (c.vrf === vrf) push(fromText(c.prefix, { protocol: "cgn", origin: "IGP", source: "local" }));
    for (const s of w.statics)
      if (s.vrf === vrf && s.announce)
        push(fromText(s.prefix, { protocol: "static", origin: "incomplete", source: "local" }));
    for (const f of w.framed)
      if (f.vrf === vrf) push(fromText(f.prefix, { protocol: "framed", origin: "incomplete", source: "local" }));
    for (const c of w.circuits) {
      if (c.vrf !== vrf) continue;
      for (const r of this.receivedFromCircuit(c)) if (r.best) push({ ...r, interface: null });
    }
    out.sort(compareEntries);
    this.#originated.set(cacheKey, out);
    return out;
  }

  /**
   * The VPN routes a VRF imports: best received VPN routes carrying one of
   * its import route targets, and what another VRF of this box exports with
   * one of them (leaking between local VRFs by matching route targets, as a
   * PE imports its own VPN routes without a round trip through a neighbor).
   */
  imported(vrf: VrfRouting, family: Family): Entry[] {
    const af: AfiSafi = family === 4 ? "ipv4Vpn" : "ipv6Vpn";
    const out: Entry[] = [];
    for (const n of this.w.neighbors) {
      for (const r of this.received(n, af)) {
        if (r.best && (r.routeTargets ?? []).some((rt) => vrf.importRt.includes(rt))) out.push(r);
      }
    }
    for (const other of this.w.vrfs) {
      if (other.name === vrf.name || !other.exportRt.some((rt) => vrf.importRt.includes(rt))) continue;
      for (const e of this.originated(other.name, family))
        out.push({ ...e, rd: other.rd ?? undefined, routeTargets: [...other.exportRt], best: true });
    }
    return out;
  }

  /** What this box sends a global neighbor in one family. */
  advertisedTo(n: BgpNeighborConfig, af: AfiSafi): Entry[] {
    const w = this.w;
    if (this.sessions.get(n)?.state !== "Established" || !n.addressFamilies.includes(af)) return [];
    const family = afiFamily(af);
    const ibgp = w.localAs === n.remoteAs;
    const nextHop = family === 4 ? w.routerId : localV6(n.address, w.routerId);
    const sources: Entry[] = isVpn(af)
      ? w.vrfs
          .filter((v) => v.rd && v.exportRt.length > 0)
          .flatMap((v) =>
            this.originated(v.name, family).map((e) => ({ ...e, rd: v.rd!, routeTargets: [...v.exportRt] })),
          )
      : this.originated("default", family);
    return sources
      .map((e) => ({
        ...e,
        nextHop,
        interface: null,
        metric: 0,
        localPref: ibgp ? 100 : null,
        asPath: ibgp ? (e.asPath ?? "") : joinPath(w.localAs, e.asPath),
        best: true,
      }))
      .sort(compareEntries);
  }

  /**
   * What this box sends a GRE customer: its VRF's table (what the VRF originates and imports), less the customer's own
   * routes.
   */
  advertisedToCircuit(c: CircuitPeer): Entry[] {
    if (c.state !== "Established") return [];
    const w = this.w;
    const [family] = addressOf(c.address);
    const v = w.vrfs.find((x) => x.name === c.vrf);
    const seen = new Set<string>();
    const nextHop = c.localAddress.split("/")[0]!;
    const out: Entry[] = [];
    for (const e of [...this.originated(c.vrf, family), ...(v ? this.imported(v, family) : [])]) {
      if (e.source === `circuit:${c.id}` || seen.has(e.prefix)) continue;
      seen.add(e.prefix);
      out.push({
        ...e,
        rd: undefined,
        routeTargets: undefined,
        nextHop,
        interface: null,
        metric: 0,
        localPref: null,
        asPath: joinPath(w.localAs, e.asPath),
        best: true,
      });
    }
    return out.map(stripVpn).sort(compareEntries);
  }
}

export const stripVpn = (e: Entry): Entry => {
  const { rd: _rd, routeTargets: _rt, ...rest } = e;
  return rest as Entry;
};

/**
 * This end of an IPv6 session: the peer's address with its low bits flipped (a /126 or /127 link), or an IPv4-mapped
 * router id over IPv4.
 */
function localV6(peer: string, routerId: string): string {
  const a = parseAddress(peer);
  if (a?.family !== 6) return `::ffff:${routerId}`;
  const low = a.value & 3n;
  return formatAddress(6, a.value - low + (low === 1n ? 2n : low === 2n ? 1n : low === 0n ? 1n : 2n));
}

const sameAddress = (a: string, b: string): boolean => {
  const x = parseAddress(a.trim());
  const y = parseAddress(b.trim());
  return x !== null && y !== null ? x.family === y.family && x.value === y.value : a === b;
};

/**
 * The wire Route of an entry. The spec does not mark Route's fields nullable,
 * so an attribute a route does not have (or did not carry) is the spec's
 * "none" for its type: an empty string, and 0 for a number.
 */
export function wire(e: Entry): Route {
  const route: Route = {
    prefix: e.prefix,
    nextHop: e.nextHop ?? "",
    protocol: e.protocol,
    interface: e.interface ?? "",
    metric: e.metric ?? 0,
    localPref: e.localPref ?? 0,
    asPath: e.asPath ?? "",
    origin: e.origin ?? "",
    best: e.best,
  };
  if (e.rd !== undefined) route.rd = e.rd;
  if (e.routeTargets !== undefined) route.routeTargets = [...e.routeTargets];
  return route;
}

export function page(entries: Entry[], query: RouteQuery, reachable = true): RoutePage {
  const { offset, limit } = pageWindow(query.offset, query.limit, ROUTES_DEFAULT_LIMIT, ROUTES_MAX_LIMIT);
  const needle = query.filter?.trim().toLowerCase() ?? "";
  const kept =
    needle === ""
      ? entries
      : entries.filter((e) =>
          [e.prefix, e.nextHop, e.asPath, e.protocol].some((f) => f !== null && f.toLowerCase().includes(needle)),
        );
  return { reachable, total: kept.length, offset, limit, routes: kept.slice(offset, offset + limit).map(wire) };
}

// ── the reads ──────────────────────────────────────────────────────────────

type Peer = { kind: "neighbor"; n: BgpNeighborConfig } | { kind: "circuit"; c: CircuitPeer };

function findPeer(w: RoutingWorld, address: string, vrf?: string | null): Peer | null {
  if (!vrf || vrf === "default") {
    const n = w.neighbors.find((x) => sameAddress(x.address, address));
    if (n) return { kind: "neighbor", n };
  }
  const c = w.circuits.find((x) => sameAddress(x.address, address) && (!vrf || x.vrf === vrf));
  return c ? { kind: "circuit", c } : null;
}

/**
 * The spec's BgpSummary: one row per peer per address family, global neighbors (configuration order) then GRE
 * customers.
 */
export function bgpSummary(w: RoutingWorld): BgpSummary {
  const s = new Snapshot(w);
  if (!s.running) return { reachable: false, localAs: w.localAs, routerId: w.routerId, peers: [] };
  const rows: BgpSummaryRow[] = [];
  for (const n of w.neighbors) {
    const session = s.sessions.get(n)!;
    for (const af of n.addressFamilies) {
      rows.push({
        peer: n.address,
        vrf: "default",
        // Summary rows are not nullable in the spec: an empty description, and 0 s of uptime while not Established.
        description: n.description ?? "",
        remoteAs: n.remoteAs,
        state: session.state,
        uptimeSeconds: session.establishedMs === null ? 0 : Math.floor((w.nowMs - session.establishedMs) / 1000),
        prefixesReceived: s.received(n, af).length,
        prefixesSent: s.advertisedTo(n, af).length,
        afiSafi: af,
      });
    }
  }
  for (const c of w.circuits) {
    rows.push({
      peer: c.address,
      vrf: c.vrf,
      description: c.description === "" ? `GRE circuit ${c.id}` : c.description,
      remoteAs: c.remoteAs,
      state: c.state,
      uptimeSeconds: c.state === "Established" ? Math.floor((w.nowMs - c.lastChangeMs) / 1000) : 0,
      prefixesReceived: s.receivedFromCircuit(c).length,
      prefixesSent: s.advertisedToCircuit(c).length,
      afiSafi: addressOf(c.address)[0] === 4 ? "ipv4Unicast" : "ipv6Unicast",
    });
  }
  return { reachable: true, localAs: w.localAs, routerId: w.routerId, peers: rows };
}

const unknownNeighbor = (address: string): BgpNeighbor => ({
  reachable: false,
  peer: address,
  vrf: null,
  description: null,
  remoteAs: null,
  localAs: null,
  state: "Unknown",
  uptimeSeconds: null,
  routerId: null,
  localRouterId: null,
  holdTime: null,
  keepAlive: null,
  bfd: false,
  addressFamilies: [],
});

/**
 * The spec's BgpNeighbor; `reachable` false (never an error) when the daemon cannot be asked or no such peer is
 * configured.
 */
export function bgpNeighbor(w: RoutingWorld, address: string, vrf?: string | null): BgpNeighbor {
  const s = new Snapshot(w);
  const peer = s.running ? findPeer(w, address, vrf) : null;
  if (!peer) return unknownNeighbor(address);
  if (peer.kind === "circuit") {
    const c = peer.c;
    const af: AfiSafi = addressOf(c.address)[0] === 4 ? "ipv4Unicast" : "ipv6Unicast";
    const received = s.receivedFromCircuit(c);
    return {
      reachable: true,
      peer: c.address,
      vrf: c.vrf,
      description: c.description === "" ? `GRE circuit ${c.id}` : c.description,
      remoteAs: c.remoteAs,
      localAs: w.localAs,
      state: c.state,
      uptimeSeconds: c.state === "Established" ? Math.floor((w.nowMs - c.lastChangeMs) / 1000) : null,
      routerId: c.state === "Established" ? peerRouterId(w.seed, c.address) : null,
      localRouterId: w.routerId,
      holdTime: 90,
      keepAlive: 30,
      bfd: c.bfd,
      addressFamilies: [
        {
          afiSafi: af,
          received: received.length,
          accepted: received.filter((r) => r.accepted).length,
          advertised: s.advertisedToCircuit(c).length,
        },
      ],
    };
  }
  const n = peer.n;
  const session = s.sessions.get(n)!;
  const established = session.state === "Established";
  return {
    reachable: true,
    peer: n.address,
    vrf: "default",
    description: n.description,
    remoteAs: n.remoteAs,
    localAs: w.localAs,
    state: session.state,
    uptimeSeconds: session.establishedMs === null ? null : Math.floor((w.nowMs - session.establishedMs) / 1000),
    routerId: session.routerId,
    localRouterId: w.routerId,
    holdTime: established ? session.holdTime : n.holdTime,
    keepAlive: established ? session.keepAlive : n.keepAlive,
    bfd: n.bfd,
    addressFamilies: n.addressFamilies.map((af) => {
      const received = s.received(n, af);
      return {
        afiSafi: af,
        received: received.length,
        accepted: received.filter((r) => r.accepted).length,
        advertised: s.advertisedTo(n, af).length,
      };
    }),
  };
}

export interface NeighborRouteQuery extends RouteQuery {
  type?: "advertised" | "received" | null | undefined;
  af?: AfiSafi | null | undefined;
  vrf?: string | null | undefined;
}

/**
 * The spec's RoutePage of one neighbor: what it was sent (`advertised`, the
 * default) or what it sent (`received`, before the inbound policy: rejected
 * routes read `best` false). `af` omitted = the neighbor's first address
 * family. An unknown neighbor reads `reachable` false, as its detail does; an
 * address family it does not carry, an empty page.
 */
export function neighborRoutes(w: RoutingWorld, address: string, query: NeighborRouteQuery = {}): RoutePage {
  const s = new Snapshot(w);
  const peer = s.running ? findPeer(w, address, query.vrf) : null;
  if (!peer) return page([], query, false);
  const received = query.type === "received";
  if (peer.kind === "circuit") {
    const af: AfiSafi = addressOf(peer.c.address)[0] === 4 ? "ipv4Unicast" : "ipv6Unicast";
    if (query.af && query.af !== af) return page([], query);
    return page(
      received ? [...s.receivedFromCircuit(peer.c)].sort(compareEntries) : s.advertisedToCircuit(peer.c),
      query,
    );
  }
  const af = query.af ?? peer.n.addressFamilies[0]!;
  return page(received ? [...s.received(peer.n, af)].sort(compareEntries) : s.advertisedTo(peer.n, af), query);
}
