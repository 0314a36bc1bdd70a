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
import type { ConfigItem } from "../config/document.ts";
import type { EditValue } from "../config/edit.ts";
import { IPOE_KEY_PATTERN, LOCAL_LISTS, ipoeKey, ipoeUsername } from "../config/local-subscribers.ts";
import { REDACTED, type Value } from "../config/registry.ts";
import { StatusError } from "../http/problem.ts";
import { route, type RouteContext } from "../http/route.ts";
import { CommitResult, commitResult, commitMeta } from "../schemas/commit.ts";
import { page, pageQuery, slicePage } from "../schemas/common.ts";
import { unwrap } from "../schemas/outcome.ts";
import { SessionDetail } from "../schemas/sessions.ts";

const base = "/api/v1/subscribers/local";
const Kind = z.enum(["ipoe", "pppoe"]);
type Kind = z.infer<typeof Kind>;

// ── bodies: shapes here (400), values by configuration validation (422) ────

const text = z.string().max(1024).nullable().optional();
const int32 = z.int32();

const subscriberFields = {
  vrfName: text.meta({ description: "a configured VRF or `default`; null = `default`" }),
  framedIp: text.meta({ description: "IPv4 address: inside a pool of the VRF it is held there as a static allocation, outside every pool it is used as is; null = a dynamic address from the VRF's pool. Unique across local subscribers of the same VRF (VRFs are separate address spaces)" }),
  framedIpv6: text.meta({ description: "IPv6 WAN address (inside a WAN pool of the VRF its /64 is held statically); null = none" }),
  ipv6PdPrefix: text.meta({ description: "delegated prefix `address/length`, or an address with ipv6PdLength; inside a PD pool of the VRF it must be one of its delegations; null = none" }),
  ipv6PdLength: int32.nullable().optional().meta({ description: "uint8 length of ipv6PdPrefix, 1-128" }),
  dns1: text.meta({ description: "IPv4 DNS server" }),
  dns2: text.meta({ description: "IPv4 DNS server" }),
  dnsV6_1: text.meta({ description: "IPv6 DNS server" }),
  dnsV6_2: text.meta({ description: "IPv6 DNS server" }),
  planName: text.meta({ description: "a plan of the appliance's profile; null = none (then both rates are required)" }),
  subscriberServiceId: text.meta({ description: "the operator's service or billing id" }),
  downloadRateKbps: int32.default(0).meta({ description: "shaping rate, 0 or absent = the plan's" }),
  uploadRateKbps: int32.default(0).meta({ description: "shaping rate, 0 or absent = the plan's" }),
  downloadRatePps: int32.default(0).meta({ description: "packet-rate limit, 0 or absent = none" }),
  uploadRatePps: int32.default(0).meta({ description: "packet-rate limit, 0 or absent = none" }),
  downloadBurstKb: int32.nullable().optional().meta({ description: "burst size; null = the shaper's default" }),
  uploadBurstKb: int32.nullable().optional().meta({ description: "burst size; null = the shaper's default" }),
  additionalRoutes: z.array(z.string().max(64)).max(1024).nullable().optional().meta({ description: "CIDR prefixes routed to the subscriber (Framed-Route)" }),
  comment: z.string().max(1024).nullable().optional().meta({ description: "commit comment, recorded in the configuration history" }),
};
const option82CircuitId = text.meta({ description: "DHCP option 82 circuit id; the session's username when set (else `local-ipoe-<port>-<sVlan>-<vlan>`); unique" });

const IpoeCreate = z
  .object({
    ...subscriberFields,
    option82CircuitId,
    port: int32.meta({ description: "uint8 port id of the line: one of the appliance's ports" }),
    vlan: int32.meta({ description: "uint16 C-VLAN id (0-4094; 0 = untagged)" }),
    sVlan: int32.meta({ description: "uint16 S-VLAN id (0-4094; 0 = single-tagged)" }),
  })
  .meta({ id: "LocalIpoeSubscriberWrite", description: "the spec's Local IPoE subscriber body; port, sVlan and vlan make the key `port:sVlan:vlan`" });
