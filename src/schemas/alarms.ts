/** Alarms, the wire contract: an active alarm, the active set, the clear and test requests and results, the push sinks' notification, and the section's operations. */
import { z } from "zod";
import { operation } from "./contract.ts";
import { ALARM_CATALOGUE, ALARM_SEVERITIES, NOTIFICATION_KINDS } from "../../simulator/vocabulary.ts";

const int32 = z.int32();
const count = z.int().min(0);
export const Severity = z.enum(ALARM_SEVERITIES);
// An object, not z.record(Severity, …): a record with enum keys becomes a JSON
// Schema whose `required` names properties it never defines, which code
// generators cannot read (Redocly's no-required-schema-properties-undefined).
const BySeverity = z.object({ critical: int32, major: int32, minor: int32, warning: int32 } satisfies Record<(typeof ALARM_SEVERITIES)[number], typeof int32>);

export const Alarm = z
  .object({
    id: z.string().meta({ description: "catalogue id of the alarm" }),
    instance: z.string().nullable().meta({ description: "discriminator (pool, group or server); null for a singleton" }),
    severity: Severity,
    firstRaisedUtc: z.string().meta({ description: "date-time" }),
    ageSeconds: count,
    text: z.string(),
    context: z.record(z.string(), z.string()).meta({ description: "alarm-specific key/value context" }),
  })
  .meta({ id: "Alarm" });
export type Alarm = z.output<typeof Alarm>;

export const AlarmsResponse = z
  .object({
    active: z.array(Alarm).meta({ description: "most severe first, then oldest first" }),
    count: int32.meta({ description: "`active.length`" }),
    countBySeverity: BySeverity.meta({ description: "every severity, zero included; sums to `count`" }),
    stats: z.object({ raised: count, cleared: count, events: count, eventsDropped: count }),
  })
  .meta({ id: "AlarmsResponse" });
export type AlarmsResponse = z.output<typeof AlarmsResponse>;

export const AlarmClearResult = z
  .object({ cleared: z.boolean().meta({ description: "false when no active alarm matched" }), id: z.string(), instance: z.string().nullable() })
  .meta({ id: "AlarmClearResult" });
export type AlarmClearResult = z.output<typeof AlarmClearResult>;

export const AlertNotification = z
  .object({
    version: z.literal("1"),
    kind: z.enum(NOTIFICATION_KINDS).meta({ description: "`raised` and `cleared` as the alarm book changes; `test` for POST /api/v1/alarms/test" }),
    appliance: z.string(),
    sentUtc: z.string().meta({ description: "date-time" }),
    alarm: Alarm,
    activeAlarms: BySeverity.meta({ description: "the appliance's active alarms by severity when the alert was sent" }),
  })
  .meta({
    id: "AlertNotification",
    description:
      "the payload push sinks (webhook, SMTP, message bus) receive, for every alarm raised or cleared and for each test. " +
      "A webhook sink gets it as the JSON body of a POST (`content-type: application/json`, `x-bng-notification: <kind>`, " +
      "`authorization: Bearer <credential>` when the sink has one), one attempt with a 5 s timeout, redirects not followed; " +
      "each outcome is logged (`alarm.sink.delivered`, `alarm.sink.failed`). An SMTP sink gets an e-mail whose subject names appliance, " +
      "severity and alarm, with a text/plain part and this object as an `application/json` attachment; a bus sink gets it as the payload of an " +
      "MQTT 3.1.1 PUBLISH at QoS 1 on `<topic prefix>/<appliance>/<severity>`. Both are tried up to 3 times, in order per sink.",
  });
export type AlertNotification = z.output<typeof AlertNotification>;

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

/** The section's operations. */
export const alarms = {
  list: operation({
    method: "GET",
    path: "/api/v1/alarms",
    section: "Alarms",
    summary: "Active alarms, most severe first, with counts and statistics",
    description:
      "Alarms are raised and cleared by their conditions after every 10-second step and every action, with hysteresis. " +
      "A manually cleared alarm is raised again only after its condition has cleared and returned. Catalogue:\n\n" +
      catalogue,
    response: { description: "AlarmsResponse", schema: AlarmsResponse },
    examples: {
      response: {
        active: [],
        count: 0,
        countBySeverity: { critical: 0, major: 0, minor: 0, warning: 0 },
        stats: { raised: 0, cleared: 0, events: 0, eventsDropped: 0 },
      },
    },
  }),
  clear: operation({
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
    examples: {
      body: { id: "radius.server.down", instance: "radius-2.isp.example:1812" },
      response: { cleared: false, id: "radius.server.down", instance: "radius-2.isp.example:1812" },
    },
  }),
  test: operation({
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
    examples: {
      body: { severity: "warning", text: "NOC test alert: please acknowledge" },
      response: {
        version: "1",
        kind: "test",
        appliance: "edge-1",
        sentUtc: "2026-11-26T20:35:10.000Z",
        alarm: {
          id: "alert.test",
          instance: null,
          severity: "warning",
          firstRaisedUtc: "2026-11-26T20:35:10.000Z",
          ageSeconds: 0,
          text: "NOC test alert: please acknowledge",
          context: { requestedBy: "token:bootstrap" },
        },
        activeAlarms: { critical: 0, major: 0, minor: 0, warning: 0 },
      },
    },
  }),

};
