/**
 * Routing, the wire contract of its live half: BGP summary, neighbor and routes, the IGP status and a VRF's route
 * table.
 */
import { z } from "zod";
import { operation } from "./contract.ts";
import { enumFilter } from "./enum-filter.ts";
import { pageQuery } from "./common.ts";
import { AFI_SAFIS, IGP_PROTOCOLS } from "../../simulator/vocabulary.ts";

const int32 = z.int32();
const count = z.int().min(0);
const seconds = z.number().min(0).nullable();

export const AfiSafi = z
  .enum(AFI_SAFIS)
  .meta({ description: "AFI/SAFI: `ipv4Unicast`, `ipv6Unicast`, `ipv4Vpn` or `ipv6Vpn`" });
const BGP_STATE =
  "`Idle`, `Connect`, `Active`, `OpenSent`, `OpenConfirm`, `Established` (RFC 4271 " +
  "§8), `Idle (Admin)` for a neighbor configured `shutdown`; `Unknown` when " +
  "`reachable` is false";

export const Route = z
  .object({
    prefix: z.string(),
    nextHop: z.string().meta({ description: "empty for directly connected and discard routes" }),
    protocol: z.string().meta({
      description:
        "where the route comes from: `connected`, `subscriber` (a session's own address " +
        "or prefix), `framed` (a local subscriber's routed prefix), `static`, `cgn` (a " +
        "CGN public subnet), `bgp`, `ospf` or `isis`",
    }),
    interface: z.string().meta({
      description:
        "outgoing interface (`ipoe<session id>`, `ppp<session id>`, `gre-<circuit>`, " +
        "`sub-<vrf>`, `blackhole`…); empty for BGP routes, which resolve through their " +
        "next hop",
    }),
    metric: z.int().meta({ description: "MED for BGP (0 when none was sent), cost for the IGP, 0 otherwise" }),
    localPref: z
      .int()
      .meta({ description: "LOCAL_PREF as carried (iBGP); 0 where it is not carried (eBGP, routes that are not BGP)" }),
    asPath: z.string().meta({
      description:
        "AS numbers separated by spaces, nearest first; empty for a route originated " +
        "inside the AS and for routes that are not BGP (`protocol` tells them apart)",
    }),
    origin: z
      .enum(["IGP", "EGP", "incomplete", ""])
      .meta({ description: "the BGP ORIGIN attribute; empty for routes that are not BGP" }),
    best: z.boolean().meta({
      description:
        "BGP: the selected path (false for a received route the inbound policy " +
        "rejected); route tables: installed for forwarding (lowest administrative distance)",
    }),
    rd: z.string().optional().meta({ description: "route distinguisher (VPN routes only)" }),
    routeTargets: z.array(z.string()).optional().meta({ description: "route targets carried (VPN routes only)" }),
  })
  .meta({ id: "Route" });

export const RoutePage = z
  .object({
    reachable: z.boolean().meta({
      description:
        "false = the routing daemon could not be queried (or, for a neighbor's routes, " +
        "no such neighbor): table empty",
    }),
    total: int32.meta({ description: "routes after `filter`, before paging" }),
    offset: int32,
    limit: int32.meta({ description: "effective page size" }),
    routes: z.array(Route),
  })
  .meta({ id: "RoutePage" });

export const BgpSummaryRow = z
  .object({
    peer: z.string(),
    vrf: z.string().meta({
      description: "`default` for the global table's neighbors; a GRE customer's VRF for its circuit's session",
    }),
    description: z.string().meta({ description: "the neighbor's configured description; empty when it has none" }),
    remoteAs: z.int(),
    state: z.string().meta({ description: BGP_STATE }),
    uptimeSeconds: z.number().min(0).meta({ description: "seconds since Established; 0 while not" }),
    prefixesReceived: count.meta({
      description:
        "routes the peer sent in this family (before the inbound policy): the `total` of its received route page",
    }),
    prefixesSent: count.meta({
      description: "routes sent to the peer in this family: the `total` of its advertised route page",
    }),
    afiSafi: AfiSafi,
  })
  .meta({ id: "BgpSummaryPeer" });

