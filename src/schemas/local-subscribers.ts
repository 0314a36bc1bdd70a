/**
 * Local subscribers, the wire contract: the appliance's own subscriber table,
 * answered by local AAA without a RADIUS request. IPoE subscribers are keyed
 * by their access line `port:sVlan:vlan`, PPPoE subscribers by their
 * username, with a write-only password: the `subscribers.local.ipoe` and
 * `subscribers.local.pppoe` keyed lists of the configuration.
 */
import { z } from "zod";
import { CommitResult } from "./commit.ts";
import { page, pageQuery } from "./common.ts";
import { operation } from "./contract.ts";
import { enumFilter } from "./enum-filter.ts";
import { KeyedList, type Descriptions, type WireStyle } from "./keyed-list.ts";
import { SessionDetail } from "./sessions.ts";

const base = "/api/v1/subscribers/local";
export const Kind = z.enum(["ipoe", "pppoe"]);
export type Kind = z.infer<typeof Kind>;
const int32 = z.int32();

// ── bodies and rows: from the registry's children (shapes here, 400; values by configuration validation, 422) ──

/** The spec's body types: int32 numbers, text bounded to 1024 characters, rates defaulting to 0. */
const STYLE: WireStyle = {
  text: () => z.string().max(1024),
  int: () => z.int32(),
  list: () => z.array(z.string().max(64)).max(1024),
  defaults: "apply",
};

/** How the section words the members both kinds share. */
const BODY: Descriptions = {
  vrfName: "a configured VRF or `default`; null = `default`",
  framedIp:
    "IPv4 address: inside a pool of the VRF it is held there as a static allocation, " +
    "outside every pool it is used as is; null = a dynamic address from the VRF's " +
    "pool. Unique across local subscribers of the same VRF (VRFs are separate " +
    "address spaces)",
  framedIpv6: "IPv6 WAN address (inside a WAN pool of the VRF its /64 is held statically); null = none",
  ipv6PdPrefix:
    "delegated prefix `address/length`, or an address with ipv6PdLength; inside a PD " +
    "pool of the VRF it must be one of its delegations; null = none",
  ipv6PdLength: "uint8 length of ipv6PdPrefix, 1-128",
  dns1: "IPv4 DNS server",
  dns2: "IPv4 DNS server",
  dnsV6_1: "IPv6 DNS server",
  dnsV6_2: "IPv6 DNS server",
  planName: "a plan of the appliance's profile; null = none (then both rates are required)",
  downloadRateKbps: "shaping rate, 0 or absent = the plan's",
  uploadRateKbps: "shaping rate, 0 or absent = the plan's",
  downloadRatePps: "packet-rate limit, 0 or absent = none",
  uploadRatePps: "packet-rate limit, 0 or absent = none",
  downloadBurstKb: "burst size; null = the shaper's default",
  uploadBurstKb: "burst size; null = the shaper's default",
  additionalRoutes: "CIDR prefixes routed to the subscriber (Framed-Route)",
};
const ROW: Descriptions = { vrfName: "null = `default`" };

/** The two keyed lists as the section writes and reads them. */
export const localSubscriberLists = {
  ipoe: new KeyedList({
    list: "subscribers.local.ipoe",
    style: STYLE,
    body: {
      ...BODY,
      option82CircuitId:
        "DHCP option 82 circuit id; the session's username when set (else `local-ipoe-<port>-<sVlan>-<vlan>`); unique",
      port: "uint8 port id of the line: one of the appliance's ports",
      vlan: "uint16 C-VLAN id (0-4094; 0 = untagged)",
      sVlan: "uint16 S-VLAN id (0-4094; 0 = single-tagged)",
    },
    row: ROW,
  }),
  pppoe: new KeyedList({
    list: "subscribers.local.pppoe",
    style: STYLE,
    body: { ...BODY, password: "PAP/CHAP password, write-only" },
    row: ROW,
  }),
} satisfies Record<Kind, KeyedList>;

