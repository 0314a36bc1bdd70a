/** Sessions: the live subscriber sessions of the data plane, their detail, rates and force-disconnect. */
import { Encoded, inWorker } from "../http/route.ts";
import { sessions } from "../schemas/sessions.ts";

export const sessionRoutes = [
  inWorker(sessions.list, async (ctx) => new Encoded(await ctx.port.sessions.list(ctx.query))),
];
