/**
 * The alert fan-out's pure half: the notification a push sink receives, and
 * which sinks receive it. The spec names three sink kinds (webhook, SMTP,
 * message bus), each with a severity floor; the payload fields are "not
 * shown", so this is the one place that defines them. Transport is the
 * appliance object's business (durable-objects/alert-sinks.ts).
 */
import { isoTime } from "./clock.ts";
import type { Alarm, AlertNotification } from "../src/schemas/alarms.ts";
import { ALARM_CATALOGUE, ALARM_SEVERITIES, type AlarmSeverity, type NotificationKind } from "./vocabulary.ts";
import type { LogEntry } from "../src/schemas/logs.ts";

/** A configured sink (`alarms.sinks`), credential included. */
export interface AlertSink {
  name: string;
  kind: "webhook" | "smtp" | "bus";
  url: string;
  severityFloor: AlarmSeverity;
  credential: string | null;
}

/** True when `severity` is at or above `floor` (critical is the most severe). */
export const meetsSeverityFloor = (severity: AlarmSeverity, floor: AlarmSeverity): boolean =>
  ALARM_SEVERITIES.indexOf(severity) <= ALARM_SEVERITIES.indexOf(floor);

/** The sinks a notification of `severity` goes to, in configuration order. */
export const recipients = (severity: AlarmSeverity, sinks: readonly AlertSink[]): AlertSink[] =>
  sinks.filter((s) => meetsSeverityFloor(severity, s.severityFloor));

/** A notification at the simulated instant `nowMs`. */
export function notification(
  kind: NotificationKind,
  appliance: string,
  nowMs: number,
  alarm: Alarm,
  activeAlarms: Record<AlarmSeverity, number>,
): AlertNotification {
  return {
    version: "1",
    kind,
    appliance,
    sentUtc: isoTime(nowMs),
    alarm: structuredClone(alarm),
    activeAlarms: { ...activeAlarms },
  };
}

const keyOf = (id: string, instance: string | null) => `${id}\u0000${instance ?? ""}`;

/**
 * Turns the log ring's `alarm.raise` and `alarm.clear` entries (the events
 * also shipped to syslog) into notifications. It remembers each raised
 * alarm, so the clear carries the alarm as it was raised; an alarm raised
 * before a restart is described from the catalogue.
 */
export class AlarmNotifier {
  readonly #raised = new Map<string, Alarm>();
  readonly #appliance: string;

  constructor(appliance: string) {
    this.#appliance = appliance;
  }

  /** The notification an entry causes, or null; `view` reads the alarm book at that instant. */
  observe(
    entry: LogEntry,
    nowMs: number,
    view: () => { active: Alarm[]; countBySeverity: Record<AlarmSeverity, number> },
  ): AlertNotification | null {
    if (entry.msgId !== "alarm.raise" && entry.msgId !== "alarm.clear") return null;
    const id = String(entry.fields.id);
    const instance =
      entry.fields.instance === null || entry.fields.instance === undefined ? null : String(entry.fields.instance);
    const key = keyOf(id, instance);
    const book = view();
    if (entry.msgId === "alarm.raise") {
      const alarm = book.active.find((a) => a.id === id && a.instance === instance);
      if (!alarm) return null;
      this.#raised.set(key, alarm);
      return notification("raised", this.#appliance, nowMs, alarm, book.countBySeverity);
    }
    const known = this.#raised.get(key);
    this.#raised.delete(key);
    const severity = (ALARM_CATALOGUE as Record<string, { severity: AlarmSeverity }>)[id]?.severity ?? "major";
    const alarm: Alarm = known
      ? { ...known, ageSeconds: Math.max(0, Math.floor((nowMs - Date.parse(known.firstRaisedUtc)) / 1000)) }
      : { id, instance, severity, firstRaisedUtc: isoTime(nowMs), ageSeconds: 0, text: `${id} cleared`, context: {} };
    return notification("cleared", this.#appliance, nowMs, alarm, book.countBySeverity);
  }
}
