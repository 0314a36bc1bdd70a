/**
 * Local subscribers: the appliance's own subscriber table, answered by local
 * AAA without a RADIUS request. IPoE subscribers are keyed by their access
 * line `port:sVlan:vlan` (the body's port, sVlan and vlan decide the key);
 * PPPoE subscribers by their username, with a write-only password. They are
 * the `subscribers.local.ipoe` and `subscribers.local.pppoe` keyed lists of
 * the configuration: every write runs its pipeline (422 listing every
 * rejected field, history, audit) and hot-applies, and a new subscriber's
 * session comes up within a 10-second sub-step (GET …/session).
 *
 * Floors follow the spec's common rule: reads `read-only`, writes under
 * /subscribers `operator`.
 */
import { z } from "zod";
import { enumFilter } from "../schemas/enum-filter.ts";
import type { ConfigItem, Value } from "../config/types.ts";
import { IPOE_KEY_PATTERN, LOCAL_LISTS, ipoeKey, ipoeUsername } from "../config/local-subscribers.ts";
import { StatusError } from "../http/problem.ts";
import { unwrap } from "../http/refusal.ts";
import { committed, tagConfigRead } from "../http/config-version.ts";
import { route, type RouteContext } from "../http/route.ts";
import { CommitResult, commitResult, commitMeta } from "../schemas/commit.ts";
import { page, pageQuery, slicePage } from "../schemas/common.ts";
import { KeyedList, commentOf, type Descriptions, type WireStyle } from "./keyed-list.ts";
import { SessionDetail } from "../schemas/sessions.ts";

const base = "/api/v1/subscribers/local";
const Kind = z.enum(["ipoe", "pppoe"]);
type Kind = z.infer<typeof Kind>;
const int32 = z.int32();

// ── bodies and rows: from the registry's children (shapes here, 400; values by configuration validation, 422) ──

/** The spec's body types: int32 numbers, text bounded to 1024 characters, rates defaulting to 0. */
const STYLE: WireStyle = { text: () => z.string().max(1024), int: () => z.int32(), list: () => z.array(z.string().max(64)).max(1024), defaults: "apply" };

