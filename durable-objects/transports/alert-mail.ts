/**
 * The e-mail an SMTP sink sends for a notification (RFC 5322, MIME RFC 2045-2046):
 * a subject naming appliance, alarm and severity, a text/plain part a person
 * reads, and the `AlertNotification` JSON as an application/json part a
 * program reads. Every header value is printable ASCII built from names the
 * configuration or the model checked; free text (an alarm's `text`, which
 * POST /alarms/test takes from its caller) goes only into base64 bodies, so
 * nothing can add a header or end the message early.
 */
import type { AlertNotification } from "../../src/schemas/alarms.ts";

const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const pad = (n: number) => String(n).padStart(2, "0");

/** RFC 5322 §3.3 date-time in UTC, e.g. `Thu, 26 Nov 2026 18:00:00 +0000`. */
export function mailDate(ms: number): string {
  const d = new Date(ms);
  const date = `${DAYS[d.getUTCDay()]}, ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
  const time = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  return `${date} ${time} +0000`;
}

/** Printable ASCII only, at most `max` characters: what a header may carry unencoded. */
const headerSafe = (text: string, max = 120) => text.replace(/[^\x20-\x7e]/g, "?").slice(0, max);

/** Base64 of UTF-8 text, in lines of 76 (RFC 2045 §6.8). */
function base64Lines(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return (btoa(binary).match(/.{1,76}/g) ?? []).join("\r\n");
}

/** The subject: `[edge-1] CRITICAL cgn.pool.high (cgn-1) raised`. */
export function subjectOf(n: AlertNotification): string {
  const instance = n.alarm.instance === null ? "" : ` (${n.alarm.instance})`;
  return headerSafe(`[${n.appliance}] ${n.alarm.severity.toUpperCase()} ${n.alarm.id}${instance} ${n.kind}`, 200);
}

function readable(n: AlertNotification): string {
  const what = n.kind === "test" ? "A test alert was sent" : `An alarm was ${n.kind}`;
  const active = Object.entries(n.activeAlarms)
    .map(([severity, count]) => `${severity} ${count}`)
    .join(", ");
  return [
    `${what} on ${n.appliance}.`,
    "",
    `Alarm:         ${n.alarm.id}${n.alarm.instance === null ? "" : ` (${n.alarm.instance})`}`,
    `Severity:      ${n.alarm.severity}`,
    `Text:          ${n.alarm.text}`,
    `First raised:  ${n.alarm.firstRaisedUtc}`,
    `Sent:          ${n.sentUtc}`,
    `Active alarms: ${active}`,
    "",
    "The notification as JSON (AlertNotification, version 1) is attached.",
    "",
  ].join("\n");
}

/**
 * The message, CRLF line ends, ready for DATA (before dot-stuffing). `id` makes the Message-ID and the boundary unique.
 */
export function alertMail(n: AlertNotification, from: string, to: readonly string[], id: string): string {
  const boundary = `=_bngfleet_${id}`;
  return [
    `Date: ${mailDate(Date.parse(n.sentUtc))}`,
    `From: ${from}`,
    `To: ${to.join(", ")}`,
    `Subject: ${subjectOf(n)}`,
    `Message-ID: <${id}@bngfleet.invalid>`,
    `X-BNG-Notification: ${n.kind}`,
    "MIME-Version: 1.0",
    `Content-Type: multipart/mixed; boundary="${boundary}"`,
    "",
    `--${boundary}`,
    "Content-Type: text/plain; charset=utf-8",
    "Content-Transfer-Encoding: base64",
    "",
    base64Lines(readable(n)),
    `--${boundary}`,
    'Content-Type: application/json; name="alert-notification.json"',
    'Content-Disposition: attachment; filename="alert-notification.json"',
    "Content-Transfer-Encoding: base64",
    "",
    base64Lines(JSON.stringify(n)),
    `--${boundary}--`,
    "",
  ].join("\r\n");
}