const IpoeUpdate = z
  .object({
    ...subscriberFields,
    option82CircuitId,
    port: int32.optional().meta({ description: "optional: the key's; another value is refused (400)" }),
    vlan: int32.optional().meta({ description: "optional: the key's; another value is refused (400)" }),
    sVlan: int32.optional().meta({ description: "optional: the key's; another value is refused (400)" }),
  })
  .meta({ id: "LocalIpoeSubscriberUpdate", description: "a full replacement: fields left out return to their defaults; the line is the key's" });
const PppoeCreate = z
  .object({
    username: z.string().max(1024).meta({ description: "the key: 1-253 printable ASCII characters, no space or '/'" }),
    password: z.string().max(1024).meta({ description: "PAP/CHAP password, write-only" }),
    ...subscriberFields,
  })
  .meta({ id: "LocalPppoeSubscriberWrite", description: "a local PPPoE subscriber: the IPoE body's addressing and rate fields, keyed by username" });
const PppoeUpdate = z
  .object({
    username: z.string().max(1024).optional().meta({ description: "optional: the key's; another value is refused (400)" }),
    password: z.string().max(1024).optional().meta({ description: "a new password; absent or `********` keeps the stored one" }),
    ...subscriberFields,
  })
  .meta({ id: "LocalPppoeSubscriberUpdate", description: "a full replacement except the password, which is kept unless given" });

// ── answers ───────────────────────────────────────────────────────────────

const nullableText = z.string().nullable();
const sessionId = z.int().nullable().meta({ description: "the live session (see …/session); null while offline" });
const subscriberValues = {
  vrfName: nullableText.meta({ description: "null = `default`" }),
  framedIp: nullableText,
  framedIpv6: nullableText,
  ipv6PdPrefix: nullableText,
  ipv6PdLength: z.int().nullable(),
  dns1: nullableText,
  dns2: nullableText,
  dnsV6_1: nullableText,
  dnsV6_2: nullableText,
  planName: nullableText,
  subscriberServiceId: nullableText,
  downloadRateKbps: z.int(),
  uploadRateKbps: z.int(),
  downloadRatePps: z.int(),
  uploadRatePps: z.int(),
  downloadBurstKb: z.int().nullable(),
  uploadBurstKb: z.int().nullable(),
  additionalRoutes: z.array(z.string()),
};
const LocalIpoeSubscriber = z
  .object({
    kind: z.literal("ipoe"),
    key: z.string().meta({ description: "`port:sVlan:vlan`" }),
    username: z.string().meta({ description: "the session's username: option82CircuitId, else `local-ipoe-<port>-<sVlan>-<vlan>`" }),
    ...subscriberValues,
    option82CircuitId: nullableText,
    port: z.int(),
    vlan: z.int(),
    sVlan: z.int(),
    sessionId,
  })
  .meta({ id: "LocalIpoeSubscriber" });
const LocalPppoeSubscriber = z
  .object({
    kind: z.literal("pppoe"),
    key: z.string().meta({ description: "the username" }),
    username: z.string(),
    passwordSet: z.boolean().meta({ description: "the password itself is never returned" }),
    ...subscriberValues,
    sessionId,
  })
  .meta({ id: "LocalPppoeSubscriber" });
const LocalSubscriberRow = z
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

// ── configuration children and records ─────────────────────────────────

const n = (value: number | null | undefined): EditValue => (value === null || value === undefined ? null : String(value));

function commonChildren(body: z.output<typeof IpoeUpdate> | z.output<typeof PppoeUpdate>): Record<string, EditValue> {
  return {
    vrfName: body.vrfName ?? null,
    framedIp: body.framedIp ?? null,
    framedIpv6: body.framedIpv6 ?? null,
    ipv6PdPrefix: body.ipv6PdPrefix ?? null,
    ipv6PdLength: n(body.ipv6PdLength),
    dns1: body.dns1 ?? null,
    dns2: body.dns2 ?? null,
    dnsV6_1: body.dnsV6_1 ?? null,
    dnsV6_2: body.dnsV6_2 ?? null,
    planName: body.planName ?? null,
    subscriberServiceId: body.subscriberServiceId ?? null,
    downloadRateKbps: n(body.downloadRateKbps),
    uploadRateKbps: n(body.uploadRateKbps),
    downloadRatePps: n(body.downloadRatePps),
    uploadRatePps: n(body.uploadRatePps),
    downloadBurstKb: n(body.downloadBurstKb),
    uploadBurstKb: n(body.uploadBurstKb),
    additionalRoutes: body.additionalRoutes ?? [],
  };
}

