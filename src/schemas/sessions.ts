/**
 * Sessions, the wire contract: the list row, the list, the summary counts, the live rates, the detail, and the
 * section's operations.
 */
import { z } from "zod";
import { CaptureRecord } from "./captures.ts";
import { CgnBindingRow } from "./cgn.ts";
import { operation } from "./contract.ts";
import { pageQuery, queryBoolean, SessionIdParams } from "./common.ts";
import { enumFilter } from "./enum-filter.ts";

export const Encap = z.enum(["ipoe", "pppoe-local", "pppoe-lac", "l2tp"]);
export type Encap = z.output<typeof Encap>;
const int32 = z.int32();

export const SessionSummary = z
  .object({
    id: int32,
    type: z.string().meta({ description: "`ipoe` or `ppp`" }),
    encap: Encap,
    username: z.string(),
    ipv4: z.string(),
    ipv6: z.string().meta({
      description:
        "IPv6 WAN prefix, or the delegated prefix when there is no WAN address; empty " +
        "when the session has neither (the spec does not make it nullable)",
    }),
    vrf: z.string().meta({ description: "`default` = the global table" }),
    mac: z.string(),
    svlan: int32,
    vlan: int32,
    plan: z.string(),
    walledGarden: z.boolean(),
    uptimeSeconds: z.number(),
    portId: int32
      .nullable()
      .meta({ description: "subscriber-facing data-plane port; null for LNS-terminated (l2tp) sessions" }),
  })
  .meta({ id: "SessionSummary" });
export type SessionSummary = z.output<typeof SessionSummary>;

export const SessionList = z
  .object({
    total: int32.meta({ description: "matching sessions before paging" }),
    offset: int32,
    items: z.array(SessionSummary).meta({ description: "newest first" }),
  })
  .meta({ id: "SessionList" });
export type SessionList = z.output<typeof SessionList>;

export const SessionSummaryCounts = z
  .object({
    total: int32,
    byType: z.record(z.string(), int32),
    byEncap: z.record(z.string(), int32),
    byPort: z
      .array(z.object({ portId: int32, label: z.string(), count: int32 }))
      .meta({ description: "LNS-terminated sessions excluded" }),
    byVrf: z.record(z.string(), int32).meta({ description: "the global table counts as `default`" }),
    walledGarden: int32,
  })
  .meta({ id: "SessionSummaryCounts" });
export type SessionSummaryCounts = z.output<typeof SessionSummaryCounts>;

export const SessionRates = z
  .object({
    sessionId: int32,
    timestamp: z.string(),
    rxBps: z.number().meta({ description: "from the subscriber, whole bits per second" }),
    txBps: z.number().meta({ description: "to the subscriber, whole bits per second" }),
    rxPps: z.number(),
    txPps: z.number(),
  })
  .meta({
    id: "SessionRates",
    description:
      "A session's rates averaged over a 30 s load interval (not shown in the spec; " +
      "the choice of a router's usual interval): each session's are renewed every 30 " +
      "s, a third of the sessions at each 10 s step, and first in the step that sets " +
      "the session up. The session's byte counters and its port's rates move at every " +
      "10 s step.",
  });
export type SessionRates = z.output<typeof SessionRates>;

// pool and subnet are null for a local subscriber's address configured outside every pool.
const Assigned = z.object({ prefix: z.string(), pool: z.string().nullable(), subnet: z.string().nullable() });
/** An address or prefix a session holds, with the pool and subnet it came from. */
export type AssignedPrefix = z.output<typeof Assigned>;
export const SessionDetail = SessionSummary.extend({
  state: z.literal("up"),
  startedUtc: z.string(),
  portLabel: z.string().nullable(),
  realm: z.string(),
  aaa: z.object({ method: z.enum(["radius", "local"]), server: z.string().nullable() }),
  addresses: z.object({
    ipv4: z.object({
      address: z.string(),
      pool: z.string().nullable(),
      subnet: z.string().nullable(),
      cgnTranslated: z.boolean(),
      learned: z.boolean().meta({
        description:
          "true on a LAC (`pppoe-lac`): the LNS assigned the address and the LAC learned " +
          "it from IPCP; pool and subnet are null, and no IPv6 is known",
      }),
    }),
    ipv6Wan: Assigned.nullable(),
    ipv6Pd: Assigned.nullable(),
  }),
  leaseExpiresUtc: z.string().nullable(),
  planRates: z.object({ downloadKbps: z.number(), uploadKbps: z.number() }),
  cgn: CgnBindingRow.nullable(),
  counters: z.object({ rxBytes: z.number(), txBytes: z.number(), rxPackets: z.number(), txPackets: z.number() }),
  rates: SessionRates,
  capture: CaptureRecord.nullable(),
  steering: z
    .object({ rule: z.string(), targetVrf: z.string() })
    .nullable()
    .meta({
      description:
        "the source-VRF rule routing this session's traffic into another VRF (no NAT), " +
        "first match in configuration order; null when none",
    }),
}).meta({ id: "SessionDetail" });
export type SessionDetail = z.output<typeof SessionDetail>;

