/** Routing's wire shapes: BGP summary, neighbor and routes, and the IGP status. */
import { z } from "zod";
import { AFI_SAFIS, IGP_PROTOCOLS } from "../../simulator/vocabulary.ts";

const int32 = z.int32();
const count = z.int().min(0);
const seconds = z.number().min(0).nullable();

export const AfiSafi = z.enum(AFI_SAFIS).meta({ description: "AFI/SAFI: `ipv4Unicast`, `ipv6Unicast`, `ipv4Vpn` or `ipv6Vpn`" });
const BGP_STATE =
  "`Idle`, `Connect`, `Active`, `OpenSent`, `OpenConfirm`, `Established` (RFC 4271 §8), `Idle (Admin)` for a neighbor configured `shutdown`; `Unknown` when `reachable` is false";

export const Route = z
  .object({
    prefix: z.string(),
    nextHop: z.string().meta({ description: "empty for directly connected and discard routes" }),
    protocol: z.string().meta({ description: "where the route comes from: `connected`, `subscriber` (a session's own address or prefix), `framed` (a local subscriber's routed prefix), `static`, `cgn` (a CGN public subnet), `bgp`, `ospf` or `isis`" }),
    interface: z.string().meta({ description: "outgoing interface (`ipoe<session id>`, `ppp<session id>`, `gre-<circuit>`, `sub-<vrf>`, `blackhole`…); empty for BGP routes, which resolve through their next hop" }),
    metric: z.int().meta({ description: "MED for BGP (0 when none was sent), cost for the IGP, 0 otherwise" }),
    localPref: z.int().meta({ description: "LOCAL_PREF as carried (iBGP); 0 where it is not carried (eBGP, routes that are not BGP)" }),
    asPath: z.string().meta({ description: "AS numbers separated by spaces, nearest first; empty for a route originated inside the AS and for routes that are not BGP (`protocol` tells them apart)" }),
    origin: z.enum(["IGP", "EGP", "incomplete", ""]).meta({ description: "the BGP ORIGIN attribute; empty for routes that are not BGP" }),
    best: z.boolean().meta({ description: "BGP: the selected path (false for a received route the inbound policy rejected); route tables: installed for forwarding (lowest administrative distance)" }),
    rd: z.string().optional().meta({ description: "route distinguisher (VPN routes only)" }),
    routeTargets: z.array(z.string()).optional().meta({ description: "route targets carried (VPN routes only)" }),
  })
  .meta({ id: "Route" });

export const RoutePage = z
  .object({
    reachable: z.boolean().meta({ description: "false = the routing daemon could not be queried (or, for a neighbor's routes, no such neighbor): table empty" }),
    total: int32.meta({ description: "routes after `filter`, before paging" }),
    offset: int32,
    limit: int32.meta({ description: "effective page size" }),
    routes: z.array(Route),
  })
  .meta({ id: "RoutePage" });

export const BgpSummaryRow = z
  .object({
    peer: z.string(),
    vrf: z.string().meta({ description: "`default` for the global table's neighbors; a GRE customer's VRF for its circuit's session" }),
    description: z.string().meta({ description: "the neighbor's configured description; empty when it has none" }),
    remoteAs: z.int(),
    state: z.string().meta({ description: BGP_STATE }),
    uptimeSeconds: z.number().min(0).meta({ description: "seconds since Established; 0 while not" }),
    prefixesReceived: count.meta({ description: "routes the peer sent in this family (before the inbound policy): the `total` of its received route page" }),
    prefixesSent: count.meta({ description: "routes sent to the peer in this family: the `total` of its advertised route page" }),
    afiSafi: AfiSafi,
  })
  .meta({ id: "BgpSummaryPeer" });

export const BgpSummary = z
  .object({
    reachable: z.boolean().meta({ description: "false when the routing daemon cannot be queried, or when BGP is not running (no neighbor and no GRE circuit with a peer ASN): peers then empty" }),
    localAs: z.int().nullable(),
    routerId: z.string().nullable(),
    peers: z.array(BgpSummaryRow).meta({ description: "one row per peer per AFI/SAFI: global neighbors in configuration order, then GRE customers" }),
  })
  .meta({ id: "BgpSummary" });

export const BgpNeighbor = z
  .object({
    reachable: z.boolean().meta({ description: "false when the routing daemon cannot be asked or no such peer is configured (then only `peer`, `state` `Unknown` and `bfd` false are set)" }),
    peer: z.string(),
    vrf: z.string().nullable(),
    description: z.string().nullable(),
    remoteAs: z.int().nullable(),
    localAs: z.int().nullable(),
    state: z.string().meta({ description: BGP_STATE }),
    uptimeSeconds: seconds.meta({ description: "seconds since Established; null while not" }),
    routerId: z.string().nullable().meta({ description: "the peer's BGP identifier, once its OPEN arrived" }),
    localRouterId: z.string().nullable(),
    holdTime: z.int().nullable().meta({ description: "negotiated (the lower of both ends') once Established; configured before" }),
    keepAlive: z.int().nullable(),
    bfd: z.boolean(),
    addressFamilies: z.array(
      z.object({
        afiSafi: AfiSafi,
        received: count.meta({ description: "routes received (summary `prefixesReceived`)" }),
        accepted: count.meta({ description: "of those, accepted by the inbound policy (prefixes longer than /24 or /48 are not)" }),
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
          state: z.string().meta({ description: "OSPF: `Down`, `Init`, `ExStart`, `Exchange`, `Loading`, `Full`; IS-IS: `Down`, `Initializing`, `Up`" }),
          area: z.string(),
          cost: z.int(),
          uptimeSeconds: seconds.meta({ description: "seconds in the final state; null otherwise" }),
          deadTimerSeconds: z.int().nullable().meta({ description: "seconds left before the neighbor is declared dead unless a hello arrives; null while Down" }),
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
