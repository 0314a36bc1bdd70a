/** Sessions: the live subscriber sessions of the data plane, their detail, rates and force-disconnect. */
import { Encoded, inWorker } from "../http/route.ts";
import { unwrap } from "../http/refusal.ts";
import { sessions } from "../schemas/sessions.ts";

export const sessionRoutes = [
  inWorker(sessions.list, async (ctx) => new Encoded(await ctx.port.sessions.list(ctx.query))),
  inWorker(sessions.summary, (ctx) => ctx.port.sessions.summary()),
  inWorker(sessions.get, async (ctx) => unwrap(await ctx.port.sessions.get(ctx.params.id)).session),
  inWorker(sessions.rates, async (ctx) => unwrap(await ctx.port.sessions.rates(ctx.params.id)).rates),
  inWorker(sessions.disconnect, async (ctx) => {
    const { sessionId } = unwrap(await ctx.port.sessions.disconnect(ctx.params.id));
    return { status: "disconnected" as const, sessionId };
  }),
];
