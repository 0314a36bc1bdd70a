/** Fleet: the appliances this one knows, and read-only access to its peers. */
import { implement, type Route } from "../http/route.ts";
import { routeMatcher } from "../http/matcher.ts";
import { fleet } from "../schemas/fleet.ts";
import { planRelay, relayToPeer, type Relayable, type RelayPlan } from "../fleet/proxy.ts";
import { resolvePeer } from "../fleet/definition.ts";
import { redactUserinfo } from "../config/document.ts";

/** The FP flag as the proxy's allowlist: a path is relayed when the GET route it reaches (the router's own matcher) is marked `fp`. */
export const fpAllowlist = (table: () => Route[]): Relayable => (apiPath) => routeMatcher(table()).match("GET", apiPath)?.route.fp === true;

/** The fleet routes, given the whole table whose FP flags the proxy follows. */
export const fleetRoutes = (table: () => Route[]): Route[] => {
  const relayable = fpAllowlist(table);
  return [
    implement(fleet.appliances, async (ctx) => [
      { name: ctx.appliance.name, self: true, url: null },
      ...ctx.appliance.stub.fleetPeers().map((p) => ({ name: p.name, self: false, url: redactUserinfo(resolvePeer(ctx.appliance.env, p).url) })),
    ]),
    implement(fleet.read, (ctx) => {
      const url = new URL(ctx.url);
      // The raw, still-encoded path: decoding happens once, in normalisePeerPath.
      const rawPath = url.pathname.slice("/api/v1/fleet/".length).split("/").slice(1).join("/");
      return planRelay(ctx.appliance, ctx.params.appliance, rawPath, url.search, relayable);
    }, {
      finish: (plan: RelayPlan, worker) => relayToPeer(worker.appliance, plan, worker.accept ?? "*/*"),
    }),
  ];
};
