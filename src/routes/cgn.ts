/** CGN: bindings, status and the identification of auto-learned bindings. */
import { implement } from "../http/route.ts";
import { cgn } from "../schemas/cgn.ts";
import { unwrap } from "../http/refusal.ts";
import { actorName } from "../schemas/principal.ts";

export const cgnRoutes = [
  implement(cgn.bindings, (ctx) => ctx.appliance.stub.dataPlane().cgnBindings(ctx.query)),
  implement(cgn.status, (ctx) => ctx.appliance.stub.dataPlane().cgnStatus()),
  implement(cgn.identify, async (ctx) =>
    unwrap(await ctx.appliance.stub.dataPlane().identifyBinding(ctx.params.bindingIndex, ctx.body.subscriberId, actorName(ctx.principal!))).binding),
];
