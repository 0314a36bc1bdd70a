/**
 * Routing, the live half: BGP summary, neighbor detail and routes (the spec's
 * three), IGP adjacencies and a VRF's route table (designed: the spec leaves
 * them "not shown"). Every read is derived at the simulated instant from the
 * configuration, the running data plane and the seed (simulator/routing.ts,
 * igp.ts), so the numbers agree across endpoints. An unreachable routing
 * daemon is not an error (spec Errors 3): 200 with `reachable` false.
 */
import { implement } from "../http/route.ts";
import { unwrap } from "../http/refusal.ts";
import { routing } from "../schemas/routing.ts";

export const routingRoutes = [
  implement(routing.bgpSummary, (ctx) => ctx.appliance.stub.routing().bgpSummary()),
  implement(routing.bgpNeighbor, (ctx) => ctx.appliance.stub.routing().bgpNeighbor(ctx.params.address, ctx.query.vrf ?? null)),
  implement(routing.neighborRoutes, (ctx) => ctx.appliance.stub.routing().neighborRoutes(ctx.params.address, ctx.query)),
  implement(routing.igp, (ctx) => ctx.appliance.stub.routing().igp()),
  implement(routing.vrfRoutes, async (ctx) => unwrap(await ctx.appliance.stub.routing().vrfRoutes(ctx.params.vrf, ctx.query)).page),
];
