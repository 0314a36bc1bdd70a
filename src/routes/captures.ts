/** Captures: per-session packet mirroring to a GRE collector. */
import { z } from "zod";

export const CaptureRecord = z
  .object({
    sessionId: z.int().min(0).max(2 ** 32 - 1),
    destinationIp: z.string().meta({ description: "GRE collector" }),
    maxPackets: z.int32().nullable().meta({ description: "null or 0 = unlimited" }),
    maxDurationSeconds: z.int32().nullable().meta({ description: "null or 0 = unlimited" }),
    startedUtc: z.string(),
  })
  .meta({ id: "CaptureRecord" });
