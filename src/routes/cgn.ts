/** CGN: bindings, status and the identification of auto-learned bindings. */
import { Encoded, inWorker } from "../http/route.ts";
import { cgn } from "../schemas/cgn.ts";

export const cgnRoutes = [inWorker(cgn.bindings, async (ctx) => new Encoded(await ctx.port.cgn.bindings(ctx.query)))];
