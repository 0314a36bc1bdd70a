/**
 * Logs, the wire contract: one entry of the ring or the audit trail, a tail of them, the msgId catalogue, and the
 * section's operations.
 */
import { z } from "zod";
import { operation } from "./contract.ts";
import { clampedInt32 } from "./common.ts";
import {
  EXTERNAL_LOG_CATALOGUE,
  LOG_CAPACITY,
  LOG_CATALOGUE,
  SEVERITIES,
  type LogCatalogueEntry,
} from "../../simulator/vocabulary.ts";

const int64 = z.int().min(0).meta({ format: "int64" });

export const LogEntry = z
  .object({
    seq: int64.meta({ description: "monotonic sequence number, int64" }),
    timestamp: z.string().meta({ description: "date-time, UTC" }),
    severity: z.enum(SEVERITIES).meta({ description: "syslog severity name (RFC 5424)" }),
    msgId: z.string().meta({
      description: "stable machine-readable message id; the catalogue is in the description of GET /api/v1/logs/tail",
    }),
    fields: z
      .record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]))
      .meta({ description: "keys vary by msgId (see the catalogue)" }),
  })
  .meta({ id: "LogEntry" });
export type LogEntry = z.output<typeof LogEntry>;

export const LogTail = z
  .object({
    entries: z.array(LogEntry).meta({ description: "oldest first" }),
    lastSeq: int64.meta({ description: "newest sequence number the buffer has seen; echo it as `sinceSeq` to poll" }),
  })
  .meta({ id: "LogTail" });
export type LogTail = z.output<typeof LogTail>;

/** A log entry's seq as a query value (`sinceSeq`), or as the stream's `Last-Event-ID`. */
export const LogSeq = z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional().meta({ format: "int64" });

const AUDIT_DESCRIPTION =
  "`source=audit` reads the audit trail instead of the ring: the security-relevant " +
  "entries in the same LogEntry form, kept in the appliance's storage " +
  ("apart from the ring (logins and logouts, ended sessions, token, user, password, " +
    "TOTP and passkey changes, unlocks, configuration commits, refusals ") +
  ("and freezes, scenario actions and every `audit.*` act). Events an anonymous " +
    "caller can cause (failed logins, lockouts, refused OIDC callbacks) are ") +
  ("in the ring only, so no amount of them can push an audit entry out. The trail " +
    "keeps the newest 100,000 entries and survives restarts; its `seq` ") +
  "and `lastSeq` are the trail's own sequence, not the ring's.";

const TailQuery = z.object({
  source: z
    .enum(["ring", "audit"])
    .default("ring")
    .meta({ description: "`ring` (default): the log ring; `audit`: the audit trail (see the description)" }),
  count: clampedInt32(100, 1, 1000).meta({ description: "int32, default 100, clamped to 1-1000" }),
  sinceSeq: LogSeq.meta({
    description: "int64; only entries with a greater seq, oldest first (up to `count`)",
    examples: [120],
  }),
});

const StreamQuery = z.object({
  sinceSeq: LogSeq.meta({
    description:
      "int64; replay the retained entries newer than it before going live; default: only entries after connection",
  }),
});