export const DisconnectResult = z
  .object({ status: z.literal("disconnected"), sessionId: int32 })
  .meta({ id: "DisconnectResult" });

const caseInsensitive = z.string().trim().min(1).max(256);
const SessionQuery = pageQuery(100, 500).extend({
  encap: enumFilter(Encap.options)
    .optional()
    .meta({ description: "`ipoe`, `pppoe-local`, `pppoe-lac` or `l2tp`, any case" }),
  ip: caseInsensitive.optional().meta({
    description: "prefix match on the IPv4 or IPv6 WAN address (an address, a CIDR, or leading text)",
    examples: ["100.64.0.0/16"],
  }),
  port: z.coerce
    .number()
    .int()
    .min(0)
    .max(2 ** 31 - 1)
    .optional()
    .meta({
      description: "subscriber-facing port id; excludes LNS-terminated sessions",
      examples: [1],
    }),
  type: caseInsensitive.optional().meta({ description: "`ipoe` or `ppp`", examples: ["ppp"] }),
  username: caseInsensitive.optional().meta({ description: "case-insensitive substring", examples: ["sub0001"] }),
  vrf: caseInsensitive.optional().meta({ description: "exact, case-insensitive; `default` = the global table" }),
  walledGarden: queryBoolean()
    .optional()
    .meta({ description: "true = only walled-garden sessions", examples: [true] }),
  // Beyond the spec's list (docs/decisions.md, Sessions): what the access network shows of a subscriber, so one can be
  // found by it.
  mac: z
    .string()
    .trim()
    .regex(
      /^(([0-9a-fA-F]{2}[:-]){5}[0-9a-fA-F]{2}|[0-9a-fA-F]{4}\.[0-9a-fA-F]{4}\.[0-9a-fA-F]{4})$/,
      "must be a MAC address: aa:bb:cc:dd:ee:ff, aa-bb-cc-dd-ee-ff or aabb.ccdd.eeff",
    )
    .meta({ examples: ["00:1b:21:c4:8b:50"] })
    .transform((t) =>
      t
        .replace(/[^0-9a-fA-F]/g, "")
        .toLowerCase()
        .match(/../g)!
        .join(":"),
    )
    .optional()
    .meta({ description: "exact MAC, any of the three usual spellings, any case (beyond the spec's filters)" }),
  svlan: z.coerce
    .number()
    .int()
    .min(0)
    .max(4094)
    .optional()
    .meta({
      description: "exact outer (S-)VLAN, as `svlan` shows it (beyond the spec's filters)",
      examples: [100],
    }),
  vlan: z.coerce
    .number()
    .int()
    .min(0)
    .max(4094)
    .optional()
    .meta({
      description: "exact inner (C-)VLAN, as `vlan` shows it (beyond the spec's filters)",
      examples: [1001],
    }),
  plan: caseInsensitive.optional().meta({
    description: "exact plan name as `plan` shows it, case-insensitive (beyond the spec's filters)",
    examples: ["fibre-100"],
  }),
});

