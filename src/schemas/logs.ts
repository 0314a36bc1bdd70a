/** Logs' wire shapes: one entry of the ring or the audit trail, and a tail of them. */
import { z } from "zod";
import { SEVERITIES } from "../../simulator/vocabulary.ts";

const int64 = z.int().min(0).meta({ format: "int64" });

export const LogEntry = z
  .object({
    seq: int64.meta({ description: "monotonic sequence number, int64" }),
    timestamp: z.string().meta({ description: "date-time, UTC" }),
    severity: z.enum(SEVERITIES).meta({ description: "syslog severity name (RFC 5424)" }),
    msgId: z.string().meta({ description: "stable machine-readable message id; the catalogue is in the description of GET /api/v1/logs/tail" }),
    fields: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).meta({ description: "keys vary by msgId (see the catalogue)" }),
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