export const BgpSummary = z
  .object({
    reachable: z.boolean().meta({
      description:
        "false when the routing daemon cannot be queried, or when BGP is not running (no " +
        "neighbor and no GRE circuit with a peer ASN): peers then empty",
    }),
    localAs: z.int().nullable(),
    routerId: z.string().nullable(),
    peers: z.array(BgpSummaryRow).meta({
      description: "one row per peer per AFI/SAFI: global neighbors in configuration order, then GRE customers",
    }),
  })
  .meta({ id: "BgpSummary" });

export const BgpNeighbor = z
  .object({
    reachable: z.boolean().meta({
      description:
        "false when the routing daemon cannot be asked or no such peer is configured " +
        "(then only `peer`, `state` `Unknown` and `bfd` false are set)",
    }),
    peer: z.string(),
    vrf: z.string().nullable(),
    description: z.string().nullable(),
    remoteAs: z.int().nullable(),
    localAs: z.int().nullable(),
    state: z.string().meta({ description: BGP_STATE }),
    uptimeSeconds: seconds.meta({ description: "seconds since Established; null while not" }),
    routerId: z.string().nullable().meta({ description: "the peer's BGP identifier, once its OPEN arrived" }),
    localRouterId: z.string().nullable(),
    holdTime: z
      .int()
      .nullable()
      .meta({ description: "negotiated (the lower of both ends') once Established; configured before" }),
    keepAlive: z.int().nullable(),
    bfd: z.boolean(),
    addressFamilies: z.array(
      z.object({
        afiSafi: AfiSafi,
        received: count.meta({ description: "routes received (summary `prefixesReceived`)" }),
        accepted: count.meta({
          description: "of those, accepted by the inbound policy (prefixes longer than /24 or /48 are not)",
        }),
        advertised: count.meta({ description: "routes sent (summary `prefixesSent`)" }),
      }),
    ),
  })
  .meta({ id: "BgpNeighbor" });

export const Igp = z
  .object({
    reachable: z.boolean().meta({ description: "false when the routing daemon cannot be queried" }),
    protocol: z.enum(IGP_PROTOCOLS),
    routerId: z.string().nullable(),
    interfaces: z.array(
      z
        .object({
          name: z.string(),
          address: z.string(),
          area: z.string().meta({ description: "OSPF area, or IS-IS level" }),
          cost: z.int(),
          passive: z.boolean(),
          helloSeconds: z.int(),
          deadSeconds: z.int(),
          fullNeighbors: count.meta({ description: "adjacencies in the final state (`Full` / `Up`)" }),
        })
        .meta({ id: "IgpInterface" }),
    ),
    adjacencies: z.array(
      z
        .object({
          interface: z.string(),
          neighborId: z.string().meta({ description: "OSPF router id, or IS-IS system id" }),
          neighborAddress: z.string(),
          state: z.string().meta({
            description:
              "OSPF: `Down`, `Init`, `ExStart`, `Exchange`, `Loading`, `Full`; IS-IS: `Down`, `Initializing`, `Up`",
          }),
          area: z.string(),
          cost: z.int(),
          uptimeSeconds: seconds.meta({ description: "seconds in the final state; null otherwise" }),
          deadTimerSeconds: z.int().nullable().meta({
            description: "seconds left before the neighbor is declared dead unless a hello arrives; null while Down",
          }),
          lastChangeUtc: z.iso.datetime(),
        })
        .meta({ id: "IgpAdjacency" }),
    ),
  })
  .meta({ id: "IgpStatus" });

export type Route = z.output<typeof Route>;
export type RoutePage = z.output<typeof RoutePage>;
export type BgpSummary = z.output<typeof BgpSummary>;
export type BgpNeighbor = z.output<typeof BgpNeighbor>;
export type BgpSummaryRow = z.output<typeof BgpSummaryRow>;
export type IgpStatus = z.output<typeof Igp>;

