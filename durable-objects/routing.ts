/**
 * BGP, the IGP and the route tables as the Worker reaches them. The
 * configuration says what is configured, the data plane what runs (pools,
 * CGN, live sessions, the clock, daemon faults), the GRE store how the
 * customers' circuits are; this store remembers only when each BGP session
 * and IGP adjacency was last (re)started, and asks the pure models
 * (simulator/routing.ts, igp.ts) at the simulated instant. It follows the
 * configuration through the hot-apply event.
 */
import type { ConfigDocument, ConfigItem } from "../src/config/types.ts";
import {
  IGP_INTERFACES_LIST,
  NEIGHBORS_LIST,
  STATIC_ROUTES_LIST,
  fingerprintOf,
  igpInterfacesOf,
  igpProtocolOf,
  neighborsOf,
  routerIdOf,
  staticRoutesOf,
} from "../src/config/routing.ts";
import { LOCAL_LISTS } from "../src/config/local-subscribers.ts";
import { refuse, type Outcome } from "../src/schemas/outcome.ts";
import type { IgpStatus } from "../src/schemas/routing.ts";
import { igpStatus } from "../simulator/igp.ts";
import {
  bgpNeighbor,
  bgpSummary,
  neighborRoutes,
  neighborSession,
  type BgpNeighborConfig,
  type CircuitPeer,
  type FramedRoute,
  type NeighborRouteQuery,
  type RoutingWorld,
} from "../simulator/routing.ts";
import type { BgpNeighbor, BgpSummary, RoutePage } from "../src/schemas/routing.ts";
import { vrfRoutes, type SubscriberRouteList, type VrfRouteQuery } from "../simulator/rib.ts";
import type { WatchedState } from "../simulator/control-plane-watch.ts";
import type { DataPlane } from "./data-plane.ts";
import type { GreStore } from "./gre.ts";
import { Provisioning } from "./provisioning.ts";

export interface RoutingSources {
  /** The active configuration, secrets included (for fingerprints only). */
  document: () => ConfigDocument;
  dataPlane: DataPlane;
  gre: GreStore;
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);

export class RoutingStore {
  readonly #sources: RoutingSources;
  readonly #neighbors: Provisioning;
  readonly #adjacencies: Provisioning;
  #neighborStarts = new Map<string, number>();
  #adjacencyStarts = new Map<string, number>();
  /** The last VRF's sessions' routes in table order, with the sessions' version they were read at. */
  #subscriberCache: { key: string; routes: SubscriberRouteList } | null = null;

  constructor(sql: SqlStorage, sources: RoutingSources) {
    this.#sources = sources;
    this.#neighbors = new Provisioning(sql, "bgp-neighbor");
    this.#adjacencies = new Provisioning(sql, "igp-interface");
    this.sync();
  }

  /**
   * Follows the configuration (at open and on each commit touching routing):
   * a new neighbor, or one whose settings changed (or the local AS or router
   * id), starts its session afresh now; likewise an IGP interface, or all of
   * them when the protocol or router id changed.
   */
  sync(): void {
    const doc = this.#sources.document();
    const nowMs = this.#sources.dataPlane.clock().nowMs;
    const globals = { localAs: doc.fields["bgp.localAs"] ?? null, routerId: routerIdOf(doc) };
    const neighbors = (doc.lists[NEIGHBORS_LIST] ?? []).map((item) => ({
      name: item.key,
      fingerprint: fingerprintOf([item.values, globals]),
    }));
    this.#neighborStarts = this.#neighbors.follow(neighbors, nowMs).startedMs;
    const igp = { protocol: igpProtocolOf(doc), routerId: globals.routerId };
    const interfaces = (doc.lists[IGP_INTERFACES_LIST] ?? []).map((item) => ({
      name: item.key,
      fingerprint: fingerprintOf([item.values, igp]),
    }));
    this.#adjacencyStarts = this.#adjacencies.follow(interfaces, nowMs).startedMs;
  }

