/** Sessions: the live subscriber sessions of the data plane, their detail, rates and force-disconnect. */
import { Encoded, implement } from "../http/route.ts";
import { unwrap } from "../http/refusal.ts";
import { actorName } from "../schemas/principal.ts";
import { sessions } from "../schemas/sessions.ts";

export const sessionRoutes = [
  implement(sessions.list, (ctx) => new Encoded(ctx.appliance.stub.dataPlane().sessionListText(ctx.query))),
  implement(sessions.summary, (ctx) => ctx.appliance.stub.dataPlane().sessionSummary()),
  implement(sessions.get, async (ctx) => unwrap(await ctx.appliance.stub.dataPlane().sessionDetail(ctx.params.id)).session),
  implement(sessions.rates, async (ctx) => unwrap(await ctx.appliance.stub.dataPlane().sessionRates(ctx.params.id)).rates),
  implement(sessions.disconnect, async (ctx) => {
    const { sessionId } = unwrap(await ctx.appliance.stub.dataPlane().disconnect(ctx.params.id, actorName(ctx.principal!)));
    return { status: "disconnected" as const, sessionId };
  }),
];
