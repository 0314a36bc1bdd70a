/** CGN: bindings, status and the identification of auto-learned bindings. */
import { z } from "zod";

const int32 = z.int32();

export const CgnBindingRow = z
  .object({
    bindingIndex: z.int().min(0).max(2 ** 32 - 1).meta({ description: "uint32; key of the identify operation" }),
    group: z.string(),
    insideVrf: z.string().meta({ description: "`default` = global table" }),
    insideIp: z.string(),
    publicIp: z.string(),
    sessionId: z.int().min(0).max(2 ** 32 - 1).meta({ description: "0 for anonymous auto-learned bindings" }),
    subscriberId: z.string().nullable(),
    autoLearned: z.boolean(),
    portBlocks: z.array(z.string()).meta({ description: "`start-end` port ranges" }),
    chunkSize: int32.meta({ description: "uint16; ports per block" }),
    portCap: int32.meta({ description: "uint16" }),
    createdUtc: z.string(),
  })
  .meta({ id: "CgnBindingRow" });
