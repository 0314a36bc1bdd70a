/**
 * Syslog destinations in the configuration (`logging.syslog`, keyed by name),
 * as the appliance's shipper (durable-objects/syslog.ts) takes them: each
 * port resolved from its transport's default, each child's default applied.
 */
import type { Severity } from "../../simulator/vocabulary.ts";
import type { Facility } from "../syslog/rfc5424.ts";
import type { ConfigItem } from "./types.ts";

export const SYSLOG_LIST = "logging.syslog";
/**
 * Each transport's port when none is given: RFC 5425 §4.1's for TLS; IANA's syslog-conn (the TCP port of RFC 3195 and
 * 6587) for TCP.
 */
export const SYSLOG_PORTS = { tls: 6514, tcp: 601 } as const;
/** What a destination receives: the log ring, or the CGN compliance logger's records. */
export const SYSLOG_STREAMS = ["log", "cgn"] as const;
/** Entries a destination's queue holds unless configured otherwise. */
export const SYSLOG_QUEUE_SIZE = 10_000;

/** A configured destination, its port resolved. */
export interface SyslogDestination {
  name: string;
  host: string;
  port: number;
  transport: keyof typeof SYSLOG_PORTS;
  severity: Severity;
  facility: Facility;
  queueSize: number;
  stream: (typeof SYSLOG_STREAMS)[number];
}

/** The configured destinations (validated by the registry: their values are of their children's enumerations). */
export function syslogDestinationsOf(items: readonly ConfigItem[]): SyslogDestination[] {
  return items.map(({ key, values }) => {
    const transport = values.transport === "tcp" ? "tcp" : "tls";
    return {
      name: key,
      host: String(values.host),
      port: typeof values.port === "number" ? values.port : SYSLOG_PORTS[transport],
      transport,
      severity: (values.severity ?? "info") as Severity,
      facility: (values.facility ?? "local0") as Facility,
      queueSize: typeof values.queueSize === "number" ? values.queueSize : SYSLOG_QUEUE_SIZE,
      stream: values.stream === "cgn" ? "cgn" : "log",
    };
  });
}