/** The section's operations. */
export const sessions = {
  list: operation({
    method: "GET",
    path: "/api/v1/sessions",
    section: "Sessions",
    summary: "Live sessions, newest first, filtered (AND) and paged",
    description:
      "Filters combine with AND; string filters are case-insensitive (`encap` in any " +
      "case too); `vrf` is exact, with `default` for the global table; `port` excludes " +
      "LNS-terminated sessions. Newest first; `total` counts the matching sessions " +
      "before paging, `limit` default 100, clamped to 1-500.",
    fp: true,
    query: SessionQuery,
    response: { description: "SessionList", schema: SessionList },
    examples: {
      query: { offset: 0, limit: 2, encap: "ipoe", vrf: "cgn-inside" },
      response: {
        total: 433,
        offset: 0,
        items: [
          {
            id: 1993,
            type: "ipoe",
            encap: "ipoe",
            username: "sub0000463@cgn.isp.example",
            ipv4: "100.64.3.156",
            ipv6: "2001:db8:200:1d3::/64",
            vrf: "cgn-inside",
            mac: "00:1b:21:c4:8b:50",
            svlan: 100,
            vlan: 464,
            plan: "dsl-24",
            walledGarden: false,
            uptimeSeconds: 0,
            portId: 1,
          },
          {
            id: 1992,
            type: "ipoe",
            encap: "ipoe",
            username: "sub0000754@cgn.isp.example",
            ipv4: "100.64.3.155",
            ipv6: "2001:db8:5001:8400::/56",
            vrf: "cgn-inside",
            mac: "a4:91:b1:9d:99:db",
            svlan: 100,
            vlan: 755,
            plan: "fibre-100",
            walledGarden: true,
            uptimeSeconds: 0,
            portId: 1,
          },
        ],
      },
    },
  }),
  summary: operation({
    method: "GET",
    path: "/api/v1/sessions/summary",
    section: "Sessions",
    summary: "Session counts by type, encapsulation, port and VRF",
    description:
      "Counts of the live sessions GET /api/v1/sessions lists: `total`, `byType`, " +
      "`byEncap`, `byPort` (LNS-terminated sessions excluded), `byVrf` (the global " +
      "table as `default`) and `walledGarden`.",
    fp: true,
    response: { description: "SessionSummaryCounts", schema: SessionSummaryCounts },
    examples: {
      response: {
        total: 1999,
        byType: { ipoe: 1086, ppp: 913 },
        byEncap: { ipoe: 1086, "pppoe-local": 621, "pppoe-lac": 199, l2tp: 93 },
        byPort: [
          { portId: 1, label: "xe-0/0/0 OLT-north", count: 954 },
          { portId: 2, label: "xe-0/0/1 OLT-south", count: 952 },
        ],
        byVrf: { default: 1038, "cgn-inside": 669, wholesale: 292 },
        walledGarden: 19,
      },
    },
  }),
  get: operation({
    method: "GET",
    path: "/api/v1/sessions/{id}",
    section: "Sessions",
    summary: "One session in detail: addresses and pools, AAA, plan, CGN binding, counters, capture",
    description:
      "Everything known about one live session: its addresses and the pools they came " +
      "from, AAA attributes, the plan and its rates, the CGN binding and port blocks, " +
      "the source-VRF rule steering it, counters and the capture on it. 404 when no " +
      "live session has that id (a session that has ended is gone).",
    fp: true,
    params: SessionIdParams,
    response: { description: "SessionDetail", schema: SessionDetail },
    errors: [404],
    examples: {
      params: { id: 1 },
      response: {
        id: 1,
        type: "ipoe",
        encap: "ipoe",
        username: "sub0000934@cgn.isp.example",
        ipv4: "100.64.1.0",
        ipv6: "2001:db8:200::/64",
        vrf: "cgn-inside",
        mac: "f0:9f:c2:dc:9a:ef",
        svlan: 200,
        vlan: 935,
        plan: "fibre-300",
        walledGarden: false,
        uptimeSeconds: 10,
        portId: 2,
        state: "up",
        startedUtc: "2026-11-26T20:35:00.000Z",
        portLabel: "xe-0/0/1 OLT-south",
        realm: "cgn.isp.example",
        aaa: { method: "radius", server: "radius-1.isp.example:1812" },
        addresses: {
          ipv4: {
            address: "100.64.1.0",
            pool: "cgn-inside-v4",
            subnet: "100.64.0.0/20",
            cgnTranslated: true,
            learned: false,
          },
          ipv6Wan: { prefix: "2001:db8:200::/64", pool: "cgn-v6-wan", subnet: "2001:db8:200::/48" },
          ipv6Pd: { prefix: "2001:db8:5000::/56", pool: "cgn-v6-pd", subnet: "2001:db8:5000::/44" },
        },
        leaseExpiresUtc: "2026-11-26T21:27:30.720Z",
        planRates: { downloadKbps: 300000, uploadKbps: 50000 },
        cgn: null,
        counters: { rxBytes: 131628, txBytes: 1316270, rxPackets: 329, txPackets: 1197 },
        rates: {
          sessionId: 1,
          timestamp: "2026-11-26T20:35:10.000Z",
          rxBps: 52651,
          txBps: 526508,
          rxPps: 16,
          txPps: 60,
        },
        capture: {
          sessionId: 1,
          destinationIp: "192.0.2.50",
          maxPackets: 10000,
          maxDurationSeconds: 3600,
          startedUtc: "2026-11-26T20:35:10.000Z",
        },
        steering: null,
      },
      errors: { 404: "no session 1" },
    },
  }),
  rates: operation({
    method: "GET",
    path: "/api/v1/sessions/{id}/rates",
    section: "Sessions",
    summary: "A session's live rates (30-second load interval)",
    description:
      "The session's receive and transmit rates in bits and packets per second, " +
      "averaged over a 30-second load interval as a router shows them (renewed every " +
      "30 s), with the instant they were taken. 404 for an unknown session.",
    fp: true,
    params: SessionIdParams,
    response: { description: "SessionRates", schema: SessionRates },
    errors: [404],
    examples: {
      params: { id: 1 },
      response: {
        sessionId: 1,
        timestamp: "2026-11-26T20:35:10.000Z",
        rxBps: 52651,
        txBps: 526508,
        rxPps: 16,
        txPps: 60,
      },
      errors: { 404: "no session 1" },
    },
  }),
  disconnect: operation({
    method: "DELETE",
    path: "/api/v1/sessions/{id}",
    section: "Sessions",
    summary: "Force-disconnect a session, freeing its addresses, CGN binding and capture (audited)",
    description:
      "Tears the session down (logged `session.down` with cause `admin-reset`): its " +
      "addresses return to their pools, its CGN binding and any capture end. Answers " +
      "`disconnected` with the session id; 404 for an unknown session. Local only; audited.",
    params: SessionIdParams,
    response: { description: "the session disconnected", schema: DisconnectResult },
    errors: [404],
    examples: {
      params: { id: 2 },
      response: { status: "disconnected", sessionId: 2 },
      errors: { 404: "no session 2" },
    },
  }),
};