const str = (value: Value | undefined): string | null => (typeof value === "string" ? value : null);
const int = (value: Value | undefined): number | null => (typeof value === "number" ? value : null);

function commonValues(values: Record<string, Value>) {
  return {
    vrfName: str(values.vrfName),
    framedIp: str(values.framedIp),
    framedIpv6: str(values.framedIpv6),
    ipv6PdPrefix: str(values.ipv6PdPrefix),
    ipv6PdLength: int(values.ipv6PdLength),
    dns1: str(values.dns1),
    dns2: str(values.dns2),
    dnsV6_1: str(values.dnsV6_1),
    dnsV6_2: str(values.dnsV6_2),
    planName: str(values.planName),
    subscriberServiceId: str(values.subscriberServiceId),
    downloadRateKbps: int(values.downloadRateKbps) ?? 0,
    uploadRateKbps: int(values.uploadRateKbps) ?? 0,
    downloadRatePps: int(values.downloadRatePps) ?? 0,
    uploadRatePps: int(values.uploadRatePps) ?? 0,
    downloadBurstKb: int(values.downloadBurstKb),
    uploadBurstKb: int(values.uploadBurstKb),
    additionalRoutes: Array.isArray(values.additionalRoutes) ? values.additionalRoutes : [],
  };
}

type Sessions = Record<string, number>;
const sessionOf = (sessions: Sessions, kind: Kind, key: string): number | null => sessions[`${kind}/${key}`] ?? null;

function ipoeRecord({ key, values }: ConfigItem, sessions: Sessions): z.infer<typeof LocalIpoeSubscriber> {
  const [port, sVlan, vlan] = [int(values.port) ?? 0, int(values.sVlan) ?? 0, int(values.vlan) ?? 0];
  return {
    kind: "ipoe",
    key,
    username: ipoeUsername(port, sVlan, vlan, str(values.option82CircuitId)),
    ...commonValues(values),
    option82CircuitId: str(values.option82CircuitId),
    port,
    vlan,
    sVlan,
    sessionId: sessionOf(sessions, "ipoe", key),
  };
}

function pppoeRecord({ key, values }: ConfigItem, sessions: Sessions): z.infer<typeof LocalPppoeSubscriber> {
  return { kind: "pppoe", key, username: key, passwordSet: values.password !== null, ...commonValues(values), sessionId: sessionOf(sessions, "pppoe", key) };
}

const row = (record: z.infer<typeof LocalIpoeSubscriber> | z.infer<typeof LocalPppoeSubscriber>): z.infer<typeof LocalSubscriberRow> => ({
  kind: record.kind,
  key: record.key,
  username: record.username,
  vrfName: record.vrfName,
  framedIp: record.framedIp,
  framedIpv6: record.framedIpv6,
  ipv6PdPrefix: record.ipv6PdPrefix,
  planName: record.planName,
  downloadRateKbps: record.downloadRateKbps,
  uploadRateKbps: record.uploadRateKbps,
  port: record.kind === "ipoe" ? record.port : null,
  sVlan: record.kind === "ipoe" ? record.sVlan : null,
  vlan: record.kind === "ipoe" ? record.vlan : null,
  sessionId: record.sessionId,
});

/** The `[port, sVlan, vlan]` of an IPoE key, or null. */
function lineOf(key: string): [number, number, number] | null {
  if (!IPOE_KEY_PATTERN.test(key)) return null;
  const [port, sVlan, vlan] = key.split(":").map(Number);
  return ipoeKey(port!, sVlan!, vlan!) === key ? [port!, sVlan!, vlan!] : null;
}

type Ctx = RouteContext<unknown, unknown, unknown>;
const meta = (ctx: Ctx, comment: string | null | undefined) => commitMeta(ctx.principal, "local-subscriber", comment);

