/**
 * The alert fan-out's transport: every notification goes to each configured
 * sink whose severity floor it meets, so a NOC can point `alarms.sinks` at
 * its own receiver and watch alerts arrive. A webhook is an HTTP POST, one
 * attempt, no redirects followed. An SMTP sink is a message submitted to its
 * mail server, a bus sink a QoS 1 PUBLISH to its MQTT broker
 * (./transports/), each tried up to three times with a growing wait, one at a
 * time per sink so they arrive in order and a client identifier is never in
 * use twice. Every outcome is logged; none blocks the data plane (deliveries
 * run after the step that raised the alarm, never awaited by a request).
 *
 * Every destination passes the destination policy (SSRF,
 * src/config/destinations.ts: `outboundFetch`, and the sockets' Wire.open),
 * and a failed delivery is logged as just that: the log ring is readable by
 * read-only accounts, and a status code, a timeout, a refused connection or a
 * server's reply per URL would map which internal services listen where. The
 * detail goes to the appliance's console, which only whoever runs it sees.
 */
import type { AlertNotification } from "../src/schemas/alarms.ts";
import { recipients, type AlertSink } from "../simulator/alert-fanout.ts";
import type { FieldValue, Severity } from "../simulator/index.ts";
import { DestinationRefused, outboundFetch } from "../src/config/destinations.ts";
import { mqttSink, smtpSink } from "../src/config/sink-urls.ts";
import { alertMail } from "./transports/alert-mail.ts";
import { withRetries, type Attempt } from "./transports/attempt.ts";
import { publish } from "./transports/mqtt.ts";
import { submit } from "./transports/smtp.ts";

/** How long a webhook receiver has to answer. */
export const WEBHOOK_TIMEOUT_MS = 5_000;
/** How long one SMTP or MQTT attempt may take, connection to goodbye. */
export const SOCKET_ATTEMPT_TIMEOUT_MS = 10_000;
/** Notifications waiting for one socket sink at most; more are dropped (and logged) while it is unreachable. */
export const SINK_QUEUE_LIMIT = 32;

type Log = (severity: Severity, msgId: string, fields: Record<string, FieldValue>) => void;

export class AlertSinks {
  #sinks: AlertSink[] = [];
  #allowlist: readonly string[] = [];
  readonly #log: Log;
  readonly #pending = new Set<Promise<void>>();
  /** Per socket sink: the end of its queue of deliveries, and how many wait in it. */
  readonly #queues = new Map<string, { tail: Promise<void>; length: number }>();

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
      const delivery = (sink.kind === "webhook" ? this.#deliver(sink, notification) : this.#enqueue(sink, notification)).finally(() => this.#pending.delete(delivery));
      this.#pending.add(delivery);
    }
  }

  /** Resolves once every delivery under way has finished (an orderly stop waits for it). */
  async settled(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
  }

  /** Queues a socket sink's delivery behind its earlier ones (keyed by name and URL: a changed sink starts afresh). */
  #enqueue(sink: AlertSink, notification: AlertNotification): Promise<void> {
    const key = `${sink.name}\u0000${sink.url}`;
    const queue = this.#queues.get(key) ?? { tail: Promise.resolve(), length: 0 };
    if (queue.length >= SINK_QUEUE_LIMIT) {
      console.warn(`alarm sink '${sink.name}': ${SINK_QUEUE_LIMIT} notifications already waiting, one dropped`);
      this.#log("warning", "alarm.sink.failed", { ...aboutOf(sink, notification), reason: "queue full" });
      return Promise.resolve();
    }
    queue.length++;
    queue.tail = queue.tail
      .then(() => this.#deliverOverSocket(sink, notification))
      // Never a rejected tail: the deliveries queued behind it would be skipped.
      .catch((error: unknown) => console.error(`alarm sink '${sink.name}':`, error))
      .finally(() => {
        if (--queue.length === 0 && this.#queues.get(key) === queue) this.#queues.delete(key);
      });
    this.#queues.set(key, queue);
    return queue.tail;
  }

  async #deliverOverSocket(sink: AlertSink, notification: AlertNotification): Promise<void> {
    const about = aboutOf(sink, notification);
    const outcome = await withRetries(() => this.#attempt(sink, notification));
    if (outcome.ok) {
      this.#log("info", "alarm.sink.delivered", { ...about, attempts: outcome.attempts });
      return;
    }
    console.warn(`alarm sink '${sink.name}' (${sink.kind}), attempt ${outcome.attempts}: ${outcome.cause}`);
    this.#log("warning", "alarm.sink.failed", { ...about, reason: outcome.refused ? "destination not allowed" : "not delivered", attempts: outcome.attempts });
  }

  /** One try at an SMTP or bus sink. */
  async #attempt(sink: AlertSink, notification: AlertNotification): Promise<Attempt> {
    const password = sink.credential ?? passwordOf(sink.url);
    try {
      if (sink.kind === "smtp") {
        const read = smtpSink(sink.url);
        if (!read.ok) return { ok: false, permanent: true, cause: read.detail };
        const message = alertMail(notification, read.sink.from, read.sink.to, crypto.randomUUID());
        return await submit(sink.url, read.sink, password, this.#allowlist, { helo: heloName(notification.appliance), message }, SOCKET_ATTEMPT_TIMEOUT_MS);
      }
      const read = mqttSink(sink.url);
      if (!read.ok) return { ok: false, permanent: true, cause: read.detail };
      const publication = {
        clientId: `bngfleet-${notification.appliance}-${sink.name}`,
        topic: `${read.sink.topicPrefix}/${notification.appliance}/${notification.alarm.severity}`,
        payload: JSON.stringify(notification),
      };
      return await publish(sink.url, read.sink, password, this.#allowlist, publication, SOCKET_ATTEMPT_TIMEOUT_MS);
    } catch (error) {
      if (error instanceof DestinationRefused) return { ok: false, permanent: true, refused: true, cause: error.message };
      return { ok: false, permanent: false, cause: error instanceof Error ? error.message : String(error) };
    }
  }

  async #deliver(sink: AlertSink, notification: AlertNotification): Promise<void> {
    const about = aboutOf(sink, notification);
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

// The URL is not logged: it may carry a user name, or a password in its user part.
const aboutOf = (sink: AlertSink, notification: AlertNotification) => ({ sink: sink.name, kind: sink.kind, notification: notification.kind, alarmId: notification.alarm.id });

/** The password in a URL's user part, when the sink keeps it there rather than in `credential`. */
function passwordOf(url: string): string | null {
  const password = new URL(url).password;
  return password ? decodeURIComponent(password) : null;
}

/** EHLO's argument (RFC 5321 §4.1.1.1): the appliance's name as a host name label under .invalid (the twin has no domain of its own). */
const heloName = (appliance: string) => `${appliance.toLowerCase().replace(/[^a-z0-9-]/g, "-").replace(/^-+|-+$/g, "").slice(0, 63) || "bng"}.bngfleet.invalid`;
