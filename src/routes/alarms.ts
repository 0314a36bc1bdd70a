/** Alarms: the active set, the operator clear, and a synthetic alert through the push fan-out. */
import { z } from "zod";
import { route } from "../http/route.ts";
import { AlarmClearResult, AlarmsResponse, AlertNotification, Severity } from "../schemas/alarms.ts";
import { actorName } from "../schemas/principal.ts";
import { ALARM_CATALOGUE } from "../../simulator/index.ts";

const AlarmClear = z
  .object({
    id: z.string().min(1).max(128),
    instance: z.string().max(256).nullable().default(null).meta({ description: "null or absent for a singleton alarm" }),
  })
  .meta({ id: "AlarmClear" });

const AlertTestRequest = z
  .object({
    severity: Severity.default("major").meta({ description: "default `major`; a sink is exercised when this is at or above its floor" }),
    text: z.string().min(1).max(1024).optional().meta({ description: "alert text; default `Test alert from <appliance>`" }),
  })
  .meta({ id: "AlertTestRequest" });

const catalogue = Object.entries(ALARM_CATALOGUE)
  .map(([id, a]) => `- \`${id}\` (${a.severity}; instance: ${a.instance ?? "none"}): raised when ${a.raise}; cleared when ${a.clear}`)
  .join("\n");

export const alarmRoutes = [
  route({
    method: "GET",
    path: "/api/v1/alarms",
    section: "Alarms",
    summary: "Active alarms, most severe first, with counts and statistics",
    description:
      "Alarms are raised and cleared by their conditions after every 10-second step and every action, with hysteresis. " +
      "A manually cleared alarm is raised again only after its condition has cleared and returned. Catalogue:\n\n" +
      catalogue,
    response: { description: "AlarmsResponse", schema: AlarmsResponse },
    handle: (ctx) => ctx.appliance.stub.dataPlane().alarms(),
  }),
  route({
    method: "POST",
    path: "/api/v1/alarms/clear",
    section: "Alarms",
    summary: "Clear an active alarm by id and instance (audited)",
    description:
      "The spec's `admin` role, i.e. super-user. Matching is exact on `id` and `instance` (null for singletons). " +
      "Clearing nothing is not an error: the answer is 200 with `cleared` false.",
    floor: "super-user",
    body: AlarmClear,
    response: { description: "the clear result", schema: AlarmClearResult },
    handle: (ctx) => ctx.appliance.stub.dataPlane().clearAlarm(ctx.body.id, ctx.body.instance, actorName(ctx.principal!)),
  }),
  route({
    method: "POST",
    path: "/api/v1/alarms/test",
    section: "Alarms",
    summary: "Send a synthetic alert through the real fan-out and return the payload sinks receive (audited)",
    description:
      "The spec's `admin` role, i.e. super-user. The body is optional and may be JSON `null`; without it the alert is `major` with the default text. " +
      "It goes through the same fan-out as real alarms: every sink of `alarms.sinks` whose `severityFloor` the `severity` meets receives it " +
      "(e.g. `major` reaches a sink with the default floor `major`, not one with floor `critical`). " +
      "The synthetic alert is not added to the active alarms.",
    floor: "super-user",
    body: AlertTestRequest.nullable(),
    bodyOptional: true,
    response: { description: "the exact alert-notification payload push sinks receive", schema: AlertNotification },
    handle: (ctx) =>
      ctx.appliance.stub.dataPlane().alertTest(ctx.body?.severity ?? "major", ctx.body?.text ?? null, actorName(ctx.principal!)),
  }),
];