/** The record as it is now: the committed item and the data plane's session. */
async function record<K extends Kind>(ctx: Ctx, kind: K, key: string): Promise<ReturnType<(typeof RECORDS)[K]>> {
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
      const config = ctx.appliance.stub.config();
      const [ipoe, pppoe, sessions] = await Promise.all([config.items(LOCAL_LISTS.ipoe), config.items(LOCAL_LISTS.pppoe), ctx.appliance.stub.dataPlane().localSubscriberSessions()]);
      const lines = ipoe
        .map((item) => ipoeRecord(item, sessions))
        .sort((a, b) => a.port - b.port || a.sVlan - b.sVlan || a.vlan - b.vlan);
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
    errors: [409, 422],
    handle: async (ctx) => {
      const key = ipoeKey(ctx.body.port, ctx.body.sVlan, ctx.body.vlan);
      const children = { ...commonChildren(ctx.body), option82CircuitId: ctx.body.option82CircuitId ?? null, port: n(ctx.body.port), vlan: n(ctx.body.vlan), sVlan: n(ctx.body.sVlan) };
      unwrap(await ctx.appliance.stub.config().putItem(LOCAL_LISTS.ipoe, key, children, "create", meta(ctx, ctx.body.comment)));
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
    errors: [404, 422],
    handle: async (ctx) => {
      await mustExist(ctx, "ipoe", ctx.params.key);
      const line = lineOf(ctx.params.key);
      if (!line) throw new StatusError(404, `no local ipoe subscriber '${ctx.params.key}'`);
      const [port, sVlan, vlan] = line;
      sameIdentity("port", ctx.body.port, port);
      sameIdentity("sVlan", ctx.body.sVlan, sVlan);
      sameIdentity("vlan", ctx.body.vlan, vlan);
      const children = { ...commonChildren(ctx.body), option82CircuitId: ctx.body.option82CircuitId ?? null, port: n(port), vlan: n(vlan), sVlan: n(sVlan) };
      unwrap(await ctx.appliance.stub.config().putItem(LOCAL_LISTS.ipoe, ctx.params.key, children, "replace", meta(ctx, ctx.body.comment)));
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
    query: DeleteQuery,
    response: { description: "CommitResult", schema: CommitResult },
    errors: [404],
    handle: async (ctx) => commitResult(ctx.params.key, unwrap(await ctx.appliance.stub.config().deleteItem(LOCAL_LISTS.ipoe, ctx.params.key, meta(ctx, ctx.query.comment)))),
  }),
  route({
    method: "POST",
    path: `${base}/pppoe`,
    section: "LocalSubscribers",
    summary: "Create a local PPPoE subscriber (validated, committed, hot-applied)",
    description: `The key is the username; 409 when it exists. The password is write-only: answers carry \`passwordSet\` instead. ${WRITE_NOTE}`,
    body: PppoeCreate,
    response: { description: "the created subscriber", schema: LocalPppoeSubscriber },
    errors: [409, 422],
    handle: async (ctx) => {
      const children = { password: ctx.body.password, ...commonChildren(ctx.body) };
      unwrap(await ctx.appliance.stub.config().putItem(LOCAL_LISTS.pppoe, ctx.body.username, children, "create", meta(ctx, ctx.body.comment)));
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
    errors: [404, 422],
    handle: async (ctx) => {
      await mustExist(ctx, "pppoe", ctx.params.username);
      sameIdentity("username", ctx.body.username, ctx.params.username);
      const children = { password: ctx.body.password ?? REDACTED, ...commonChildren(ctx.body) };
      unwrap(await ctx.appliance.stub.config().putItem(LOCAL_LISTS.pppoe, ctx.params.username, children, "replace", meta(ctx, ctx.body.comment)));
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
    query: DeleteQuery,
    response: { description: "CommitResult", schema: CommitResult },
    errors: [404],
    handle: async (ctx) =>
      commitResult(ctx.params.username, unwrap(await ctx.appliance.stub.config().deleteItem(LOCAL_LISTS.pppoe, ctx.params.username, meta(ctx, ctx.query.comment)))),
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
