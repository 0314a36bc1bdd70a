/**
 * Alarms: the active set, the operator clear, a synthetic alert through the push fan-out, and the push sinks' state.
 */
import { inWorker } from "../http/route.ts";
import { alarms } from "../schemas/alarms.ts";

export const alarmRoutes = [
  inWorker(alarms.list, (ctx) => ctx.port.alarms.list()),
  inWorker(alarms.clear, (ctx) => ctx.port.alarms.clear(ctx.body.id, ctx.body.instance)),
  inWorker(alarms.test, (ctx) => ctx.port.alarms.test(ctx.body?.severity ?? "major", ctx.body?.text ?? null)),
  inWorker(alarms.sinks, (ctx) => ctx.port.alarms.sinks()),
];
