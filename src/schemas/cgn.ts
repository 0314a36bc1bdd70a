/** CGN's wire shapes: bindings, groups with their utilisation, and the status. */
import { z } from "zod";

const int32 = z.int32();
const uint32 = z.int().min(0).max(2 ** 32 - 1);
const count = z.int().min(0);

export const CgnBindingRow = z
  .object({
    bindingIndex: uint32.meta({ description: "uint32; key of the identify operation" }),
    group: z.string(),
    insideVrf: z.string().meta({ description: "`default` = global table" }),
    insideIp: z.string(),
    publicIp: z.string(),
    sessionId: uint32.meta({ description: "0 for anonymous auto-learned bindings" }),
    subscriberId: z.string().nullable(),
    autoLearned: z.boolean(),
    portBlocks: z.array(z.string()).meta({ description: "`start-end` port ranges" }),
    chunkSize: int32.meta({ description: "uint16; ports per block" }),
    portCap: int32.meta({ description: "uint16" }),
    createdUtc: z.string(),
  })
  .meta({ id: "CgnBindingRow" });
export type CgnBindingRow = z.output<typeof CgnBindingRow>;

export const CgnBindingsPage = z
  .object({
    running: z.boolean().meta({ description: "false = CGN inactive and rows empty" }),
    total: int32.meta({ description: "matching bindings before paging" }),
    offset: int32,
    limit: int32.meta({ description: "effective page size" }),
    items: z.array(CgnBindingRow).meta({ description: "ordered by bindingIndex" }),
  })
  .meta({ id: "CgnBindingsPage" });
export type CgnBindingsPage = z.output<typeof CgnBindingsPage>;

export const CgnGroup = z
  .object({
    name: z.string(),
    description: z.string(),
    outsideVrf: z.string(),
    publicSubnets: z.array(z.string()),
    chunkSize: count.meta({ description: "ports per block" }),
    portCap: count.meta({ description: "most ports one binding may hold" }),
    setupsPerSec: count,
    bindingTimeoutSeconds: count,
    quarantineSeconds: count.meta({ description: "how long a released block rests before reuse" }),
    bypassPrefixes: z.array(z.string()).meta({ description: "inside prefixes that are not translated" }),
    autoLearn: z.array(z.object({ insideVrf: z.string(), prefixes: z.array(z.string()) })),
    timeouts: z.object({ tcpEstablished: count, tcpTransitory: count, udp: count, icmp: count }).meta({ description: "seconds" }),
    activeBindings: count,
    portBlockAllocations: count.meta({ description: "port blocks handed to bindings (first blocks and extensions) since the data plane booted; the scrape's `bng_cgn_port_block_allocations_total`" }),
    utilisation: z
      .object({ totalChunks: count, freeChunks: count, usedChunks: count, quarantinedChunks: count })
      .meta({ description: "port blocks; `usedChunks + freeChunks + quarantinedChunks = totalChunks`" }),
  })
  .meta({ id: "CgnGroup" });
export type CgnGroup = z.output<typeof CgnGroup>;

export const CgnStatus = z
  .object({
    enabled: z.boolean(),
    running: z.boolean(),
    maxBindings: int32,
    maxFlows: int32,
    activeBindings: int32,
    autoLearnedBindings: int32,
    groups: z.array(CgnGroup),
    nativeCounters: z.object({ autolearnMisses: count, noMapping: count, extensionWanted: count, eventRingDrops: count }),
    eventsLostByDriver: z.record(z.string(), z.int()).nullable().meta({ description: "int64 per logger driver; null when the logger pump is not running" }),
  })
  .meta({ id: "CgnStatus" });
export type CgnStatus = z.output<typeof CgnStatus>;