const section = "Routing";
const base = "/api/v1/routing";
const Filter = z
  .string()
  .max(255)
  .optional()
  .meta({
    description: "case-insensitive substring over prefix, next hop, AS path and protocol",
    examples: ["10.0."],
  });

const NeighborParams = z.object({
  address: z
    .string()
    .min(1)
    .max(255)
    .meta({ description: "the neighbor's address as configured (any text form of the same address matches)" }),
});
const NeighborQuery = z.object({
  vrf: z
    .string()
    .min(1)
    .max(63)
    .optional()
    .meta({
      description:
        "where to look: `default` = the global table's neighbors only, a VRF = its GRE customers only; absent = the " +
        "global table first, then any GRE customer",
      examples: ["default"],
    }),
});
const RoutesQuery = pageQuery(50, 500).extend({
  type: enumFilter(["advertised", "received"])
    .default("advertised")
    .meta({
      description:
        "`advertised` (default): what this box sends the neighbor; `received`: what the " +
        "neighbor sends, before the inbound policy; any case",
    }),
  af: enumFilter(AfiSafi.options)
    .optional()
    .meta({ description: "address family, any case; absent = the neighbor's first" }),
  filter: Filter,
  vrf: NeighborQuery.shape.vrf,
});
const VrfParams = z.object({
  vrf: z.string().min(1).max(255).meta({ description: "a configured VRF, or `default` for the global table" }),
});
const VrfRoutesQuery = pageQuery(50, 500).extend({
  family: enumFilter(["ipv4", "ipv6"])
    .optional()
    .meta({ description: "only this address family, any case; absent = both (IPv4 first)" }),
  protocol: enumFilter(["connected", "subscriber", "framed", "static", "cgn", "bgp", "ospf", "isis"])
    .optional()
    .meta({ description: "only routes of this protocol, any case" }),
  filter: Filter,
});

