/** Captures: per-session packet mirroring to a GRE collector. */
import { inWorker } from "../http/route.ts";
import { captures } from "../schemas/captures.ts";
import { unwrap } from "../http/refusal.ts";

export const captureRoutes = [
  inWorker(captures.list, (ctx) => ctx.port.captures.list()),
  inWorker(captures.start, async (ctx) => {
    const { destinationIp, maxPackets, maxDurationSeconds } = ctx.body;
    return unwrap(await ctx.port.captures.start(ctx.params.id, { destinationIp, maxPackets, maxDurationSeconds }))
      .capture;
  }),
  inWorker(captures.stop, async (ctx) => {
    const { sessionId } = unwrap(await ctx.port.captures.stop(ctx.params.id));
    return { status: "stopped" as const, sessionId };
  }),
];
