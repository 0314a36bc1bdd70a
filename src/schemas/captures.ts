/** Captures' wire shapes: a session's packet capture, as the capture list and the session detail show it. */
import { z } from "zod";

const uint32 = z.int().min(0).max(2 ** 32 - 1);

export const CaptureRecord = z
  .object({
    sessionId: uint32,
    destinationIp: z.string().meta({ description: "GRE collector" }),
    maxPackets: z.int32().nullable().meta({ description: "null or 0 = unlimited" }),
    maxDurationSeconds: z.int32().nullable().meta({ description: "null or 0 = unlimited" }),
    startedUtc: z.string(),
  })
  .meta({ id: "CaptureRecord" });
export type CaptureRecord = z.output<typeof CaptureRecord>;

export const CaptureRow = CaptureRecord.extend({
  packetsMirrored: z.int().min(0).meta({ description: "packets sent to the collector so far" }),
  elapsedSeconds: z.int().min(0),
}).meta({ id: "CaptureRow" });
export type CaptureRow = z.output<typeof CaptureRow>;

export const CaptureStopResult = z.object({ status: z.literal("stopped"), sessionId: uint32 }).meta({ id: "CaptureStopResult" });