/** The section's operations. */
export const routing = {
  bgpSummary: operation({
    method: "GET",
    path: `${base}/bgp/summary`,
    section,
    summary: "BGP summary: one row per peer per address family",
    description:
      "Global neighbors (`bgp.neighbors`, configuration order) then GRE customers' " +
      "sessions (`gre.circuits` with a `peerAsn`, in their VRF; their state is the " +
      "circuit's `bgpState`). " +
      ("A neighbor added through the configuration starts Idle and reaches Established " +
        "within 5-45 s of simulated time; about one hour in ten its path fails for " +
        "30-300 s (with BFD the session drops at once, without only at hold-timer expiry). ") +
      ("`prefixesReceived` and `prefixesSent` are the totals of the neighbor's received " +
        "and advertised route pages for that family. ") +
      ("200 with `reachable` false and no rows when the routing daemon cannot be " +
        "queried (scenario `fail-daemon`) or BGP is not running (no peer configured)."),
    fp: true,
    response: { description: "BgpSummary", schema: BgpSummary },
    examples: {
      response: {
        reachable: true,
        localAs: 64500,
        routerId: "10.0.0.2",
        peers: [
          {
            peer: "10.0.255.1",
            vrf: "default",
            description: "route reflector rr1",
            remoteAs: 64500,
            state: "Established",
            uptimeSeconds: 8,
            prefixesReceived: 10,
            prefixesSent: 3,
            afiSafi: "ipv4Unicast",
          },
          {
            peer: "10.0.255.1",
            vrf: "default",
            description: "route reflector rr1",
            remoteAs: 64500,
            state: "Established",
            uptimeSeconds: 8,
            prefixesReceived: 5,
            prefixesSent: 2,
            afiSafi: "ipv6Unicast",
          },
        ],
      },
    },
  }),
  bgpNeighbor: operation({
    method: "GET",
    path: `${base}/bgp/neighbor/{address}`,
    section,
    summary: "One BGP neighbor: session state, timers, per-family counts",
    description:
      "Never an error status: an unknown peer, or a routing daemon that cannot be " +
      "asked, answers 200 with `reachable` false. A GRE customer's session is found by " +
      "its tunnel address (`vrf` picks among VRFs).",
    fp: true,
    params: NeighborParams,
    query: NeighborQuery,
    response: { description: "BgpNeighbor", schema: BgpNeighbor },
    examples: {
      params: { address: "10.0.255.1" },
      query: { vrf: "default" },
      response: {
        reachable: true,
        peer: "10.0.255.1",
        vrf: "default",
        description: "route reflector rr1",
        remoteAs: 64500,
        localAs: 64500,
        state: "Established",
        uptimeSeconds: 8,
        routerId: "10.0.255.1",
        localRouterId: "10.0.0.2",
        holdTime: 90,
        keepAlive: 30,
        bfd: true,
        addressFamilies: [
          { afiSafi: "ipv4Unicast", received: 10, accepted: 9, advertised: 3 },
          { afiSafi: "ipv6Unicast", received: 5, accepted: 5, advertised: 2 },
        ],
      },
    },
  }),
  neighborRoutes: operation({
    method: "GET",
    path: `${base}/bgp/neighbor/{address}/routes`,
    section,
    summary: "Routes advertised to, or received from, one BGP neighbor",
    description:
      "`advertised` is what this box originates (it carries no transit): the " +
      "`announce` subnets of its address pools in the global table " +
      "(ipv4Unicast/ipv6Unicast; CGN-translated pools never), the CGN public subnets, " +
      "static routes marked `announce`, local subscribers' framed routes and GRE " +
      "customers' prefixes; " +
      ("for ipv4Vpn/ipv6Vpn the same per VRF that has an RD and export route targets, " +
        "carrying them, plus a default route where the VRF says `originateDefaultRoute`. " +
        "A pool subnet added or removed through the configuration shows at once. ") +
      ("`received` is what the neighbor sends, before the inbound policy (a prefix " +
        "longer than /24 or /48 is rejected: `best` false). Sorted by prefix (VPN: by " +
        "RD, then prefix). ") +
      ("`limit` default 50, clamped to 1-500. An unknown neighbor answers 200 with " +
        "`reachable` false, as its detail does; a family the neighbor does not carry, " +
        "and any family while the session is not Established, an empty page."),
    fp: true,
    params: NeighborParams,
    query: RoutesQuery,
    response: { description: "RoutePage", schema: RoutePage },
    examples: {
      params: { address: "10.0.255.1" },
      query: { offset: 0, limit: 5, type: "received", af: "ipv4Unicast" },
      response: {
        reachable: true,
        total: 10,
        offset: 0,
        limit: 5,
        routes: [
          {
            prefix: "0.0.0.0/0",
            nextHop: "10.0.255.1",
            protocol: "bgp",
            interface: "",
            metric: 0,
            localPref: 100,
            asPath: "",
            origin: "IGP",
            best: true,
          },
          {
            prefix: "31.177.224.0/19",
            nextHop: "10.0.255.1",
            protocol: "bgp",
            interface: "",
            metric: 0,
            localPref: 100,
            asPath: "64501 65545",
            origin: "IGP",
            best: true,
          },
        ],
      },
    },
  }),
  igp: operation({
    method: "GET",
    path: `${base}/igp`,
    section,
    summary: "IGP status: OSPF or IS-IS interfaces and adjacencies",
    description:
      "Designed (the spec leaves IGP status not shown). `igp.protocol` and " +
      "`igp.interfaces` say what runs; each non-passive interface forms one adjacency " +
      "with the router at the other end of its link: OSPF Down → Init → ExStart → " +
      "Exchange → Loading → Full, IS-IS Down → Initializing → Up, within 5-35 s of " +
      "simulated time after a (re)configuration. " +
      ("About one day in twelve an adjacency drops for 1-4 minutes (Down once its dead " +
        "interval expires). With `igp.protocol` `none`, 200 with empty lists; 200 with " +
        "`reachable` false when the routing daemon cannot be queried."),
    fp: true,
    response: { description: "IgpStatus", schema: Igp },
    examples: {
      response: {
        reachable: true,
        protocol: "ospf",
        routerId: "10.0.0.2",
        interfaces: [
          {
            name: "lo",
            address: "10.0.0.2/32",
            area: "0.0.0.0",
            cost: 1,
            passive: true,
            helloSeconds: 10,
            deadSeconds: 40,
            fullNeighbors: 0,
          },
          {
            name: "uplink0",
            address: "10.1.2.0/31",
            area: "0.0.0.0",
            cost: 10,
            passive: false,
            helloSeconds: 10,
            deadSeconds: 40,
            fullNeighbors: 1,
          },
        ],
        adjacencies: [
          {
            interface: "uplink0",
            neighborId: "10.255.239.52",
            neighborAddress: "10.1.2.1",
            state: "Full",
            area: "0.0.0.0",
            cost: 10,
            uptimeSeconds: 8,
            deadTimerSeconds: 34,
            lastChangeUtc: "2026-11-26T20:35:01.620Z",
          },
          {
            interface: "uplink1",
            neighborId: "10.255.209.114",
            neighborAddress: "10.1.2.3",
            state: "Full",
            area: "0.0.0.0",
            cost: 10,
            uptimeSeconds: 3,
            deadTimerSeconds: 39,
            lastChangeUtc: "2026-11-26T20:35:06.288Z",
          },
        ],
      },
    },
  }),
  vrfRoutes: operation({
    method: "GET",
    path: `${base}/vrfs/{vrf}/routes`,
    section,
    summary: "A VRF's route table (RIB); `default` is the global table",
    description:
      "Designed (the spec leaves the VRF route table not shown). The VRF's connected " +
      "subnets (its address pools' subnets on `sub-<vrf>`, GRE tunnel subnets, in the " +
      "global table the IGP interfaces), every live session's routes (`subscriber`: " +
      "its IPv4 /32, IPv6 WAN prefix and delegated prefix, on `ipoe<id>` or " +
      "`ppp<id>`), local subscribers' framed routes via their address, static routes, " +
      "CGN public subnets, " +
      ("what BGP installed (global table: the best accepted unicast routes from the " +
        "neighbors; a VRF: the VPN routes its import route targets select, and its GRE " +
        "customers' prefixes), and in the global table OSPF/IS-IS routes to the IGP " +
        "neighbors' loopbacks. ") +
      ("Per prefix the route of the lowest administrative distance is `best` (connected " +
        "and subscriber 0, framed and CGN 1, static as configured, eBGP 20, OSPF 110, " +
        "IS-IS 115, iBGP 200). Sorted by family, then prefix. Paged like the BGP routes: " +
        "`limit` default 50, clamped to 1-500. ") +
      "404 for a VRF that is not configured; 200 with `reachable` false when the routing daemon cannot be queried.",
    fp: true,
    params: VrfParams,
    query: VrfRoutesQuery,
    response: { description: "RoutePage", schema: RoutePage },
    errors: [404],
    examples: {
      params: { vrf: "default" },
      query: { offset: 0, limit: 3, family: "ipv4", protocol: "static" },
      response: {
        reachable: true,
        total: 1,
        offset: 0,
        limit: 3,
        routes: [
          {
            prefix: "10.250.0.0/16",
            nextHop: "10.1.2.1",
            protocol: "static",
            interface: "",
            metric: 0,
            localPref: 0,
            asPath: "",
            origin: "",
            best: true,
          },
        ],
      },
      errors: { 404: "no VRF 'default' is configured (the global table is 'default')" },
    },
  }),
};
