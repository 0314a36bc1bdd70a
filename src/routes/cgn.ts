/** CGN: bindings, status and the identification of auto-learned bindings. */
import { inWorker } from "../http/route.ts";
import { cgn } from "../schemas/cgn.ts";
import { unwrap } from "../http/refusal.ts";

export const cgnRoutes = [
  inWorker(cgn.bindings, (ctx) => ctx.port.cgn.bindings(ctx.query)),
  inWorker(cgn.status, (ctx) => ctx.port.cgn.status()),
  inWorker(cgn.identify, async (ctx) => unwrap(await ctx.port.cgn.identify(ctx.params.bindingIndex, ctx.body.subscriberId)).binding),
];