/** How the section words the members both kinds share. */
const BODY: Descriptions = {
  vrfName: "a configured VRF or `default`; null = `default`",
  framedIp: "IPv4 address: inside a pool of the VRF it is held there as a static allocation, outside every pool it is used as is; null = a dynamic address from the VRF's pool. Unique across local subscribers of the same VRF (VRFs are separate address spaces)",
  framedIpv6: "IPv6 WAN address (inside a WAN pool of the VRF its /64 is held statically); null = none",
  ipv6PdPrefix: "delegated prefix `address/length`, or an address with ipv6PdLength; inside a PD pool of the VRF it must be one of its delegations; null = none",
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

const lists = {
  ipoe: new KeyedList({
    list: LOCAL_LISTS.ipoe,
    style: STYLE,
    body: {
      ...BODY,
      option82CircuitId: "DHCP option 82 circuit id; the session's username when set (else `local-ipoe-<port>-<sVlan>-<vlan>`); unique",
      port: "uint8 port id of the line: one of the appliance's ports",
      vlan: "uint16 C-VLAN id (0-4094; 0 = untagged)",
      sVlan: "uint16 S-VLAN id (0-4094; 0 = single-tagged)",
    },
    row: ROW,
  }),
  pppoe: new KeyedList({ list: LOCAL_LISTS.pppoe, style: STYLE, body: { ...BODY, password: "PAP/CHAP password, write-only" }, row: ROW }),
} satisfies Record<Kind, KeyedList>;

const keyOfLine = int32.optional().meta({ description: "optional: the key's; another value is refused (400)" });

const IpoeCreate = z
  .object(lists.ipoe.bodyFields("create"))
  .meta({ id: "LocalIpoeSubscriberWrite", description: "the spec's Local IPoE subscriber body; port, sVlan and vlan make the key `port:sVlan:vlan`" });
const IpoeUpdate = z
  .object({ ...lists.ipoe.bodyFields("replace"), port: keyOfLine, vlan: keyOfLine, sVlan: keyOfLine })
  .meta({ id: "LocalIpoeSubscriberUpdate", description: "a full replacement: fields left out return to their defaults; the line is the key's" });
const PppoeCreate = z
  .object({ username: z.string().max(1024).meta({ description: "the key: 1-253 printable ASCII characters, no space or '/'" }), ...lists.pppoe.bodyFields("create") })
  .meta({ id: "LocalPppoeSubscriberWrite", description: "a local PPPoE subscriber: the IPoE body's addressing and rate fields, keyed by username" });
const PppoeUpdate = z
  .object({
    username: z.string().max(1024).optional().meta({ description: "optional: the key's; another value is refused (400)" }),
    ...lists.pppoe.bodyFields("replace"),
    password: z.string().max(1024).optional().meta({ description: "a new password; absent or `********` keeps the stored one" }),
  })
  .meta({ id: "LocalPppoeSubscriberUpdate", description: "a full replacement except the password, which is kept unless given" });

const nullableText = z.string().nullable();
const sessionId = z.int().nullable().meta({ description: "the live session (see …/session); null while offline" });
export const LocalIpoeSubscriber = z
  .object({
    kind: z.literal("ipoe"),
    key: z.string().meta({ description: "`port:sVlan:vlan`" }),
    username: z.string().meta({ description: "the session's username: option82CircuitId, else `local-ipoe-<port>-<sVlan>-<vlan>`" }),
    ...lists.ipoe.rowFields(),
    sessionId,
  })
  .meta({ id: "LocalIpoeSubscriber" });
export const LocalPppoeSubscriber = z
  .object({
    kind: z.literal("pppoe"),
    key: z.string().meta({ description: "the username" }),
    username: z.string(),
    passwordSet: z.boolean().meta({ description: "the password itself is never returned" }),
    ...lists.pppoe.rowFields(),
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
  .meta({ id: "LocalSubscriberRow", description: "one local subscriber of either kind, its main fields and whether it is online" });

const ListQuery = pageQuery(100, 1000).extend({ kind: enumFilter(Kind.options).optional().meta({ description: "only subscribers of this kind (`ipoe` or `pppoe`, any case)" }) });
const KeyParams = z.object({ key: z.string().min(1).max(300).meta({ description: "`port:sVlan:vlan`, e.g. 1:100:42" }) });
const UsernameParams = z.object({ username: z.string().min(1).max(300) });
const SessionParams = z.object({ kind: Kind, key: z.string().min(1).max(300).meta({ description: "`port:sVlan:vlan` (ipoe) or the username (pppoe)" }) });
const DeleteQuery = z.object({ comment: z.string().max(1024).optional().meta({ description: "commit comment, recorded in the configuration history" }) });

// ── records ─────────────────────────────────────────────────────────────

type Sessions = Record<string, number>;
// The children's members come from the registry at run time: tsc sees them as values of the configuration.
type IpoeRecord = z.infer<typeof LocalIpoeSubscriber> & Record<string, Value>;
type PppoeRecord = z.infer<typeof LocalPppoeSubscriber> & Record<string, Value>;
type SubscriberRecord = IpoeRecord | PppoeRecord;
const sessionOf = (sessions: Sessions, kind: Kind, key: string): number | null => sessions[`${kind}/${key}`] ?? null;

function ipoeRecord(item: ConfigItem, sessions: Sessions): IpoeRecord {
  const values = lists.ipoe.rowValues(item);
  const option82 = typeof values.option82CircuitId === "string" ? values.option82CircuitId : null;
  return { kind: "ipoe", key: item.key, username: ipoeUsername(Number(values.port), Number(values.sVlan), Number(values.vlan), option82), ...values, sessionId: sessionOf(sessions, "ipoe", item.key) };
}

function pppoeRecord(item: ConfigItem, sessions: Sessions): PppoeRecord {
  return { kind: "pppoe", key: item.key, username: item.key, passwordSet: KeyedList.secretSet(item, "password"), ...lists.pppoe.rowValues(item), sessionId: sessionOf(sessions, "pppoe", item.key) };
}

const text = (value: unknown): string | null => (typeof value === "string" ? value : null);
const line = (record: SubscriberRecord, part: "port" | "sVlan" | "vlan"): number | null => (record.kind === "ipoe" ? Number(record[part]) : null);

const row = (record: SubscriberRecord): z.infer<typeof LocalSubscriberRow> => ({
  kind: record.kind,
  key: record.key,
  username: record.username,
  vrfName: text(record.vrfName),
  framedIp: text(record.framedIp),
  framedIpv6: text(record.framedIpv6),
  ipv6PdPrefix: text(record.ipv6PdPrefix),
  planName: text(record.planName),
  downloadRateKbps: Number(record.downloadRateKbps),
  uploadRateKbps: Number(record.uploadRateKbps),
  port: line(record, "port"),
  sVlan: line(record, "sVlan"),
  vlan: line(record, "vlan"),
  sessionId: record.sessionId,
});

/** The `[port, sVlan, vlan]` of an IPoE key, or null. */
function lineOf(key: string): [number, number, number] | null {
  if (!IPOE_KEY_PATTERN.test(key)) return null;
  const [port, sVlan, vlan] = key.split(":").map(Number);
  return ipoeKey(port!, sVlan!, vlan!) === key ? [port!, sVlan!, vlan!] : null;
}

type Ctx = RouteContext<unknown, unknown, unknown>;
const meta = (ctx: Ctx, comment: string | null | undefined) => commitMeta(ctx, "local-subscriber", comment);

/** The record as it is now: the committed item and the data plane's session. */
async function record<K extends Kind>(ctx: Ctx, kind: K, key: string): Promise<ReturnType<(typeof RECORDS)[K]>> {
  tagConfigRead(ctx);
  const [found, sessions] = await Promise.all([ctx.appliance.stub.config().item(LOCAL_LISTS[kind], key), ctx.appliance.stub.dataPlane().localSubscriberSessions()]);
  const { item } = unwrap(found);
  // Each kind's own shape, so a route's schema sees an IPoE or a PPPoE record, not their union.
  return RECORDS[kind](item, sessions) as ReturnType<(typeof RECORDS)[K]>;
}
const RECORDS = { ipoe: ipoeRecord, pppoe: pppoeRecord };

/** 404 before a replacement: PUT never creates (and a key that cannot exist is unknown, not invalid). */
async function mustExist(ctx: Ctx, kind: Kind, key: string): Promise<void> {
  const found = await ctx.appliance.stub.config().item(LOCAL_LISTS[kind], key);
  if (!found.ok) throw new StatusError(404, `no local ${kind} subscriber '${key}'`);
}

/** A body field that names the identity must agree with the URL's. */
function sameIdentity(field: string, given: string | number | undefined, expected: string | number): void {
  if (given !== undefined && given !== expected) {
    const detail = `${field} is part of the key (${JSON.stringify(expected)} here); to move a subscriber, delete it and create it anew`;
    throw new StatusError(400, detail, { errors: [{ in: "body", pointer: `#/${field}`, detail }] });
  }
}

const WRITE_NOTE =
  "Committed through the configuration pipeline (history, audit) and hot-applied: the session comes up within a 10-second sub-step through local AAA (no RADIUS request). 422 when validation rejects, listing every rejected field under `#/lists/<list>/<key>/…`: a VRF that is not configured (nor `default`), a plan or port the appliance does not have, an address that does not parse or is already another local subscriber's, an address in an excluded or profile-static block of its pool, a prefix overlapping a PD pool without being one of its delegations, values outside their types' ranges, no rates without a plan.";

export const localSubscriberRoutes = [
  route({
    method: "GET",
    path: base,
    section: "LocalSubscribers",
    summary: "Local subscribers of both kinds, IPoE first (by port, S-VLAN, VLAN), then PPPoE (by username), paged",
    description: "One row per subscriber with its main fields and `sessionId` (null while offline). `kind` filters; `offset` (default 0) and `limit` (default 100, clamped to 1-1000) page.",
    query: ListQuery,
    response: { description: "a page of LocalSubscriberRow", schema: page(LocalSubscriberRow, "LocalSubscriberPage") },
    handle: async (ctx) => {
      tagConfigRead(ctx);
      const config = ctx.appliance.stub.config();
      const [ipoe, pppoe, sessions] = await Promise.all([config.items(LOCAL_LISTS.ipoe), config.items(LOCAL_LISTS.pppoe), ctx.appliance.stub.dataPlane().localSubscriberSessions()]);
      const lines = ipoe
        .map((item) => ipoeRecord(item, sessions))
        .sort((a, b) => line(a, "port")! - line(b, "port")! || line(a, "sVlan")! - line(b, "sVlan")! || line(a, "vlan")! - line(b, "vlan")!);
      const users = pppoe.map((item) => pppoeRecord(item, sessions)).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
      const rows = [...(ctx.query.kind === "pppoe" ? [] : lines), ...(ctx.query.kind === "ipoe" ? [] : users)].map(row);
      return slicePage(rows, ctx.query.offset, ctx.query.limit);
    },
  }),
  route({
    method: "POST",
    path: `${base}/ipoe`,
    section: "LocalSubscribers",
    summary: "Create a local IPoE subscriber (validated, committed, hot-applied)",
    description: `The key is the line \`port:sVlan:vlan\` from the body; 409 when a subscriber of that line exists. ${WRITE_NOTE}`,
    body: IpoeCreate,
    response: { description: "the created subscriber", schema: LocalIpoeSubscriber },
    errors: [409, 412, 422],
    handle: async (ctx) => {
      const key = ipoeKey(Number(ctx.body.port), Number(ctx.body.sVlan), Number(ctx.body.vlan));
      committed(ctx, await ctx.appliance.stub.config().putItem(LOCAL_LISTS.ipoe, key, lists.ipoe.children(ctx.body, "create"), "create", meta(ctx, commentOf(ctx.body))));
      return record(ctx, "ipoe", key);
    },
  }),
  route({
    method: "GET",
    path: `${base}/ipoe/{key}`,
    section: "LocalSubscribers",
    summary: "One local IPoE subscriber",
    params: KeyParams,
    response: { description: "LocalIpoeSubscriber", schema: LocalIpoeSubscriber },
    errors: [404],
    handle: (ctx) => record(ctx, "ipoe", ctx.params.key),
  }),
  route({
    method: "PUT",
    path: `${base}/ipoe/{key}`,
    section: "LocalSubscribers",
    summary: "Replace a local IPoE subscriber",
    description: `A full replacement: fields left out return to their defaults. port, sVlan and vlan may be left out; given, they must be the key's (400 otherwise). 404 for an unknown subscriber (PUT does not create). ${WRITE_NOTE}`,
    params: KeyParams,
    body: IpoeUpdate,
    response: { description: "the updated subscriber", schema: LocalIpoeSubscriber },
    errors: [404, 412, 422],
    handle: async (ctx) => {
      await mustExist(ctx, "ipoe", ctx.params.key);
      const line = lineOf(ctx.params.key);
      if (!line) throw new StatusError(404, `no local ipoe subscriber '${ctx.params.key}'`);
      const [port, sVlan, vlan] = line;
      sameIdentity("port", ctx.body.port, port);
      sameIdentity("sVlan", ctx.body.sVlan, sVlan);
      sameIdentity("vlan", ctx.body.vlan, vlan);
      const children = lists.ipoe.children({ ...ctx.body, port, sVlan, vlan }, "replace");
      committed(ctx, await ctx.appliance.stub.config().putItem(LOCAL_LISTS.ipoe, ctx.params.key, children, "replace", meta(ctx, commentOf(ctx.body))));
      return record(ctx, "ipoe", ctx.params.key);
    },
  }),
  route({
    method: "DELETE",
    path: `${base}/ipoe/{key}`,
    section: "LocalSubscribers",
    summary: "Delete a local IPoE subscriber, disconnecting its session",
    description: "Its session is disconnected at once and its static allocations return to their pools. 404 for an unknown subscriber. The optional `comment` query parameter goes to the history.",
    params: KeyParams,
    query: KeyedList.deleteQuery,
    response: { description: "CommitResult", schema: CommitResult },
    errors: [404, 412],
    handle: async (ctx) => commitResult(ctx.params.key, committed(ctx, await ctx.appliance.stub.config().deleteItem(LOCAL_LISTS.ipoe, ctx.params.key, meta(ctx, ctx.query.comment)))),
  }),
  route({
    method: "POST",
    path: `${base}/pppoe`,
    section: "LocalSubscribers",
    summary: "Create a local PPPoE subscriber (validated, committed, hot-applied)",
    description: `The key is the username; 409 when it exists. The password is write-only: answers carry \`passwordSet\` instead. ${WRITE_NOTE}`,
    body: PppoeCreate,
    response: { description: "the created subscriber", schema: LocalPppoeSubscriber },
    errors: [409, 412, 422],
    handle: async (ctx) => {
      committed(ctx, await ctx.appliance.stub.config().putItem(LOCAL_LISTS.pppoe, ctx.body.username, lists.pppoe.children(ctx.body, "create"), "create", meta(ctx, commentOf(ctx.body))));
      return record(ctx, "pppoe", ctx.body.username);
    },
  }),
  route({
    method: "GET",
    path: `${base}/pppoe/{username}`,
    section: "LocalSubscribers",
    summary: "One local PPPoE subscriber (without its password)",
    params: UsernameParams,
    response: { description: "LocalPppoeSubscriber", schema: LocalPppoeSubscriber },
    errors: [404],
    handle: (ctx) => record(ctx, "pppoe", ctx.params.username),
  }),
  route({
    method: "PUT",
    path: `${base}/pppoe/{username}`,
    section: "LocalSubscribers",
    summary: "Replace a local PPPoE subscriber",
    description: `A full replacement, except that an absent password (or \`********\`) keeps the stored one. A username in the body must be the URL's (400 otherwise). 404 for an unknown subscriber. ${WRITE_NOTE}`,
    params: UsernameParams,
    body: PppoeUpdate,
    response: { description: "the updated subscriber", schema: LocalPppoeSubscriber },
    errors: [404, 412, 422],
    handle: async (ctx) => {
      await mustExist(ctx, "pppoe", ctx.params.username);
      sameIdentity("username", ctx.body.username, ctx.params.username);
      committed(ctx, await ctx.appliance.stub.config().putItem(LOCAL_LISTS.pppoe, ctx.params.username, lists.pppoe.children(ctx.body, "replace"), "replace", meta(ctx, commentOf(ctx.body))));
      return record(ctx, "pppoe", ctx.params.username);
    },
  }),
  route({
    method: "DELETE",
    path: `${base}/pppoe/{username}`,
    section: "LocalSubscribers",
    summary: "Delete a local PPPoE subscriber, disconnecting its session",
    description: "Its session is disconnected at once and its static allocations return to their pools. 404 for an unknown subscriber. The optional `comment` query parameter goes to the history.",
    params: UsernameParams,
    query: KeyedList.deleteQuery,
    response: { description: "CommitResult", schema: CommitResult },
    errors: [404, 412],
    handle: async (ctx) =>
      commitResult(ctx.params.username, committed(ctx, await ctx.appliance.stub.config().deleteItem(LOCAL_LISTS.pppoe, ctx.params.username, meta(ctx, ctx.query.comment)))),
  }),
  route({
    method: "GET",
    path: `${base}/{kind}/{key}/session`,
    section: "LocalSubscribers",
    summary: "The live session of a local subscriber",
    description: "The session detail (as GET /api/v1/sessions/{id}), with `aaa.method` `local`. 404 when no such subscriber is configured, or while it is offline (a new one connects within a 10-second sub-step; one that cannot come up retries every minute and logs `session.setup-failed` with the reason).",
    params: SessionParams,
    response: { description: "SessionDetail", schema: SessionDetail },
    errors: [404],
    handle: async (ctx) => unwrap(await ctx.appliance.stub.dataPlane().localSession(ctx.params.kind, ctx.params.key)).session,
  }),
];
