/**
 * Routing, the live half: BGP summary, neighbor detail and routes (the spec's
 * three), IGP adjacencies and a VRF's route table (designed: the spec leaves
 * them "not shown"). Every read is derived at the simulated instant from the
 * configuration, the running data plane and the seed (simulator/routing.ts,
 * igp.ts), so the numbers agree across endpoints. An unreachable routing
 * daemon is not an error (spec Errors 3): 200 with `reachable` false.
 */
import { z } from "zod";
import { enumFilter } from "../schemas/enum-filter.ts";
import { route } from "../http/route.ts";
import { pageQuery } from "../schemas/common.ts";
import { unwrap } from "../http/refusal.ts";
import { AFI_SAFIS, IGP_PROTOCOLS } from "../../simulator/vocabulary.ts";
import { AfiSafi, BgpNeighbor, BgpSummary, Igp, RoutePage } from "../schemas/routing.ts";

const section = "Routing";
const base = "/api/v1/routing";
const Filter = z.string().max(255).optional().meta({ description: "case-insensitive substring over prefix, next hop, AS path and protocol" });

const NeighborParams = z.object({ address: z.string().min(1).max(255).meta({ description: "the neighbor's address as configured (any text form of the same address matches)" }) });
const NeighborQuery = z.object({
  vrf: z.string().min(1).max(63).optional().meta({ description: "where to look: `default` = the global table's neighbors only, a VRF = its GRE customers only; absent = the global table first, then any GRE customer" }),
});
const RoutesQuery = pageQuery(50, 500).extend({
  type: enumFilter(["advertised", "received"]).default("advertised").meta({ description: "`advertised` (default): what this box sends the neighbor; `received`: what the neighbor sends, before the inbound policy; any case" }),
  af: enumFilter(AfiSafi.options).optional().meta({ description: "address family, any case; absent = the neighbor's first" }),
  filter: Filter,
  vrf: NeighborQuery.shape.vrf,
});
const VrfParams = z.object({ vrf: z.string().min(1).max(255).meta({ description: "a configured VRF, or `default` for the global table" }) });
const VrfRoutesQuery = pageQuery(50, 500).extend({
  family: enumFilter(["ipv4", "ipv6"]).optional().meta({ description: "only this address family, any case; absent = both (IPv4 first)" }),
  protocol: enumFilter(["connected", "subscriber", "framed", "static", "cgn", "bgp", "ospf", "isis"]).optional().meta({ description: "only routes of this protocol, any case" }),
  filter: Filter,
});

