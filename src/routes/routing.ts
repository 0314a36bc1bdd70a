/**
 * Routing, the live half: BGP summary, neighbor detail and routes (the spec's
 * three), IGP adjacencies and a VRF's route table (designed: the spec leaves
 * them "not shown"). Every read is derived at the simulated instant from the
 * configuration, the running data plane and the seed (simulator/routing.ts,
 * igp.ts), so the numbers agree across endpoints. An unreachable routing
 * daemon is not an error (spec Errors 3): 200 with `reachable` false.
 */
import { Encoded, inWorker } from "../http/route.ts";
import { unwrap } from "../http/refusal.ts";
import { routing } from "../schemas/routing.ts";

export const routingRoutes = [
  inWorker(routing.bgpSummary, (ctx) => ctx.port.routing.bgpSummary()),
  inWorker(routing.bgpNeighbor, (ctx) => ctx.port.routing.bgpNeighbor(ctx.params.address, ctx.query.vrf ?? null)),
  inWorker(routing.neighborRoutes, (ctx) => ctx.port.routing.neighborRoutes(ctx.params.address, ctx.query)),
  inWorker(routing.igp, (ctx) => ctx.port.routing.igp()),
  inWorker(
    routing.vrfRoutes,
    async (ctx) => new Encoded(unwrap(await ctx.port.routing.vrfRoutes(ctx.params.vrf, ctx.query)).page),
  ),
];