  /**
   * Scenario `reset-bgp`: the neighbor's session (every global neighbor's
   * when null) starts afresh now, Idle to Established again as after a
   * configuration change: a flap the watcher logs and alarms. Returns the
   * neighbors reset, none for an address that is not configured.
   */
  resetBgp(neighbor: string | null): string[] {
    const nowMs = this.#sources.dataPlane.clock().nowMs;
    const reset = this.#neighbors.restart(neighbor, nowMs);
    for (const name of reset) this.#neighborStarts.set(name, nowMs);
    return reset;
  }

  /** The spec's BgpSummary. */
  bgpSummary(): BgpSummary {
    return bgpSummary(this.#world());
  }

  /** The spec's BgpNeighbor (`reachable` false for an unknown peer). */
  bgpNeighbor(address: string, vrf: string | null): BgpNeighbor {
    return bgpNeighbor(this.#world(), address, vrf);
  }

  /** The spec's RoutePage of a neighbor. */
  neighborRoutes(address: string, query: NeighborRouteQuery): RoutePage {
    return neighborRoutes(this.#world(), address, query);
  }

  /** IGP adjacencies and interfaces. */
  igp(): IgpStatus {
    const doc = this.#sources.document();
    const { nowMs, seed } = this.#sources.dataPlane.clock();
    return this.#igp(doc, seed, nowMs);
  }

  /**
   * Each configured neighbor's session state now, or null while the routing daemon cannot be asked (the control-plane
   * watcher's sample).
   */
  neighborStates(): WatchedState[] | null {
    const dataPlane = this.#sources.dataPlane;
    if (!dataPlane.daemons().routing) return null;
    const { nowMs, seed } = dataPlane.clock();
    return this.#configuredNeighbors(this.#sources.document(), nowMs).map((n) => {
      const session = neighborSession(seed, n, nowMs);
      return { key: n.address, state: session.state, sinceMs: session.lastChangeMs };
    });
  }

  /** A VRF's routing table (`default` = the global table); 404 for a VRF that is not configured. */
  vrfRoutes(vrf: string, query: VrfRouteQuery): Outcome<{ page: RoutePage }> {
    const doc = this.#sources.document();
    if (vrf !== "default" && !(doc.lists.vrfs ?? []).some((v) => v.key === vrf))
      return refuse("not-found", `no VRF '${vrf}' is configured (the global table is 'default')`);
    const world = this.#world();
    const family = query.family === "ipv4" ? 4 : query.family === "ipv6" ? 6 : null;
    return {
      ok: true,
      page: vrfRoutes(world, vrf, world.daemonUp ? this.#sortedSubscriberRoutes(vrf, family) : [], query),
    };
  }

  /**
   * The sessions' routes of a VRF in table order, read again only when the sessions may have changed (the table reads
   * the live model lazily).
   */
  #sortedSubscriberRoutes(vrf: string, family: 4 | 6 | null): SubscriberRouteList {
    const key = `${vrf}\n${family}\n${this.#sources.dataPlane.sessionsVersion()}`;
    if (this.#subscriberCache?.key !== key)
      this.#subscriberCache = { key, routes: this.#sources.dataPlane.model.subscriberRoutes.table(vrf, family) };
    return this.#subscriberCache.routes;
  }

  #igp(doc: ConfigDocument, seed: number, nowMs: number): IgpStatus {
    const daemonUp = this.#sources.dataPlane.daemons().routing;
    const interfaces = igpInterfacesOf(
      doc.lists[IGP_INTERFACES_LIST] ?? [],
      (item) => this.#adjacencyStarts.get(item.key) ?? nowMs,
    );
    return igpStatus(seed, nowMs, daemonUp, igpProtocolOf(doc), routerIdOf(doc), interfaces);
  }

  /** The configured neighbors with the instant each session last started. */
  #configuredNeighbors(doc: ConfigDocument, nowMs: number): BgpNeighborConfig[] {
    return neighborsOf(doc.lists[NEIGHBORS_LIST] ?? [], (item) => this.#neighborStarts.get(item.key) ?? nowMs);
  }

  #world(): RoutingWorld {
    const doc = this.#sources.document();
    const dataPlane = this.#sources.dataPlane;
    const { nowMs, seed } = dataPlane.clock();
    const localAs = doc.fields["bgp.localAs"];
    return {
      seed,
      nowMs,
      daemonUp: dataPlane.daemons().routing,
      localAs: typeof localAs === "number" ? localAs : null,
      routerId: routerIdOf(doc),
      neighbors: this.#configuredNeighbors(doc, nowMs),
      vrfs: (doc.lists.vrfs ?? []).map(({ key, values }) => ({
        name: key,
        rd: typeof values.rd === "string" && values.rd !== "" ? values.rd : null,
        importRt: strings(values.importRt),
        exportRt: strings(values.exportRt),
        originateDefaultRoute: values.originateDefaultRoute === true,
      })),
      pools: dataPlane.model.pools.list().map((p) => ({
        family: p.family,
        vrf: p.vrf ?? "default",
        cgnTranslated: p.cgnTranslated,
        subnets: p.subnets.map((s) => ({ prefix: s.prefix, announce: s.announce })),
      })),
      cgnPublic: dataPlane
        .runningCgn()
        .groups.flatMap((g) => g.publicSubnets.map((prefix) => ({ vrf: g.outsideVrf, prefix }))),
      statics: staticRoutesOf(doc.lists[STATIC_ROUTES_LIST] ?? []),
      framed: this.#framedRoutes(doc),
      circuits: this.#circuitPeers(doc),
      igp: this.#igp(doc, seed, nowMs),
    };
  }