export const routingRoutes = [
  route({
    method: "GET",
    path: `${base}/bgp/summary`,
    section,
    summary: "BGP summary: one row per peer per address family",
    description:
      "Global neighbors (`bgp.neighbors`, configuration order) then GRE customers' sessions (`gre.circuits` with a `peerAsn`, in their VRF; their state is the circuit's `bgpState`). " +
      "A neighbor added through the configuration starts Idle and reaches Established within 5-45 s of simulated time; about one hour in ten its path fails for 30-300 s (with BFD the session drops at once, without only at hold-timer expiry). " +
      "`prefixesReceived` and `prefixesSent` are the totals of the neighbor's received and advertised route pages for that family. " +
      "200 with `reachable` false and no rows when the routing daemon cannot be queried (scenario `fail-daemon`) or BGP is not running (no peer configured).",
    fp: true,
    response: { description: "BgpSummary", schema: BgpSummary },
    handle: (ctx) => ctx.appliance.stub.routing().bgpSummary(),
  }),
  route({
    method: "GET",
    path: `${base}/bgp/neighbor/{address}`,
    section,
    summary: "One BGP neighbor: session state, timers, per-family counts",
    description:
      "Never an error status: an unknown peer, or a routing daemon that cannot be asked, answers 200 with `reachable` false. A GRE customer's session is found by its tunnel address (`vrf` picks among VRFs).",
    fp: true,
    params: NeighborParams,
    query: NeighborQuery,
    response: { description: "BgpNeighbor", schema: BgpNeighbor },
    handle: (ctx) => ctx.appliance.stub.routing().bgpNeighbor(ctx.params.address, ctx.query.vrf ?? null),
  }),
  route({
    method: "GET",
    path: `${base}/bgp/neighbor/{address}/routes`,
    section,
    summary: "Routes advertised to, or received from, one BGP neighbor",
    description:
      "`advertised` is what this box originates (it carries no transit): the `announce` subnets of its address pools in the global table (ipv4Unicast/ipv6Unicast; CGN-translated pools never), the CGN public subnets, static routes marked `announce`, local subscribers' framed routes and GRE customers' prefixes; " +
      "for ipv4Vpn/ipv6Vpn the same per VRF that has an RD and export route targets, carrying them, plus a default route where the VRF says `originateDefaultRoute`. A pool subnet added or removed through the configuration shows at once. " +
      "`received` is what the neighbor sends, before the inbound policy (a prefix longer than /24 or /48 is rejected: `best` false). Sorted by prefix (VPN: by RD, then prefix). " +
      "`limit` default 50, clamped to 1-500. An unknown neighbor answers 200 with `reachable` false, as its detail does; a family the neighbor does not carry, and any family while the session is not Established, an empty page.",
    fp: true,
    params: NeighborParams,
    query: RoutesQuery,
    response: { description: "RoutePage", schema: RoutePage },
    handle: (ctx) => ctx.appliance.stub.routing().neighborRoutes(ctx.params.address, ctx.query),
  }),
  route({
    method: "GET",
    path: `${base}/igp`,
    section,
    summary: "IGP status: OSPF or IS-IS interfaces and adjacencies",
    description:
      "Designed (the spec leaves IGP status not shown). `igp.protocol` and `igp.interfaces` say what runs; each non-passive interface forms one adjacency with the router at the other end of its link: OSPF Down → Init → ExStart → Exchange → Loading → Full, IS-IS Down → Initializing → Up, within 5-35 s of simulated time after a (re)configuration. " +
      "About one day in twelve an adjacency drops for 1-4 minutes (Down once its dead interval expires). With `igp.protocol` `none`, 200 with empty lists; 200 with `reachable` false when the routing daemon cannot be queried.",
    fp: true,
    response: { description: "IgpStatus", schema: Igp },
    handle: (ctx) => ctx.appliance.stub.routing().igp(),
  }),
  route({
    method: "GET",
    path: `${base}/vrfs/{vrf}/routes`,
    section,
    summary: "A VRF's route table (RIB); `default` is the global table",
    description:
      "Designed (the spec leaves the VRF route table not shown). The VRF's connected subnets (its address pools' subnets on `sub-<vrf>`, GRE tunnel subnets, in the global table the IGP interfaces), every live session's routes (`subscriber`: its IPv4 /32, IPv6 WAN prefix and delegated prefix, on `ipoe<id>` or `ppp<id>`), local subscribers' framed routes via their address, static routes, CGN public subnets, " +
      "what BGP installed (global table: the best accepted unicast routes from the neighbors; a VRF: the VPN routes its import route targets select, and its GRE customers' prefixes), and in the global table OSPF/IS-IS routes to the IGP neighbors' loopbacks. " +
      "Per prefix the route of the lowest administrative distance is `best` (connected and subscriber 0, framed and CGN 1, static as configured, eBGP 20, OSPF 110, IS-IS 115, iBGP 200). Sorted by family, then prefix. Paged like the BGP routes: `limit` default 50, clamped to 1-500. " +
      "404 for a VRF that is not configured; 200 with `reachable` false when the routing daemon cannot be queried.",
    fp: true,
    params: VrfParams,
    query: VrfRoutesQuery,
    response: { description: "RoutePage", schema: RoutePage },
    errors: [404],
    handle: async (ctx) => unwrap(await ctx.appliance.stub.routing().vrfRoutes(ctx.params.vrf, ctx.query)).page,
  }),
];
