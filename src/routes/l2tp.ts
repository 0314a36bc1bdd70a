/** L2TP: the tunnels carrying the appliance's LAC (upstream) and LNS (downstream) sessions. */
import { implement } from "../http/route.ts";
import { l2tp } from "../schemas/l2tp.ts";
import { unwrap } from "../http/refusal.ts";

export const l2tpRoutes = [
  implement(l2tp.tunnels, (ctx) => ctx.appliance.stub.dataPlane().l2tpTunnels()),
  implement(l2tp.tunnel, async (ctx) => unwrap(await ctx.appliance.stub.dataPlane().l2tpTunnel(ctx.params.id)).tunnel),
];