const listing = (catalogue: Readonly<Record<string, LogCatalogueEntry>>) =>
  Object.entries(catalogue)
    .map(
      ([id, m]) => `- \`${id}\` (${m.severity}; fields: ${m.fields.map((f) => `\`${f}\``).join(", ")}): ${m.meaning}`,
    )
    .join("\n");

/** The msgId catalogue, generated from the one place that defines it (simulator/vocabulary.ts). */
const CATALOGUE =
  `The ring holds the most recent ${LOG_CAPACITY.toLocaleString("en")} entries ` +
  `(older ones age out; \`seq\` keeps counting). ` +
  "Message ids and their `fields` keys:\n\nData plane:\n" +
  listing(LOG_CATALOGUE) +
  ("\n\nAccounts, tokens and the audit trail of operator actions (each names the " +
    "acting principal as `actor` or `by`, e.g. `token:<name>` or `user:<name>`):\n") +
  listing(EXTERNAL_LOG_CATALOGUE);

/** The section's operations. */
export const logs = {
  tail: operation({
    method: "GET",
    path: "/api/v1/logs/tail",
    section: "Logs",
    summary: "The newest log entries, or those after `sinceSeq`, oldest first",
    description:
      "Without `sinceSeq`: the most recent `count` entries. With it: up to `count` " +
      "entries with a greater seq. Poll by echoing the previous `lastSeq`.\n\n" +
      AUDIT_DESCRIPTION +
      "\n\n" +
      CATALOGUE,
    fp: true,
    query: TailQuery,
    response: { description: "LogTail", schema: LogTail },
    examples: {
      query: { source: "audit", count: 2 },
      response: {
        entries: [
          {
            seq: 18,
            timestamp: "2026-11-26T20:58:10.000Z",
            severity: "notice",
            msgId: "audit.scenario",
            fields: { action: "revive-daemon", actor: "token:bootstrap" },
          },
          {
            seq: 19,
            timestamp: "2026-11-26T20:58:10.000Z",
            severity: "notice",
            msgId: "scenario.action",
            fields: { action: "revive-daemon", detail: "daemon=ipsec" },
          },
        ],
        lastSeq: 19,
      },
    },
  }),
  stream: operation({
    method: "GET",
    path: "/api/v1/logs/stream",
    section: "Logs",
    summary: "Live log entries as server-sent events (local appliance only)",
    description:
      "One SSE event named `log` per entry (`id:` is its seq, `data:` one JSON " +
      "LogEntry). Entries newer than `sinceSeq` are replayed first " +
      (`(from the ${LOG_CAPACITY.toLocaleString("en")}-entry ring), then a \`: ` +
        `connected\` comment marks the switch to live delivery; `) +
      ("a `: keepalive` comment follows every 15 seconds. Not relayed by the fleet " +
        "proxy. The msgId catalogue is in the description of GET /api/v1/logs/tail.\n\n") +
      ("A stream lasts as long as the credential that opened it: at logout, when the " +
        "session is ended or expires, or when the token is revoked or expires, ") +
      "it ends with `event: closed` (checked at once for logouts, revocations and an OIDC provider's deletion or " +
      "change that ends its sessions, and at every keepalive). Each account or token holds 4 streams at most: " +
      "a fifth ends its oldest with `event: closed`, so a consumer that restarts is never locked out by the streams " +
      "its earlier self left open. " +
      ("A reader more than 1,000 live entries behind is disconnected with `event: " +
        "overflow` whose data names `resumeFromSeq`: reconnect with it as `sinceSeq`.\n\n") +
      ("Reconnecting (WHATWG server-sent events): a `Last-Event-ID` request header " +
        "resumes after that seq exactly as `sinceSeq` would, so a browser's or a library's ") +
      ("EventSource, which sends the last `id:` it received when it reconnects, misses " +
        "nothing and gets nothing twice. When both are given, `Last-Event-ID` wins: ") +
      ("an EventSource reconnects to the same URL, whose `sinceSeq` still names where " +
        "it first started. An empty `Last-Event-ID` is ignored; any other value ") +
      "that is not a seq is a 400.",
    query: StreamQuery,
    // Last-Event-ID (the WHATWG reconnection header).
    response: { description: "an endless `text/event-stream`", contentType: "text/event-stream" },
    examples: {
      query: { sinceSeq: 120 },
      response:
        "id: 121\nevent: log\ndata: " +
        '{"seq":121,"timestamp":"2026-11-26T20:35:10.000Z","severity":"notice","msgId":"config.commit",' +
        '"fields":{"version":15,"operation":"gre-circuit","actor":"token:bootstrap","comment":null,"changes":1,' +
        '"restartRequired":false}}\n\nid: ' +
        "122\nevent: log\ndata: " +
        '{"seq":122,"timestamp":"2026-11-26T20:35:10.000Z","severity":"notice","msgId":"aaa.local.table",' +
        '"fields":{"installed":4,"added":0,"changed":1,"removed":0,"disconnected":0}}\n\nid: ' +
        "123\nevent: log\ndata: " +
        '{"seq":123,"timestamp":"2026-11-26T20:35:10.000Z","severity":"notice","msgId":"config.commit",' +
        '"fields":{"version":16,"operation"',
    },
  }),
};
