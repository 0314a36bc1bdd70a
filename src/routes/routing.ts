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
  inWorker(
    routing.vrfRoutes,
    async (ctx) => new Encoded(unwrap(await ctx.port.routing.vrfRoutes(ctx.params.vrf, ctx.query)).page),
  ),
];
