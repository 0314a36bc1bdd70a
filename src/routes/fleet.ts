/** Fleet: the appliances this one knows, and read-only access to its peers. */
import { inWorker, type Route } from "../http/route.ts";
import { routeMatcher } from "../http/matcher.ts";
import { fleet } from "../schemas/fleet.ts";
import { planRelay, relayToPeer, type Relayable } from "../fleet/proxy.ts";
import { resolvePeer } from "../fleet/definition.ts";
import { redactUserinfo } from "../config/document.ts";

/** The FP flag as the proxy's allowlist: a path is relayed when the GET route it reaches (the router's own matcher) is marked `fp`. */
export const fpAllowlist = (table: () => Route[]): Relayable => (apiPath) => routeMatcher(table()).match("GET", apiPath)?.route.fp === true;

/** The fleet routes, given the whole table whose FP flags the proxy follows. */
export const fleetRoutes = (table: () => Route[]): Route[] => {
  const relayable = fpAllowlist(table);
  return [
    inWorker(fleet.appliances, async (ctx) => [
      { name: ctx.appliance.name, self: true, url: null },
      ...(await ctx.port.fleet.appliances()).map((p) => ({ name: p.name, self: false, url: redactUserinfo(resolvePeer(ctx.appliance.env, p).url) })),
    ]),
    inWorker(fleet.read, async (ctx) => {
      const url = new URL(ctx.url);
      // The raw, still-encoded path: decoding happens once, in normalisePeerPath.
      const rawPath = url.pathname.slice("/api/v1/fleet/".length).split("/").slice(1).join("/");
      // The addressed appliance is asked once (its peer and policy); a peer is another object, asked by the relay.
      const known = await ctx.port.fleet.read(ctx.params.appliance);
      const plan = await planRelay(ctx.appliance, known, ctx.params.appliance, rawPath, url.search, relayable);
      return relayToPeer(ctx.appliance, plan, ctx.headers.get("accept") ?? "*/*");
    }),
  ];
};
