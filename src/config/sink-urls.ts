/**
 * What an SMTP or MQTT alarm sink's `url` says, read in one place for the
 * configuration's validation and for delivery. The spec leaves a sink's
 * members "not shown"; a sink stays `kind`, `url`, `severityFloor` and a
 * secret `credential`, and the URL carries the rest (docs/decisions.md, Alarm
 * sinks), in the form Shoutrrr and the Mosquitto clients read (beside them, `queueSize`):
 *
 *   smtp://[user@]host[:587]/?from=bng@isp.example&to=noc@isp.example  STARTTLS, required
 *   smtps://[user@]host[:465]/?from=…&to=…                              TLS from the first byte
 *   mqtt[s]://[user@]host[:1883|8883][/topic/prefix]                    topic <prefix>/<appliance>/<severity>
 *
 * The password is the sink's `credential` (or the URL's password part, shown
 * redacted as every URL's is).
 */

/**
 * Notifications a sink's queue holds unless configured otherwise (`queueSize`): alarms are rare; this outlasts any
 * storm of them.
 */
export const ALERT_QUEUE_SIZE = 1_000;

export interface SmtpSink {
  /** Implicit TLS (smtps:) rather than STARTTLS (smtp:). */
  implicitTls: boolean;
  defaultPort: number;
  username: string | null;
  from: string;
  to: string[];
}

export interface MqttSink {
  tls: boolean;
  defaultPort: number;
  username: string | null;
  /** Topics are `<prefix>/<appliance>/<severity>`. */
  topicPrefix: string;
}

export type SinkUrl<T> = { ok: true; sink: T } | { ok: false; detail: string };

/** The topic prefix when the URL has no path. */
export const DEFAULT_TOPIC_PREFIX = "bngfleet/alarms";

/** An atom of a dot-atom (RFC 5322 §3.2.3 atext) and a host name's label (RFC 1035 §2.3.1, 63 octets at most). */
const ATOM = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
const LABEL = "[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?";
/**
 * An address as SMTP commands and header fields take it verbatim: a dot-atom
 * local part and a host name (RFC 5321 §4.1.2, without quoted strings or
 * address literals), so nothing in it can end a command or a header line.
 */
const MAILBOX = new RegExp(String.raw`^${ATOM}(?:\.${ATOM})*@(?=.{1,253}$)${LABEL}(?:\.${LABEL})*$`);
/** RFC 5321 §4.5.3.1.3: a path is at most 256 octets with its angle brackets. */
const MAILBOX_MAX = 254;
const MAX_RECIPIENTS = 20;

const userOf = (url: URL): string | null => (url.username ? decodeURIComponent(url.username) : null);

/** Reads an smtp: or smtps: sink URL. */
export function smtpSink(text: string): SinkUrl<SmtpSink> {
  const url = new URL(text);
  if (url.pathname !== "" && url.pathname !== "/")
    return { ok: false, detail: "an SMTP sink's URL has no path: smtp://host/?from=…&to=…" };
  if (url.hash) return { ok: false, detail: "an SMTP sink's URL has no fragment" };
  const unknown = [...url.searchParams.keys()].filter((k) => k !== "from" && k !== "to");
  if (unknown.length > 0)
    return { ok: false, detail: `an SMTP sink's URL takes from and to only, not ${unknown.join(", ")}` };
  const from = url.searchParams.getAll("from");
  const to = url.searchParams
    .getAll("to")
    .flatMap((t) => t.split(","))
    .map((t) => t.trim());
  if (from.length !== 1) return { ok: false, detail: "an SMTP sink's URL names one sender: ?from=<address>" };
  if (to.length === 0 || to.length > MAX_RECIPIENTS)
    return { ok: false, detail: `an SMTP sink's URL names 1-${MAX_RECIPIENTS} recipients: &to=<address>[,<address>…]` };
  const bad = [...from, ...to].find((a) => a.length > MAILBOX_MAX || !MAILBOX.test(a));
  if (bad !== undefined)
    return { ok: false, detail: `'${bad.slice(0, 64)}' is not an e-mail address (local@domain, no quoting)` };
  const implicitTls = url.protocol === "smtps:";
  return {
    ok: true,
    sink: {
      implicitTls,
      defaultPort: implicitTls ? 465 : 587,
      username: userOf(url),
      from: from[0]!,
      to: [...new Set(to)],
    },
  };
}

/** Reads an mqtt: or mqtts: sink URL. */
export function mqttSink(text: string): SinkUrl<MqttSink> {
  const url = new URL(text);
  if (url.search || url.hash)
    return { ok: false, detail: "an MQTT sink's URL has no query or fragment: mqtts://host/<topic prefix>" };
  let prefix: string;
  try {
    prefix = decodeURIComponent(url.pathname.replace(/^\/+|\/+$/g, ""));
  } catch {
    return { ok: false, detail: "an MQTT sink's topic prefix is not UTF-8" };
  }
  // MQTT 3.1.1 §4.7: a topic name carries no wildcard; §1.5.3: no U+0000 in a string.
  if (/[+#\u0000-\u001f\u007f]/.test(prefix) || prefix.length > 200)
    return {
      ok: false,
      detail:
        "an MQTT sink's topic prefix (the URL's path) has no +, # or control characters, and at most 200 characters",
    };
  const tls = url.protocol === "mqtts:";
  return {
    ok: true,
    sink: { tls, defaultPort: tls ? 8883 : 1883, username: userOf(url), topicPrefix: prefix || DEFAULT_TOPIC_PREFIX },
  };
}
