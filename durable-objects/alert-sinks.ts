/**
 * The alert fan-out's transport: every notification goes to each configured
 * sink whose severity floor it meets. A webhook is an HTTP POST, no
 * redirects followed; an SMTP sink a message submitted to its mail server, a
 * bus sink a QoS 1 PUBLISH to its MQTT broker (./transports/).
 *
 * A receiver's outage loses nothing within bounds an operator can read
 * (docs/observability.md, Alerts): each sink has a queue of `queueSize`
 * notifications, delivered one at a time in the order they were raised (so
 * a clear never overtakes its raise, and an MQTT client identifier is never
 * in use twice), the head retried with capped exponential backoff until it
 * is delivered, refused for good, or older than SINK_MAX_AGE_MS. What is
 * dropped (the queue full, too old, refused) is counted per sink
 * (`bng_alert_notifications_total{outcome="dropped"}`); what was dropped
 * unseen is named once delivery resumes (`alarm.notifications.lost`), as
 * syslog shipping does. Nothing here blocks the data plane: deliveries run
 * after the step that raised the alarm, never awaited by a request. The
 * queue is in memory, as a real box's is: a restart loses what it holds.
 *
 * Every destination passes the destination policy (SSRF,
 * src/config/destinations.ts: `outboundFetch`, and the sockets' Wire.open),
 * and a failure is logged as just that: the log ring is readable by
 * read-only accounts, and a status code, a timeout, a refused connection or a
 * server's reply per URL would map which internal services listen where. The
 * detail goes to the appliance's console, which only whoever runs it sees.
 */
import type { AlertNotification, AlertSinkState } from "../src/schemas/alarms.ts";
import { recipients, type AlertSink } from "../simulator/alert-fanout.ts";
import type { FieldValue, Severity } from "../simulator/index.ts";
import { DestinationRefused, outboundFetch } from "../src/config/destinations.ts";
import { mqttSink, smtpSink } from "../src/config/sink-urls.ts";
import { alertMail } from "./transports/alert-mail.ts";
import type { Attempt } from "./transports/attempt.ts";
import { publish } from "./transports/mqtt.ts";
import { submit } from "./transports/smtp.ts";

/** How long a webhook receiver has to answer. */
export const WEBHOOK_TIMEOUT_MS = 5_000;
/** How long one SMTP or MQTT attempt may take, connection to goodbye. */
export const SOCKET_ATTEMPT_TIMEOUT_MS = 10_000;
/** The first wait after a failed attempt, doubled after each further failure up to the cap (as syslog's). */
export const BACKOFF_FIRST_MS = 1_000;
export const BACKOFF_MAX_MS = 30_000;
/**
 * A notification still undelivered this long after it was raised is dropped (counted, and named when delivery resumes).
 */
export const SINK_MAX_AGE_MS = 30 * 60_000;

type Log = (severity: Severity, msgId: string, fields: Record<string, FieldValue>) => void;
type Outcome = "delivered" | "retried" | "dropped";
/** A configured sink as the transport holds it: `alarms.sinks`' item, credential and queue size included. */
export type SinkSettings = AlertSink & { queueSize: number };
/** What a sink's pump needs of the fan-out: one try at a delivery, and the log. */
interface Pumping {
  attempt: (sink: SinkSettings, notification: AlertNotification) => Promise<Attempt>;
  log: Log;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

// The URL is not logged: it may carry a user name, or a password in its user part.
const aboutOf = (sink: AlertSink, notification: AlertNotification) => ({
  sink: sink.name,
  kind: sink.kind,
  notification: notification.kind,
  alarmId: notification.alarm.id,
});

/** One sink: its queue, its pump, and what an operator reads of it (GET /api/v1/alarms/sinks, the scrape). */
class SinkQueue {
  #settings: SinkSettings;
  readonly #owner: Pumping;
  #queue: { notification: AlertNotification; queuedMs: number; attempts: number }[] = [];
  #running = false;
  #stopped = false;
  #backoffMs = 0;
  /** The attempt under way, for `settled`. */
  attempt: Promise<Attempt> | null = null;
  #nextAttemptMs: number | null = null;
  /** Ends the wait for a retry early (the sink was reconfigured). */
  #wake: (() => void) | null = null;
  /** The head failed and waits for its retry: the outage has been logged (`alarm.sink.retrying`) once. */
  #failing = false;
  /**
   * Dropped since the last delivery without a log entry of their own (queue full, too old): named when delivery
   * resumes.
   */
  #unreported = 0;
  readonly counts: Record<Outcome, number> = { delivered: 0, retried: 0, dropped: 0 };
  #lastSuccessMs: number | null = null;
  #lastFailureMs: number | null = null;
  #lastFailureReason: AlertSinkState["lastFailureReason"] = null;

