/**
 * Diagnostics (spec "System upgrade and diagnostics"): a synthetic frame
 * traced through the forwarding pipeline, and ping from the forwarding plane.
 * Both are local to this appliance: mutations are never relayed by the fleet
 * proxy.
 */
import { inWorker } from "../http/route.ts";
import { unwrap } from "../http/refusal.ts";
import { diagnostics } from "../schemas/diagnostics.ts";

export const diagnosticsRoutes = [
  inWorker(diagnostics.inject, async (ctx) => unwrap(await ctx.port.diagnostics.inject(ctx.body)).result),
  inWorker(diagnostics.ping, async (ctx) => unwrap(await ctx.port.diagnostics.ping(ctx.body)).result),
];
