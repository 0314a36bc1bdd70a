/** Alarms: the active set, the operator clear, and a synthetic alert through the push fan-out. */
import { implement } from "../http/route.ts";
import { alarms } from "../schemas/alarms.ts";
import { actorName } from "../schemas/principal.ts";

export const alarmRoutes = [
  implement(alarms.list, (ctx) => ctx.appliance.stub.dataPlane().alarms()),
  implement(alarms.clear, (ctx) => ctx.appliance.stub.dataPlane().clearAlarm(ctx.body.id, ctx.body.instance, actorName(ctx.principal!))),
  implement(alarms.test, (ctx) => ctx.appliance.stub.dataPlane().alertTest(ctx.body?.severity ?? "major", ctx.body?.text ?? null, actorName(ctx.principal!))),
];
