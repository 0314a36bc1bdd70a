/** Fleet: the appliances this one knows, and read-only access to its peers. */
import { implement, pathPattern, type Route } from "../http/route.ts";
import { fleet } from "../schemas/fleet.ts";
import { planRelay, relayToPeer, type Relayable, type RelayPlan } from "../fleet/proxy.ts";
import { resolvePeer } from "../fleet/definition.ts";
import { redactUserinfo } from "../config/document.ts";

/** The FP flag as the proxy's allowlist: GET operations of the table marked `fp`. */
function fpAllowlist(table: () => Route[]): Relayable {
  let patterns: RegExp[] | undefined;
  return (apiPath) => {
    patterns ??= table().filter((r) => r.fp && r.method === "GET").map((r) => pathPattern(r.path));
    return patterns.some((pattern) => pattern.test(apiPath));
  };
}

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