  /** Online local subscribers' routed prefixes, via their session's address and interface. */
  #framedRoutes(doc: ConfigDocument): FramedRoute[] {
    const dataPlane = this.#sources.dataPlane;
    const online = dataPlane.localSubscriberSessions();
    const routes: FramedRoute[] = [];
    for (const [kind, list] of Object.entries(LOCAL_LISTS)) {
      for (const item of doc.lists[list] ?? []) {
        const prefixes = strings(item.values.additionalRoutes);
        const sessionId = online[`${kind}/${item.key}`];
        if (prefixes.length === 0 || sessionId === undefined) continue;
        const detail = dataPlane.model.sessions.detail(sessionId);
        if (!detail.ok) continue;
        const s = detail.session;
        const iface = `${s.encap === "ipoe" ? "ipoe" : "ppp"}${s.id}`;
        for (const prefix of prefixes) {
          const v6 = prefix.includes(":");
          routes.push({ vrf: s.vrf, prefix, nextHop: v6 ? null : s.ipv4 || null, interface: iface });
        }
      }
    }
    return routes;
  }

  /** GRE circuits that run BGP, with their live state from the circuit model. */
  #circuitPeers(doc: ConfigDocument): CircuitPeer[] {
    const status = new Map(this.#sources.gre.status().circuits.map((c) => [c.id, c]));
    const peers: CircuitPeer[] = [];
    for (const item of doc.lists["gre.circuits"] ?? ([] as ConfigItem[])) {
      const v = item.values;
      const live = status.get(item.key);
      if (typeof v.peerAsn !== "number" || !live || live.bgpState === "disabled") continue;
      peers.push({
        id: item.key,
        vrf: String(v.vrf),
        address: String(v.remoteTunnelAddress).split("/")[0]!,
        localAddress: String(v.localTunnelAddress),
        remoteAs: v.peerAsn,
        description: typeof v.description === "string" ? v.description : "",
        bfd: v.bfd === true,
        state: live.bgpState,
        prefixes: live.prefixesReceived,
        lastChangeMs: Date.parse(live.lastChangeUtc),
        tunnelUp: live.tunnelState === "up",
      });
    }
    return peers;
  }
}
