/** CGN: bindings, status and the identification of auto-learned bindings. */
import { Encoded, inWorker } from "../http/route.ts";
import { cgn } from "../schemas/cgn.ts";
import { unwrap } from "../http/refusal.ts";

export const cgnRoutes = [
  inWorker(cgn.bindings, async (ctx) => new Encoded(await ctx.port.cgn.bindings(ctx.query))),
  inWorker(cgn.status, (ctx) => ctx.port.cgn.status()),
  inWorker(
    cgn.identify,
    async (ctx) => unwrap(await ctx.port.cgn.identify(ctx.params.bindingIndex, ctx.body.subscriberId)).binding,
  ),
];
