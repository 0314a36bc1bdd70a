/** Fleet: the appliances this one knows, and read-only access to its peers. */
import { z } from "zod";
import { route } from "../http/route.ts";
import { relayToPeer } from "../fleet/proxy.ts";
import { resolvePeer } from "../fleet/definition.ts";

export const FleetAppliance = z
  .object({
    name: z.string().meta({ description: "the `{appliance}` proxy key" }),
    self: z.boolean(),
    url: z.string().nullable().meta({ description: "peer base URL from `webUi.peers`; null for this appliance" }),
  })
  .meta({ id: "FleetAppliance" });

export const fleetRoutes = [
  route({
    method: "GET",
    path: "/api/v1/fleet/appliances",
    section: "Fleet",
    summary: "This appliance, then its peers from webUi.peers",
    response: { description: "array of FleetAppliance", schema: z.array(FleetAppliance) },
    handle: async (ctx) => [
      { name: ctx.appliance.name, self: true, url: null },
      ...(await ctx.appliance.stub.fleetPeers()).map((p) => ({ name: p.name, self: false, url: resolvePeer(ctx.appliance.env, p).url })),
    ],
  }),
  route({
    method: "GET",
    path: "/api/v1/fleet/{appliance}/{path+}",
    section: "Fleet",
    summary: "Read a peer: its answer to GET /api/v1/{path} relayed verbatim",
    description:
      "Only GET. The query string is forwarded; the peer is called with the credential configured under `webUi.peers`, never the caller's. " +
      "`path` is normalised first (percent-decoding, `.`/`..`, backslashes) and may not leave `/api/v1/`; paths starting `fleet/` or `auth/` and the log stream are refused with 403. " +
      "An unknown appliance is 404; an unreachable peer 502; a peer that does not answer within its `timeoutMs` (default 10 s) 504. Redirects are relayed, never followed. " +
      "Every GET is relayed; the operations marked `x-fleet-proxy` are the ones the appliance family guarantees.",
    params: z.object({ appliance: z.string(), path: z.string() }),
    response: { description: "the peer's status, body and content type" },
    errors: [404, 502, 504],
    handle: (ctx) => {
      // The raw, still-encoded path: decoding happens once, in normalisePeerPath.
      const rawPath = new URL(ctx.request.url).pathname.slice("/api/v1/fleet/".length).split("/").slice(1).join("/");
      return relayToPeer(ctx.appliance, ctx.request, ctx.params.appliance, rawPath);
    },
  }),
];
