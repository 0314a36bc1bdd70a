/**
 * A log entry as a syslog message (RFC 5424) framed for a stream (RFC 6587
 * §3.4.1, octet counting, which RFC 5425 §4.3 requires over TLS too): pure
 * formatting, no socket. The entry's own timestamp, msgId and fields travel
 * as the header's TIMESTAMP and MSGID and as structured data under the
 * documentation enterprise number of RFC 5612 (32473), so a receiver sees
 * exactly what GET /logs/tail shows.
 */
import { SEVERITIES, type Severity } from "../../simulator/vocabulary.ts";
import type { LogEntry } from "../schemas/logs.ts";

/** RFC 5424 §6.2.1's facilities by code, named as rsyslog and syslog(3) name them. */
export const FACILITIES = [
  "kern",
  "user",
  "mail",
  "daemon",
  "auth",
  "syslog",
  "lpr",
  "news",
  "uucp",
  "cron",
  "authpriv",
  "ftp",
  "ntp",
  "audit",
  "alert",
  "clock",
  "local0",
  "local1",
  "local2",
  "local3",
  "local4",
  "local5",
  "local6",
  "local7",
] as const;
export type Facility = (typeof FACILITIES)[number];

/** The APP-NAME every message carries. */
export const APP_NAME = "bng";
/**
 * The SD-IDs (RFC 5424 §7.2.2's name@<private enterprise number> form):
 * `entry` carries a log ring entry's seq, `record` a CGN compliance record's
 * own sequence number, `fields` the fields.
 */
export const SD_ENTRY = "entry@32473";
export const SD_RECORD = "record@32473";
export const SD_FIELDS = "fields@32473";

/** PRI (RFC 5424 §6.2.1): facility × 8 + severity, whose codes follow SEVERITIES' order (emergency 0 … debug 7). */
export const priority = (facility: Facility, severity: Severity): number =>
  FACILITIES.indexOf(facility) * 8 + SEVERITIES.indexOf(severity);

/**
 * PRINTUSASCII (%d33-126) only, at most `max` characters, NILVALUE when nothing is left (HOSTNAME, APP-NAME, MSGID).
 */
function headerField(text: string, max: number): string {
  const printable = text.replace(/[^\x21-\x7e]/g, "").slice(0, max);
  return printable === "" ? "-" : printable;
}

/** An SD-NAME (§6.3.3): PRINTUSASCII except '=', SP, ']' and '"', at most 32 characters. */
const sdName = (key: string): string => key.replace(/[^\x21-\x7e]|[=\]"]/g, "_").slice(0, 32) || "_";

/** The control characters JSON writes by name; the others as \uXXXX. */
const NAMED_CONTROLS: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/**
 * A PARAM-VALUE (§6.3.3): UTF-8 with '"', '\' and ']' escaped by a backslash, and every control character (C0,
 * DEL, C1, U+2028/2029) written as JSON writes it (`\n`, `\r`, `\t`, `\u001b`): raw CR or LF is RFC-valid inside a
 * frame, but a line-oriented receiver or a log file would show the rest as a line of its own, a forged entry
 * (issue #47). The RFC reads a backslash before any other character as itself, so these arrive as written.
 */
const paramValue = (value: string): string =>
  value.replace(/["\\\]]|[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => {
    if (c === '"' || c === "\\" || c === "]") return `\\${c}`;
    return NAMED_CONTROLS[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
  });

/**
 * The RFC 5424 message of one entry (or a compliance record in an entry's
 * shape, its sequence under `record@32473`). A null field has no syslog form and is
 * left out; numbers and booleans are written as JSON writes them. No MSG: the
 * structured data is the message.
 */
export function formatEntry(
  entry: LogEntry,
  facility: Facility,
  hostname: string,
  sequence: typeof SD_ENTRY | typeof SD_RECORD = SD_ENTRY,
): string {
  const params = Object.entries(entry.fields)
    .filter(([, value]) => value !== null)
    .map(([key, value]) => ` ${sdName(key)}="${paramValue(String(value))}"`)
    .join("");
  const header =
    `<${priority(facility, entry.severity)}>1 ${entry.timestamp} ${headerField(hostname, 255)} ${APP_NAME} ` +
    `- ${headerField(entry.msgId, 32)}`;
  return `${header} [${sequence} seq="${entry.seq}"][${SD_FIELDS}${params}]`;
}

const encoder = new TextEncoder();

/** RFC 6587 §3.4.1 octet counting: MSG-LEN (the message's length in octets), a space, the message. */
export function frame(message: string): Uint8Array {
  const body = encoder.encode(message);
  const prefix = encoder.encode(`${body.length} `);
  const framed = new Uint8Array(prefix.length + body.length);
  framed.set(prefix);
  framed.set(body, prefix.length);
  return framed;
}
