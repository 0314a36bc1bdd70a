/** L2TP: the tunnels carrying the appliance's LAC (upstream) and LNS (downstream) sessions. */
import { inWorker } from "../http/route.ts";
import { l2tp } from "../schemas/l2tp.ts";
import { unwrap } from "../http/refusal.ts";

export const l2tpRoutes = [
  inWorker(l2tp.tunnels, (ctx) => ctx.port.l2tp.tunnels()),
  inWorker(l2tp.tunnel, async (ctx) => unwrap(await ctx.port.l2tp.tunnel(ctx.params.id)).tunnel),
];
