/**
 * The alert fan-out's transport: every notification goes to each configured
 * sink whose severity floor it meets. Webhooks are real HTTP POSTs, so a NOC
 * can point `alarms.sinks` at its own receiver and watch alerts arrive; the
 * twin has no SMTP or message-bus client, so those sinks' notifications are
 * recorded in the log ring instead of being transmitted. Every outcome is
 * logged; none blocks the data plane (deliveries run after the step that
 * raised the alarm, one attempt each, no redirects followed).
 *
 * A webhook goes only where the destination policy allows (SSRF,
 * src/config/destinations.ts: `outboundFetch`), and a failed
 * delivery is logged as just that: the log ring is readable by read-only
 * accounts, and a status code, a timeout or a refused connection per URL
 * would map which internal services listen where. The detail goes to the
 * appliance's console, which only whoever runs it sees.
 */
import type { AlertNotification } from "../src/schemas/alarms.ts";
import { recipients, type AlertSink } from "../simulator/alert-fanout.ts";
import type { FieldValue, Severity } from "../simulator/index.ts";
import { DestinationRefused, outboundFetch } from "../src/config/destinations.ts";

/** How long a webhook receiver has to answer. */
export const WEBHOOK_TIMEOUT_MS = 5_000;

type Log = (severity: Severity, msgId: string, fields: Record<string, FieldValue>) => void;

export class AlertSinks {
  #sinks: AlertSink[] = [];
  #allowlist: readonly string[] = [];
  readonly #log: Log;
  readonly #pending = new Set<Promise<void>>();

  constructor(log: Log) {
    this.#log = log;
  }

  /** Hot-applies `alarms.sinks` and `alarms.webhookAllowlist`: the next notification goes to these. */
  set(sinks: AlertSink[], allowlist: readonly string[]): void {
    this.#sinks = sinks.map((s) => ({ ...s }));
    this.#allowlist = [...allowlist];
  }

  /** Sends a notification to its recipients without waiting for them. */
  send(notification: AlertNotification): void {
    for (const sink of recipients(notification.alarm.severity, this.#sinks)) {
      const delivery = this.#deliver(sink, notification).finally(() => this.#pending.delete(delivery));
      this.#pending.add(delivery);
    }
  }

  /** Resolves once every delivery under way has finished (an orderly stop waits for it). */
  async settled(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
  }

  async #deliver(sink: AlertSink, notification: AlertNotification): Promise<void> {
    // The URL is not logged: SMTP and bus URLs may carry credentials in their user part.
    const about = { sink: sink.name, kind: sink.kind, notification: notification.kind, alarmId: notification.alarm.id };
    if (sink.kind !== "webhook") {
      this.#log("info", "alarm.sink.recorded", about);
      return;
    }
    try {
      const response = await outboundFetch(sink.url, "webhook", this.#allowlist, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "user-agent": "bngfleet-alerts/1",
          "x-bng-notification": notification.kind,
          ...(sink.credential ? { authorization: `Bearer ${sink.credential}` } : {}),
        },
        body: JSON.stringify(notification),
        signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
      });
      await response.body?.cancel();
      if (response.status >= 200 && response.status < 300) {
        this.#log("info", "alarm.sink.delivered", { ...about, status: response.status });
      } else {
        console.warn(`alarm sink '${sink.name}' answered HTTP ${response.status}`);
        this.#log("warning", "alarm.sink.failed", { ...about, reason: "not delivered" });
      }
    } catch (error) {
      if (error instanceof DestinationRefused) {
        this.#log("warning", "alarm.sink.failed", { ...about, reason: "destination not allowed" });
        return;
      }
      const cause = error instanceof Error && error.name === "TimeoutError" ? `no answer within ${WEBHOOK_TIMEOUT_MS} ms` : "connection failed";
      console.warn(`alarm sink '${sink.name}': ${cause}`);
      this.#log("warning", "alarm.sink.failed", { ...about, reason: "not delivered" });
    }
  }
}
