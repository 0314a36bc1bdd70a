/** Captures: per-session packet mirroring to a GRE collector. */
import { implement } from "../http/route.ts";
import { captures } from "../schemas/captures.ts";
import { unwrap } from "../http/refusal.ts";
import { actorName } from "../schemas/principal.ts";

export const captureRoutes = [
  implement(captures.list, (ctx) => ctx.appliance.stub.dataPlane().captures()),
  implement(captures.start, async (ctx) => {
    const { destinationIp, maxPackets, maxDurationSeconds } = ctx.body;
    return unwrap(await ctx.appliance.stub.dataPlane().startCapture(ctx.params.id, destinationIp, maxPackets, maxDurationSeconds, actorName(ctx.principal!)))
      .capture;
  }),
  implement(captures.stop, async (ctx) => {
    const { sessionId } = unwrap(await ctx.appliance.stub.dataPlane().stopCapture(ctx.params.id, actorName(ctx.principal!)));
    return { status: "stopped" as const, sessionId };
  }),
];