const keyOfLine = int32.optional().meta({ description: "optional: the key's; another value is refused (400)" });

const IpoeCreate = z.object(localSubscriberLists.ipoe.bodyFields("create")).meta({
  id: "LocalIpoeSubscriberWrite",
  description: "the spec's Local IPoE subscriber body; port, sVlan and vlan make the key `port:sVlan:vlan`",
});
const IpoeUpdate = z
  .object({ ...localSubscriberLists.ipoe.bodyFields("replace"), port: keyOfLine, vlan: keyOfLine, sVlan: keyOfLine })
  .meta({
    id: "LocalIpoeSubscriberUpdate",
    description: "a full replacement: fields left out return to their defaults; the line is the key's",
  });
const PppoeCreate = z
  .object({
    username: z.string().max(1024).meta({ description: "the key: 1-253 printable ASCII characters, no space or '/'" }),
    ...localSubscriberLists.pppoe.bodyFields("create"),
  })
  .meta({
    id: "LocalPppoeSubscriberWrite",
    description: "a local PPPoE subscriber: the IPoE body's addressing and rate fields, keyed by username",
  });
const PppoeUpdate = z
  .object({
    username: z
      .string()
      .max(1024)
      .optional()
      .meta({ description: "optional: the key's; another value is refused (400)" }),
    ...localSubscriberLists.pppoe.bodyFields("replace"),
    password: z
      .string()
      .max(1024)
      .optional()
      .meta({ description: "a new password; absent or `********` keeps the stored one" }),
  })
  .meta({
    id: "LocalPppoeSubscriberUpdate",
    description: "a full replacement except the password, which is kept unless given",
  });

const nullableText = z.string().nullable();
const sessionId = z.int().nullable().meta({ description: "the live session (see …/session); null while offline" });
export const LocalIpoeSubscriber = z
  .object({
    kind: z.literal("ipoe"),
    key: z.string().meta({ description: "`port:sVlan:vlan`" }),
    username: z
      .string()
      .meta({ description: "the session's username: option82CircuitId, else `local-ipoe-<port>-<sVlan>-<vlan>`" }),
    ...localSubscriberLists.ipoe.rowFields(),
    sessionId,
  })
  .meta({ id: "LocalIpoeSubscriber" });
export const LocalPppoeSubscriber = z
  .object({
    kind: z.literal("pppoe"),
    key: z.string().meta({ description: "the username" }),
    username: z.string(),
    passwordSet: z.boolean().meta({ description: "the password itself is never returned" }),
    ...localSubscriberLists.pppoe.rowFields(),
    sessionId,
  })
  .meta({ id: "LocalPppoeSubscriber" });
export const LocalSubscriberRow = z
  .object({
    kind: Kind,
    key: z.string().meta({ description: "`port:sVlan:vlan` (ipoe) or the username (pppoe)" }),
    username: z.string().meta({ description: "the session's username" }),
    vrfName: nullableText.meta({ description: "null = `default`" }),
    framedIp: nullableText.meta({ description: "null = dynamic from the VRF's pool" }),
    framedIpv6: nullableText,
    ipv6PdPrefix: nullableText,
    planName: nullableText,
    downloadRateKbps: z.int(),
    uploadRateKbps: z.int(),
    port: z.int().nullable().meta({ description: "the line (ipoe); null for pppoe" }),
    sVlan: z.int().nullable(),
    vlan: z.int().nullable(),
    sessionId,
  })
  .meta({
    id: "LocalSubscriberRow",
    description: "one local subscriber of either kind, its main fields and whether it is online",
  });
export type LocalSubscriberRow = z.output<typeof LocalSubscriberRow>;