  constructor(settings: SinkSettings, owner: Pumping) {
    this.#settings = settings;
    this.#owner = owner;
  }

  get settings(): SinkSettings {
    return this.#settings;
  }

  /** New settings (a changed URL or credential is how an outage is often fixed): a retry waiting is made now. */
  set settings(settings: SinkSettings) {
    this.#settings = settings;
    this.#backoffMs = 0;
    this.#wake?.();
  }

  /**
   * Queues a notification behind the earlier ones and wakes the pump; a full queue drops it (the oldest are kept, as
   * syslog's).
   */
  offer(notification: AlertNotification): void {
    if (this.#queue.length >= this.#settings.queueSize) {
      this.counts.dropped++;
      this.#unreported++;
      return;
    }
    this.#queue.push({ notification, queuedMs: Date.now(), attempts: 0 });
    if (!this.#running) {
      this.#running = true;
      void this.#run().finally(() => (this.#running = false));
    }
  }

  /** The sink was removed: nothing more is sent (an attempt under way ends as it ends). */
  stop(): void {
    this.#stopped = true;
    this.#queue = [];
    this.#wake?.();
  }

  state(): AlertSinkState {
    const { name, kind, severityFloor, queueSize } = this.#settings;
    const oldest = this.#queue[0]?.queuedMs ?? null;
    return {
      name,
      kind,
      severityFloor,
      state: this.#queue.length === 0 ? "idle" : this.#failing ? "retrying" : "delivering",
      queued: this.#queue.length,
      queueSize,
      oldestQueuedUtc: iso(oldest),
      nextAttemptUtc: this.#failing ? iso(this.#nextAttemptMs) : null,
      lastSuccessUtc: iso(this.#lastSuccessMs),
      lastFailureUtc: iso(this.#lastFailureMs),
      lastFailureReason: this.#lastFailureReason,
      ...this.counts,
    };
  }

  async #run(): Promise<void> {
    while (!this.#stopped && this.#queue.length > 0) {
      const head = this.#queue[0]!;
      if (Date.now() - head.queuedMs > SINK_MAX_AGE_MS) {
        this.#queue.shift();
        this.#drop(true);
        continue;
      }
      const sink = this.#settings;
      head.attempts++;
      this.attempt = this.#owner.attempt(sink, head.notification);
      const outcome = await this.attempt;
      this.attempt = null;
      if (this.#stopped) return;
      const about = aboutOf(sink, head.notification);
      if (outcome.ok) {
        this.#queue.shift();
        this.counts.delivered++;
        this.#lastSuccessMs = Date.now();
        this.#backoffMs = 0;
        this.#failing = false;
        this.#owner.log("info", "alarm.sink.delivered", {
          ...about,
          ...(outcome.status === undefined ? {} : { status: outcome.status }),
          attempts: head.attempts,
        });
        if (this.#unreported > 0) {
          // Logged after the delivery: the receiver is back, and this entry reaches the log and syslog at once.
          this.#owner.log("warning", "alarm.notifications.lost", {
            sink: sink.name,
            kind: sink.kind,
            lost: this.#unreported,
          });
          this.#unreported = 0;
        }
        continue;
      }
      this.#lastFailureMs = Date.now();
      const reason = outcome.refused ? ("destination not allowed" as const) : ("not delivered" as const);
      this.#lastFailureReason = reason;
      console.warn(`alarm sink '${sink.name}' (${sink.kind}), attempt ${head.attempts}: ${outcome.cause}`);
      if (outcome.permanent) {
        // Refused for good (a 4xx, a 5xx SMTP reply, a refused credential, the policy): tried again it would fail
        // again.
        this.#queue.shift();
        this.#drop(false);
        this.#failing = false;
        this.#owner.log("warning", "alarm.sink.failed", { ...about, reason, attempts: head.attempts });
        continue;
      }
      this.counts.retried++;
      if (!this.#failing) {
        this.#failing = true;
        this.#owner.log("warning", "alarm.sink.retrying", { ...about, reason, queued: this.#queue.length });
      }
      this.#backoffMs = Math.min(BACKOFF_MAX_MS, this.#backoffMs === 0 ? BACKOFF_FIRST_MS : this.#backoffMs * 2);
      this.#nextAttemptMs = Date.now() + this.#backoffMs;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.#backoffMs);
        this.#wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.#wake = null;
    }
  }

  /**
   * A notification given up: counted; `unseen` when no entry of its own says so (it waited too long, or found the queue
   * full).
   */
  #drop(unseen: boolean): void {
    this.counts.dropped++;
    if (unseen) this.#unreported++;
  }
}

