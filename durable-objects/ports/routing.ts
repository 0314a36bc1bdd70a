/**
 * Routing, the live half: the BGP summary, a neighbor and its routes, IGP adjacencies and a VRF's route table, each
 * derived at the simulated instant from the configuration, the running data plane and the seed. An unreachable routing
 * daemon is not an error (spec Errors 3): 200 with `reachable` false.
 */
import { routing } from "../../src/schemas/routing.ts";
import type { Caller } from "../../src/schemas/operation.ts";
import type { VrfRouteQuery } from "../../simulator/rib.ts";
import type { ApplianceCore } from "../core.ts";
import type { PortsOf } from "./port-table.ts";
import { encoded } from "./caller.ts";
import { serves } from "./serves.ts";

export function routingPorts(core: Pick<ApplianceCore, "routing">) {
  const routes = () => core.routing();
  return {
    bgpSummary: serves(routing.bgpSummary, () => routes().bgpSummary()),
    bgpNeighbor: serves(routing.bgpNeighbor, (_, { params, query }) =>
      routes().bgpNeighbor(params.address, query.vrf ?? null),
    ),
    neighborRoutes: serves(routing.neighborRoutes, (_, { params, query }) =>
      routes().neighborRoutes(params.address, query),
    ),
    igp: serves(routing.igp, () => routes().igp()),
    // A page crosses as the JSON text it is sent as (the Worker wraps it in `Encoded`).
    vrfRoutes: (_: Caller, vrf: string, query: VrfRouteQuery) => {
      const page = routes().vrfRoutes(vrf, query);
      return page.ok ? { ok: true as const, page: encoded(page.page) } : page;
    },
  } satisfies PortsOf<"routing">;
}
