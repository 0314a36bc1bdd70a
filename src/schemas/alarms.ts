/**
 * Alarms, the wire contract: an active alarm, the active set, the clear and test requests and results, the push sinks'
 * notification, and the section's operations.
 */
import { z } from "zod";
import { operation } from "./contract.ts";
import { ALARM_CATALOGUE, ALARM_SEVERITIES, NOTIFICATION_KINDS } from "../../simulator/vocabulary.ts";

const int32 = z.int32();
const count = z.int().min(0);
export const Severity = z.enum(ALARM_SEVERITIES);
// An object, not z.record(Severity, …): a record with enum keys becomes a JSON
// Schema whose `required` names properties it never defines, which code
// generators cannot read (Redocly's no-required-schema-properties-undefined).
const BySeverity = z.object({ critical: int32, major: int32, minor: int32, warning: int32 } satisfies Record<
  (typeof ALARM_SEVERITIES)[number],
  typeof int32
>);

export const Alarm = z
  .object({
    id: z.string().meta({ description: "catalogue id of the alarm" }),
    instance: z
      .string()
      .nullable()
      .meta({ description: "discriminator (pool, group or server); null for a singleton" }),
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
  .object({
    cleared: z.boolean().meta({ description: "false when no active alarm matched" }),
    id: z.string(),
    instance: z.string().nullable(),
  })
  .meta({ id: "AlarmClearResult" });
export type AlarmClearResult = z.output<typeof AlarmClearResult>;

export const AlertNotification = z
  .object({
    version: z.literal("1"),
    kind: z
      .enum(NOTIFICATION_KINDS)
      .meta({ description: "`raised` and `cleared` as the alarm book changes; `test` for POST /api/v1/alarms/test" }),
    appliance: z.string(),
    sentUtc: z.string().meta({ description: "date-time" }),
    alarm: Alarm,
    activeAlarms: BySeverity.meta({ description: "the appliance's active alarms by severity when the alert was sent" }),
  })
  .meta({
    id: "AlertNotification",
    description:
      "the payload push sinks (webhook, SMTP, message bus) receive, for every alarm " +
      "raised or cleared and for each test. " +
      ("A webhook sink gets it as the JSON body of a POST (`content-type: " +
        "application/json`, `x-bng-notification: <kind>`, ") +
      "`authorization: Bearer <credential>` when the sink has one), a 5 s timeout per attempt, redirects not " +
      "followed. An SMTP sink gets an e-mail whose subject names appliance, " +
      ("severity and alarm, with a text/plain part and this object as an " +
        "`application/json` attachment; a bus sink gets it as the payload of an ") +
      "MQTT 3.1.1 PUBLISH at QoS 1 on `<topic prefix>/<appliance>/<severity>`. Each sink queues its notifications " +
      "(`queueSize`) and delivers them in order, " +
      "retrying through an outage (1 s, doubling to 30 s) for up to 30 minutes; outcomes are logged " +
      "(`alarm.sink.delivered`, `alarm.sink.retrying`, " +
      "`alarm.sink.failed`, `alarm.notifications.lost`) and counted (GET /api/v1/alarms/sinks, " +
      "`bng_alert_notifications_total`).",
  });
export type AlertNotification = z.output<typeof AlertNotification>;

const utc = z.string().nullable().meta({ description: "date-time (the wall clock); null when never" });

export const AlertSinkState = z
  .object({
    name: z.string().meta({ description: "the sink's key in `alarms.sinks`" }),
    kind: z.enum(["webhook", "smtp", "bus"]),
    severityFloor: Severity,
    state: z.enum(["idle", "delivering", "retrying"]).meta({
      description:
        "`idle`: nothing queued; `delivering`: sending what is queued; " +
        "`retrying`: the oldest notification failed and waits for its retry (`nextAttemptUtc`)",
    }),
    queued: count.meta({ description: "notifications waiting, the one being tried included" }),
    queueSize: count.meta({ description: "the most it holds (the sink's `queueSize`); more are dropped" }),
    oldestQueuedUtc: utc.meta({
      description: "date-time the oldest waiting notification was queued (dropped 30 minutes after); null when none",
    }),
    nextAttemptUtc: utc.meta({ description: "date-time of the next retry while `retrying`, else null" }),
    lastSuccessUtc: utc.meta({ description: "date-time of the last delivery (the wall clock); null when never" }),
    lastFailureUtc: utc.meta({ description: "date-time of the last failed attempt; null when never" }),
    lastFailureReason: z
      .enum(["not delivered", "destination not allowed"])
      .nullable()
      .meta({ description: "why the last failed attempt failed; the cause goes to the appliance's console" }),
    delivered: count.meta({ description: "notifications delivered since the appliance started" }),
    retried: count.meta({ description: "failed attempts tried again since the appliance started" }),
    dropped: count.meta({
      description: "given up since the appliance started: queue full, 30 minutes old, or refused for good",
    }),
  })
  .meta({ id: "AlertSinkState" });
export type AlertSinkState = z.output<typeof AlertSinkState>;

export const AlertSinkStates = z
  .object({ sinks: z.array(AlertSinkState).meta({ description: "in configuration order" }) })
  .meta({ id: "AlertSinkStates" });

const AlarmClear = z
  .object({
    id: z.string().min(1).max(128),
    instance: z
      .string()
      .max(256)
      .nullable()
      .default(null)
      .meta({ description: "null or absent for a singleton alarm" }),
  })
  .meta({ id: "AlarmClear" });

const AlertTestRequest = z
  .object({
    severity: Severity.default("major").meta({
      description: "default `major`; a sink is exercised when this is at or above its floor",
    }),
    text: z
      .string()
      .min(1)
      .max(1024)
      .optional()
      .meta({ description: "alert text; default `Test alert from <appliance>`" }),
  })
  .meta({ id: "AlertTestRequest" });

const catalogue = Object.entries(ALARM_CATALOGUE)
  .map(
    ([id, a]) =>
      `- \`${id}\` (${a.severity}; instance: ${a.instance ?? "none"}): raised when ${a.raise}; cleared when ${a.clear}`,
  )
  .join("\n");

/** The section's operations. */
export const alarms = {
  list: operation({
    method: "GET",
    path: "/api/v1/alarms",
    section: "Alarms",
    summary: "Active alarms, most severe first, with counts and statistics",
    description:
      "Alarms are raised and cleared by their conditions after every 10-second step " +
      "and every action, with hysteresis. " +
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
      "The spec's `admin` role, i.e. super-user. The body is optional and may be JSON " +
      "`null`; without it the alert is `major` with the default text. " +
      ("It goes through the same fan-out as real alarms: every sink of `alarms.sinks` " +
        "whose `severityFloor` the `severity` meets receives it ") +
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
  sinks: operation({
    method: "GET",
    path: "/api/v1/alarms/sinks",
    section: "Alert sinks",
    summary: "Each push sink's delivery state: queued notifications, last success and failure, and counts",
    description:
      "The spec's `admin` role, i.e. super-user (the sinks are `alarms.sinks` of the configuration, not shown by " +
      "the spec). For each configured sink: " +
      "whether it is idle, delivering or retrying through an outage, how many notifications wait (of its " +
      "`queueSize`), when the oldest was queued and the " +
      "next retry falls, the last success and failure, and what it delivered, retried and dropped since the " +
      "appliance started (the scrape's " +
      "`bng_alert_notifications_total{sink,outcome}` and `bng_alert_sink_queued{sink}`). Times are the wall clock's.",
    floor: "super-user",
    response: { description: "AlertSinkStates", schema: AlertSinkStates },
    examples: {
      response: {
        sinks: [
          {
            name: "noc",
            kind: "webhook",
            severityFloor: "major",
            state: "retrying",
            queued: 2,
            queueSize: 1000,
            oldestQueuedUtc: "2026-11-26T20:41:07.412Z",
            nextAttemptUtc: "2026-11-26T20:41:22.530Z",
            lastSuccessUtc: "2026-11-26T20:35:10.118Z",
            lastFailureUtc: "2026-11-26T20:41:14.530Z",
            lastFailureReason: "not delivered",
            delivered: 3,
            retried: 4,
            dropped: 0,
          },
        ],
      },
    },
  }),
};
