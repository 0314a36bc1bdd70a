/**
 * CGN, the wire contract: bindings, groups with their utilisation, the status, the identify request, and the section's
 * operations.
 */
import { z } from "zod";
import { pageQuery } from "./common.ts";
import { operation } from "./contract.ts";

const int32 = z.int32();
const uint32 = z
  .int()
  .min(0)
  .max(2 ** 32 - 1);
const count = z.int().min(0);

/** A CGN group's idle timeouts in seconds, as it runs and as it is configured. */
export const CgnTimeouts = z.object({ tcpEstablished: count, tcpTransitory: count, udp: count, icmp: count });

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
    timeouts: CgnTimeouts.meta({ description: "seconds" }),
    activeBindings: count,
    portBlockAllocations: count.meta({
      description:
        "port blocks handed to bindings (first blocks and extensions) since the data " +
        "plane booted; the scrape's `bng_cgn_port_block_allocations_total`",
    }),
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
    nativeCounters: z.object({
      autolearnMisses: count,
      noMapping: count,
      extensionWanted: count,
      eventRingDrops: count,
    }),
    eventsLostByDriver: z
      .record(z.string(), z.int())
      .nullable()
      .meta({ description: "int64 per logger driver; null when the logger pump is not running" }),
  })
  .meta({ id: "CgnStatus" });
export type CgnStatus = z.output<typeof CgnStatus>;

const CgnIdentifyBinding = z
  .object({
    subscriberId: z
      .string()
      .trim()
      .min(1)
      .max(253)
      .meta({ description: "the subscriber the binding belongs to, as the compliance log should name it" }),
  })
  .meta({ id: "CgnIdentifyBinding" });

const caseInsensitive = z.string().trim().min(1).max(256);
const BindingsQuery = pageQuery(100, 1000).extend({
  group: caseInsensitive.optional().meta({ description: "exact, case-insensitive" }),
  vrf: caseInsensitive
    .optional()
    .meta({ description: "inside VRF, exact, case-insensitive; `default` matches the default table" }),
  ip: caseInsensitive.optional().meta({
    description: "prefix match on the inside or public IPv4 address (an address, a CIDR, or leading text)",
    examples: ["198.51.100.7"],
  }),
});
export type CgnBindingsQuery = z.output<typeof BindingsQuery>;

/** The section's operations. */
export const cgn = {
  bindings: operation({
    method: "GET",
    path: "/api/v1/cgn/bindings",
    section: "CGN",
    summary: "CGN bindings, filtered (AND) and paged, by bindingIndex",
    description:
      "One row per binding of a private subscriber address to a public address and its " +
      "port blocks. `group` and `vrf` are exact and case-insensitive (`default` " +
      "matches the default table), `ip` a prefix match on the inside or public IPv4 " +
      "address; AND-combined. `limit` default 100, clamped to 1-1000. While CGN is not " +
      "running, `running` is false and the rows are empty.",
    fp: true,
    query: BindingsQuery,
    response: { description: "CgnBindingsPage", schema: CgnBindingsPage },
    examples: {
      query: { offset: 0, limit: 2, group: "cgn-1", vrf: "cgn-inside" },
      response: {
        running: true,
        total: 414,
        offset: 0,
        limit: 2,
        items: [
          {
            bindingIndex: 0,
            group: "cgn-1",
            insideVrf: "cgn-inside",
            insideIp: "100.64.2.0",
            publicIp: "192.0.2.0",
            sessionId: 769,
            subscriberId: "sub0001904@cgn.isp.example",
            autoLearned: false,
            portBlocks: ["1024-2047"],
            chunkSize: 1024,
            portCap: 8192,
            createdUtc: "2026-11-26T20:35:00.000Z",
          },
          {
            bindingIndex: 1,
            group: "cgn-1",
            insideVrf: "cgn-inside",
            insideIp: "100.64.2.1",
            publicIp: "192.0.2.1",
            sessionId: 770,
            subscriberId: "sub0001744@cgn.isp.example",
            autoLearned: false,
            portBlocks: ["1024-2047"],
            chunkSize: 1024,
            portCap: 8192,
            createdUtc: "2026-11-26T20:35:00.000Z",
          },
        ],
      },
    },
  }),
  status: operation({
    method: "GET",
    path: "/api/v1/cgn/status",
    section: "CGN",
    summary: "CGN caps, binding counts, per-group configuration and port-block utilisation, native counters",
    description: "When CGN is not running the configured half still renders, with `running` false.",
    fp: true,
    response: { description: "CgnStatus", schema: CgnStatus },
    examples: {
      response: {
        enabled: true,
        running: true,
        maxBindings: 3000,
        maxFlows: 400000,
        activeBindings: 414,
        autoLearnedBindings: 0,
        groups: [
          {
            name: "cgn-1",
            description: "residential CGN (RFC 6888 paired pooling)",
            outsideVrf: "default",
            publicSubnets: ["192.0.2.0/26"],
            chunkSize: 1024,
            portCap: 8192,
            setupsPerSec: 200,
            bindingTimeoutSeconds: 300,
            quarantineSeconds: 120,
            bypassPrefixes: ["100.64.1.0/24"],
            autoLearn: [{ insideVrf: "cgn-inside", prefixes: ["100.127.0.0/16"] }],
            timeouts: { tcpEstablished: 7440, tcpTransitory: 240, udp: 300, icmp: 60 },
            activeBindings: 414,
            portBlockAllocations: 414,
            utilisation: { totalChunks: 4032, freeChunks: 3618, usedChunks: 414, quarantinedChunks: 0 },
          },
        ],
        nativeCounters: { autolearnMisses: 0, noMapping: 0, extensionWanted: 0, eventRingDrops: 0 },
        eventsLostByDriver: { syslog: 0 },
      },
    },
  }),
  identify: operation({
    method: "POST",
    path: "/api/v1/cgn/bindings/{bindingIndex}/identify",
    section: "CGN",
    summary: "Identify an anonymous auto-learned binding: name its subscriber (audited)",
    description:
      "Only auto-learned bindings can be identified: 404 for an unknown binding, 409 " +
      "for a binding that belongs to a session. " +
      ("One compliance Identify log event (`cgn.identify`) is emitted per port block, " +
        "and the acting principal is audited (`audit.cgn.identify`). ") +
      ("The spec calls the identify body optional; here it is required, because " +
        "identification is what sets `subscriberId` and no other source for it exists: ") +
      "a request without a body is refused with 400 rather than guessing a subscriber.",
    params: z.object({
      bindingIndex: z.coerce
        .number()
        .int()
        .min(0)
        .max(2 ** 32 - 1)
        .meta({ description: "uint32" }),
    }),
    body: CgnIdentifyBinding,
    response: { description: "the binding, now carrying `subscriberId`", schema: CgnBindingRow },
    errors: [404, 409],
    examples: {
      params: { bindingIndex: 415 },
      body: { subscriberId: "sub0001904@cgn.isp.example" },
      response: {
        bindingIndex: 415,
        group: "cgn-1",
        insideVrf: "cgn-inside",
        insideIp: "100.127.175.103",
        publicIp: "192.0.2.31",
        sessionId: 0,
        subscriberId: "sub0001904@cgn.isp.example",
        autoLearned: true,
        portBlocks: ["7168-8191"],
        chunkSize: 1024,
        portCap: 8192,
        createdUtc: "2026-11-26T20:29:40.000Z",
      },
      errors: {
        404: "no CGN binding 415",
        409: "binding 415 is not auto-learned; only anonymous auto-learned bindings can be identified",
      },
    },
  }),
};