const ListQuery = pageQuery(100, 1000).extend({
  kind: enumFilter(Kind.options)
    .optional()
    .meta({ description: "only subscribers of this kind (`ipoe` or `pppoe`, any case)" }),
});
const KeyParams = z.object({
  key: z.string().min(1).max(300).meta({ description: "`port:sVlan:vlan`, e.g. 1:100:42" }),
});
const UsernameParams = z.object({ username: z.string().min(1).max(300) });
const SessionParams = z.object({
  kind: Kind,
  key: z.string().min(1).max(300).meta({ description: "`port:sVlan:vlan` (ipoe) or the username (pppoe)" }),
});

const WRITE_NOTE =
  "Committed through the configuration pipeline (history, audit) and hot-applied: " +
  "the session comes up within a 10-second sub-step through local AAA (no RADIUS " +
  "request). 422 when validation rejects, listing every rejected field under " +
  "`#/lists/<list>/<key>/…`: a VRF that is not configured (nor `default`), a plan " +
  "or port the appliance does not have, an address that does not parse or is " +
  "already another local subscriber's, an address in an excluded or profile-static " +
  "block of its pool, a prefix overlapping a PD pool without being one of its " +
  "delegations, values outside their types' ranges, no rates without a plan.";

/** The section's operations. */
export const localSubscribers = {
  list: operation({
    method: "GET",
    path: base,
    section: "LocalSubscribers",
    summary: "Local subscribers of both kinds, IPoE first (by port, S-VLAN, VLAN), then PPPoE (by username), paged",
    description:
      "One row per subscriber with its main fields and `sessionId` (null while " +
      "offline). `kind` filters; `offset` (default 0) and `limit` (default 100, " +
      "clamped to 1-1000) page.",
    query: ListQuery,
    response: { description: "a page of LocalSubscriberRow", schema: page(LocalSubscriberRow, "LocalSubscriberPage") },
    examples: {
      query: { offset: 0, limit: 10, kind: "pppoe" },
      response: {
        total: 2,
        offset: 0,
        limit: 10,
        items: [
          {
            kind: "pppoe",
            key: "noc-test@isp.example",
            username: "noc-test@isp.example",
            vrfName: "default",
            framedIp: null,
            framedIpv6: null,
            ipv6PdPrefix: null,
            planName: "fibre-1000",
            downloadRateKbps: 0,
            uploadRateKbps: 0,
            port: null,
            sVlan: null,
            vlan: null,
            sessionId: 1983,
          },
          {
            kind: "pppoe",
            key: "shop-42@isp.example",
            username: "shop-42@isp.example",
            vrfName: null,
            framedIp: null,
            framedIpv6: null,
            ipv6PdPrefix: null,
            planName: "fibre-300",
            downloadRateKbps: 0,
            uploadRateKbps: 0,
            port: null,
            sVlan: null,
            vlan: null,
            sessionId: null,
          },
        ],
      },
    },
  }),
  createIpoe: operation({
    method: "POST",
    path: `${base}/ipoe`,
    section: "LocalSubscribers",
    summary: "Create a local IPoE subscriber (validated, committed, hot-applied)",
    description:
      `The key is the line \`port:sVlan:vlan\` from the body; 409 when a subscriber of ` +
      `that line exists. ${WRITE_NOTE}`,
    body: IpoeCreate,
    response: { description: "the created subscriber", schema: LocalIpoeSubscriber },
    errors: [409, 412, 422],
    examples: {
      body: { port: 1, sVlan: 100, vlan: 2, planName: "fibre-1000", comment: "business line 2" },
      response: {
        kind: "ipoe",
        key: "1:100:2",
        username: "local-ipoe-1-100-2",
        vrfName: null,
        framedIp: null,
        framedIpv6: null,
        ipv6PdPrefix: null,
        ipv6PdLength: null,
        dns1: null,
        dns2: null,
        dnsV6_1: null,
        dnsV6_2: null,
        planName: "fibre-1000",
        subscriberServiceId: null,
        downloadRateKbps: 0,
        uploadRateKbps: 0,
        downloadRatePps: 0,
        uploadRatePps: 0,
        downloadBurstKb: null,
        uploadBurstKb: null,
        additionalRoutes: [],
        option82CircuitId: null,
        port: 1,
        vlan: 2,
        sVlan: 100,
        sessionId: null,
      },
      errors: { 409: "subscribers.local.ipoe '1:100:2' already exists" },
    },
  }),
  getIpoe: operation({
    method: "GET",
    path: `${base}/ipoe/{key}`,
    section: "LocalSubscribers",
    summary: "One local IPoE subscriber",
    description:
      "The subscriber of one line, keyed `port:sVlan:vlan`, with its static addresses, " +
      "plan and rates as configured (without live state: its session is at …/session). " +
      "404 for a line without a local subscriber.",
    params: KeyParams,
    response: { description: "LocalIpoeSubscriber", schema: LocalIpoeSubscriber },
    errors: [404],
    examples: {
      params: { key: "1:100:1" },
      response: {
        kind: "ipoe",
        key: "1:100:1",
        username: "demo-business-2",
        vrfName: "default",
        framedIp: null,
        framedIpv6: null,
        ipv6PdPrefix: null,
        ipv6PdLength: null,
        dns1: null,
        dns2: null,
        dnsV6_1: null,
        dnsV6_2: null,
        planName: "fibre-1000",
        subscriberServiceId: null,
        downloadRateKbps: 0,
        uploadRateKbps: 0,
        downloadRatePps: 0,
        uploadRatePps: 0,
        downloadBurstKb: null,
        uploadBurstKb: null,
        additionalRoutes: [],
        option82CircuitId: "demo-business-2",
        port: 1,
        vlan: 1,
        sVlan: 100,
        sessionId: 1982,
      },
      errors: { 404: "no subscribers.local.ipoe item '1:100:1'" },
    },
  }),
  replaceIpoe: operation({
    method: "PUT",
    path: `${base}/ipoe/{key}`,
    section: "LocalSubscribers",
    summary: "Replace a local IPoE subscriber",
    description:
      `A full replacement: fields left out return to their defaults. port, sVlan and ` +
      `vlan may be left out; given, they must be the key's (400 otherwise). 404 for an ` +
      `unknown subscriber (PUT does not create). ${WRITE_NOTE}`,
    params: KeyParams,
    body: IpoeUpdate,
    response: { description: "the updated subscriber", schema: LocalIpoeSubscriber },
    errors: [404, 412, 422],
    examples: {
      params: { key: "1:100:2" },
      body: { planName: "fibre-300", comment: "downgraded" },
      response: {
        kind: "ipoe",
        key: "1:100:2",
        username: "local-ipoe-1-100-2",
        vrfName: null,
        framedIp: null,
        framedIpv6: null,
        ipv6PdPrefix: null,
        ipv6PdLength: null,
        dns1: null,
        dns2: null,
        dnsV6_1: null,
        dnsV6_2: null,
        planName: "fibre-300",
        subscriberServiceId: null,
        downloadRateKbps: 0,
        uploadRateKbps: 0,
        downloadRatePps: 0,
        uploadRatePps: 0,
        downloadBurstKb: null,
        uploadBurstKb: null,
        additionalRoutes: [],
        option82CircuitId: null,
        port: 1,
        vlan: 2,
        sVlan: 100,
        sessionId: null,
      },
      errors: { 404: "no local ipoe subscriber '1:100:2'" },
    },
  }),
  removeIpoe: operation({
    method: "DELETE",
    path: `${base}/ipoe/{key}`,
    section: "LocalSubscribers",
    summary: "Delete a local IPoE subscriber, disconnecting its session",
    description:
      "Its session is disconnected at once and its static allocations return to their " +
      "pools. 404 for an unknown subscriber. The optional `comment` query parameter " +
      "goes to the history.",
    params: KeyParams,
    query: KeyedList.deleteQuery,
    response: { description: "CommitResult", schema: CommitResult },
    errors: [404, 412],
    examples: {
      params: { key: "1:100:2" },
      query: { comment: "line ceased" },
      response: {
        status: "committed",
        name: "1:100:2",
        committedUtc: "2026-11-26T20:35:13.857Z",
        version: 26,
        restartRequired: false,
      },
      errors: { 404: "no subscribers.local.ipoe item '1:100:2'" },
    },
  }),
  createPppoe: operation({
    method: "POST",
    path: `${base}/pppoe`,
    section: "LocalSubscribers",
    summary: "Create a local PPPoE subscriber (validated, committed, hot-applied)",
    description:
      `The key is the username; 409 when it exists. The password is write-only: ` +
      `answers carry \`passwordSet\` instead. ${WRITE_NOTE}`,
    body: PppoeCreate,
    response: { description: "the created subscriber", schema: LocalPppoeSubscriber },
    errors: [409, 412, 422],
    examples: {
      body: {
        username: "shop-42@isp.example",
        password: "pppoe-secret-42",
        planName: "fibre-300",
        comment: "corner shop",
      },
      response: {
        kind: "pppoe",
        key: "shop-42@isp.example",
        username: "shop-42@isp.example",
        passwordSet: true,
        vrfName: null,
        framedIp: null,
        framedIpv6: null,
        ipv6PdPrefix: null,
        ipv6PdLength: null,
        dns1: null,
        dns2: null,
        dnsV6_1: null,
        dnsV6_2: null,
        planName: "fibre-300",
        subscriberServiceId: null,
        downloadRateKbps: 0,
        uploadRateKbps: 0,
        downloadRatePps: 0,
        uploadRatePps: 0,
        downloadBurstKb: null,
        uploadBurstKb: null,
        additionalRoutes: [],
        sessionId: null,
      },
      errors: { 409: "subscribers.local.pppoe 'shop-42@isp.example' already exists" },
    },
  }),
  getPppoe: operation({
    method: "GET",
    path: `${base}/pppoe/{username}`,
    section: "LocalSubscribers",
    summary: "One local PPPoE subscriber (without its password)",
    description:
      "The subscriber as configured: addresses, plan and rates. The password is " +
      "write-only: `passwordSet` says whether one is stored. 404 for an unknown username.",
    params: UsernameParams,
    response: { description: "LocalPppoeSubscriber", schema: LocalPppoeSubscriber },
    errors: [404],
    examples: {
      params: { username: "noc-test@isp.example" },
      response: {
        kind: "pppoe",
        key: "noc-test@isp.example",
        username: "noc-test@isp.example",
        passwordSet: true,
        vrfName: "default",
        framedIp: null,
        framedIpv6: null,
        ipv6PdPrefix: null,
        ipv6PdLength: null,
        dns1: null,
        dns2: null,
        dnsV6_1: null,
        dnsV6_2: null,
        planName: "fibre-1000",
        subscriberServiceId: null,
        downloadRateKbps: 0,
        uploadRateKbps: 0,
        downloadRatePps: 0,
        uploadRatePps: 0,
        downloadBurstKb: null,
        uploadBurstKb: null,
        additionalRoutes: [],
        sessionId: 1983,
      },
      errors: { 404: "no subscribers.local.pppoe item 'noc-test@isp.example'" },
    },
  }),
  replacePppoe: operation({
    method: "PUT",
    path: `${base}/pppoe/{username}`,
    section: "LocalSubscribers",
    summary: "Replace a local PPPoE subscriber",
    description:
      `A full replacement, except that an absent password (or \`********\`) keeps the ` +
      `stored one. A username in the body must be the URL's (400 otherwise). 404 for ` +
      `an unknown subscriber. ${WRITE_NOTE}`,
    params: UsernameParams,
    body: PppoeUpdate,
    response: { description: "the updated subscriber", schema: LocalPppoeSubscriber },
    errors: [404, 412, 422],
    examples: {
      params: { username: "shop-42@isp.example" },
      body: { planName: "fibre-1000", comment: "upgraded" },
      response: {
        kind: "pppoe",
        key: "shop-42@isp.example",
        username: "shop-42@isp.example",
        passwordSet: true,
        vrfName: null,
        framedIp: null,
        framedIpv6: null,
        ipv6PdPrefix: null,
        ipv6PdLength: null,
        dns1: null,
        dns2: null,
        dnsV6_1: null,
        dnsV6_2: null,
        planName: "fibre-1000",
        subscriberServiceId: null,
        downloadRateKbps: 0,
        uploadRateKbps: 0,
        downloadRatePps: 0,
        uploadRatePps: 0,
        downloadBurstKb: null,
        uploadBurstKb: null,
        additionalRoutes: [],
        sessionId: null,
      },
      errors: { 404: "no local pppoe subscriber 'shop-42@isp.example'" },
    },
  }),
  removePppoe: operation({
    method: "DELETE",
    path: `${base}/pppoe/{username}`,
    section: "LocalSubscribers",
    summary: "Delete a local PPPoE subscriber, disconnecting its session",
    description:
      "Its session is disconnected at once and its static allocations return to their " +
      "pools. 404 for an unknown subscriber. The optional `comment` query parameter " +
      "goes to the history.",
    params: UsernameParams,
    query: KeyedList.deleteQuery,
    response: { description: "CommitResult", schema: CommitResult },
    errors: [404, 412],
    examples: {
      params: { username: "shop-42@isp.example" },
      query: { comment: "account closed" },
      response: {
        status: "committed",
        name: "shop-42@isp.example",
        committedUtc: "2026-11-26T20:35:13.868Z",
        version: 27,
        restartRequired: false,
      },
      errors: { 404: "no subscribers.local.pppoe item 'shop-42@isp.example'" },
    },
  }),
  session: operation({
    method: "GET",
    path: `${base}/{kind}/{key}/session`,
    section: "LocalSubscribers",
    summary: "The live session of a local subscriber",
    description:
      "The session detail (as GET /api/v1/sessions/{id}), with `aaa.method` `local`. " +
      "404 when no such subscriber is configured, or while it is offline (a new one " +
      "connects within a 10-second sub-step; one that cannot come up retries every " +
      "minute and logs `session.setup-failed` with the reason).",
    params: SessionParams,
    response: { description: "SessionDetail", schema: SessionDetail },
    errors: [404],
    examples: {
      params: { kind: "pppoe", key: "noc-test@isp.example" },
      response: {
        id: 1983,
        type: "ppp",
        encap: "pppoe-local",
        username: "noc-test@isp.example",
        ipv4: "198.18.4.15",
        ipv6: "",
        vrf: "default",
        mac: "02:d1:ae:4d:89:1e",
        svlan: 214,
        vlan: 279,
        plan: "fibre-1000",
        walledGarden: false,
        uptimeSeconds: 10,
        portId: 2,
        state: "up",
        startedUtc: "2026-11-26T20:35:00.000Z",
        portLabel: "xe-0/0/1 OLT-south",
        realm: "isp.example",
        aaa: { method: "local", server: null },
        addresses: {
          ipv4: {
            address: "198.18.4.15",
            pool: "residential-v4",
            subnet: "198.18.4.0/23",
            cgnTranslated: false,
            learned: false,
          },
          ipv6Wan: null,
          ipv6Pd: null,
        },
        leaseExpiresUtc: null,
        planRates: { downloadKbps: 1000000, uploadKbps: 200000 },
        cgn: null,
        counters: { rxBytes: 11421770, txBytes: 95181418, rxPackets: 28554, txPackets: 86529 },
        rates: {
          sessionId: 1983,
          timestamp: "2026-11-26T20:35:10.000Z",
          rxBps: 4568708,
          txBps: 38072567,
          rxPps: 1428,
          txPps: 4326,
        },
        capture: null,
        steering: null,
      },
      errors: { 404: "no local pppoe subscriber 'noc-test@isp.example'" },
    },
  }),
};
