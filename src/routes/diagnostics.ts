/**
 * Diagnostics (spec "System upgrade and diagnostics"): a synthetic frame
 * traced through the forwarding pipeline, and ping from the forwarding plane.
 * Both are local to this appliance: mutations are never relayed by the fleet
 * proxy.
 */
import type { ApplianceContext } from "../fleet/context.ts";
import { implement } from "../http/route.ts";
import { StatusError } from "../http/problem.ts";
import { unwrap } from "../http/refusal.ts";
import { actorName } from "../schemas/principal.ts";
import { diagnostics } from "../schemas/diagnostics.ts";

/** The VRF names a ping may take: the configured VRFs and the global table. */
async function resolveVrf(appliance: ApplianceContext, wanted: string): Promise<{ name: string; local: string[] }> {
  const items = await appliance.stub.config().items("vrfs");
  const item = items.find((i) => i.key.toLowerCase() === wanted.toLowerCase());
  if (item) {
    const local = ["gatewayIp", "gatewayIpv6", "l2tpEndpointIp"].map((k): unknown => item.values[k]).filter((v): v is string => typeof v === "string" && v !== "");
    return { name: item.key, local };
  }
  if (wanted.toLowerCase() === "default") return { name: "default", local: [] };
  throw new StatusError(404, `no VRF '${wanted}' (configured VRFs and \`default\` only)`);
}

export const diagnosticsRoutes = [
  implement(diagnostics.inject, async (ctx) => unwrap(await ctx.appliance.stub.dataPlane().inject(ctx.body, actorName(ctx.principal!))).result),
  implement(diagnostics.ping, async (ctx) => {
    const vrf = await resolveVrf(ctx.appliance, ctx.body.vrf ?? "default");
    const { destination, count, size, dontFragment, timeoutMs } = ctx.body;
    return unwrap(await ctx.appliance.stub.dataPlane().ping({ destination, vrf: vrf.name, count, size, dontFragment, timeoutMs, local: vrf.local })).result;
  }),
];