export class AlertSinks {
  readonly #queues = new Map<string, SinkQueue>();
  #allowlist: readonly string[] = [];
  readonly #pumping: Pumping;

  constructor(log: Log) {
    this.#pumping = {
      log,
      attempt: (sink, notification) =>
        sink.kind === "webhook" ? this.#post(sink, notification) : this.#overSocket(sink, notification),
    };
  }

  /**
   * Hot-applies `alarms.sinks` and `alarms.webhookAllowlist`: a kept sink keeps its queue (a changed URL or credential
   * is how an outage is often fixed), a removed one stops.
   */
  set(sinks: SinkSettings[], allowlist: readonly string[]): void {
    this.#allowlist = [...allowlist];
    const names = new Set(sinks.map((s) => s.name));
    for (const [name, queue] of this.#queues) {
      if (names.has(name)) continue;
      queue.stop();
      this.#queues.delete(name);
    }
    for (const sink of sinks) {
      const queue = this.#queues.get(sink.name);
      if (queue) queue.settings = { ...sink };
      else this.#queues.set(sink.name, new SinkQueue({ ...sink }, this.#pumping));
    }
  }

  /** Queues a notification for each sink whose floor it meets, without waiting for any. */
  send(notification: AlertNotification): void {
    const settings = [...this.#queues.values()].map((q) => q.settings);
    for (const sink of recipients(notification.alarm.severity, settings))
      this.#queues.get(sink.name)!.offer(notification);
  }

  /** Each configured sink's state and counts, in configuration order. */
  states(): AlertSinkState[] {
    return [...this.#queues.values()].map((q) => q.state());
  }

  /** Resolves once no attempt is under way (a sink waiting for its retry is not waited for). */
  async settled(): Promise<void> {
    for (;;) {
      const under = [...this.#queues.values()].map((q) => q.attempt).filter((a) => a !== null);
      if (under.length === 0) return;
      await Promise.allSettled(under);
      // A turn for each pump to log its outcome and start its next attempt.
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  }

  async #overSocket(sink: AlertSink, notification: AlertNotification): Promise<Attempt> {
    const password = sink.credential ?? passwordOf(sink.url);
    try {
      if (sink.kind === "smtp") {
        const read = smtpSink(sink.url);
        if (!read.ok) return { ok: false, permanent: true, cause: read.detail };
        const message = alertMail(notification, read.sink.from, read.sink.to, crypto.randomUUID());
        return await submit(
          sink.url,
          read.sink,
          password,
          this.#allowlist,
          { helo: heloName(notification.appliance), message },
          SOCKET_ATTEMPT_TIMEOUT_MS,
        );
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
      if (error instanceof DestinationRefused)
        return { ok: false, permanent: true, refused: true, cause: error.message };
      return { ok: false, permanent: false, cause: error instanceof Error ? error.message : String(error) };
    }
  }

  async #post(sink: AlertSink, notification: AlertNotification): Promise<Attempt> {
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
      const status = response.status;
      if (status >= 200 && status < 300) return { ok: true, status };
      // Worth another try: the receiver is busy or failing (RFC 9110 §15.5.9, §15.6; RFC 6585 §4), not refusing this
      // request.
      return { ok: false, permanent: !(status === 408 || status === 429 || status >= 500), cause: `HTTP ${status}` };
    } catch (error) {
      if (error instanceof DestinationRefused)
        return { ok: false, permanent: true, refused: true, cause: error.message };
      return {
        ok: false,
        permanent: false,
        cause:
          error instanceof Error && error.name === "TimeoutError"
            ? `no answer within ${WEBHOOK_TIMEOUT_MS} ms`
            : "connection failed",
      };
    }
  }
}

/** The password in a URL's user part, when the sink keeps it there rather than in `credential`. */
function passwordOf(url: string): string | null {
  const password = new URL(url).password;
  return password ? decodeURIComponent(password) : null;
}

/**
 * EHLO's argument (RFC 5321 §4.1.1.1): the appliance's name as a host name label under .invalid (the twin has no domain
 * of its own).
 */
const heloName = (appliance: string) =>
  `${
    appliance
      .toLowerCase()
      .replace(/[^a-z0-9-]/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 63) || "bng"
  }.bngfleet.invalid`;
