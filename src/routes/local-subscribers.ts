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
import type { z } from "zod";
import type { ConfigItem, Value } from "../config/types.ts";
import { IPOE_KEY_PATTERN, LOCAL_LISTS, ipoeKey, ipoeUsername } from "../config/local-subscribers.ts";
import { StatusError } from "../http/problem.ts";
import { unwrap } from "../http/refusal.ts";
import { committed, tagConfigRead } from "../http/config-version.ts";
import { implement, type RouteContext } from "../http/route.ts";
import { commitResult, commitMeta } from "../schemas/commit.ts";
import { slicePage } from "../schemas/common.ts";
import { localSubscriberLists, localSubscribers, type Kind, type LocalIpoeSubscriber, type LocalPppoeSubscriber, type LocalSubscriberRow } from "../schemas/local-subscribers.ts";
import { ConfigList, commentOf } from "./keyed-list.ts";

const lists = { ipoe: new ConfigList(localSubscriberLists.ipoe), pppoe: new ConfigList(localSubscriberLists.pppoe) };

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
  return { kind: "pppoe", key: item.key, username: item.key, passwordSet: ConfigList.secretSet(item, "password"), ...lists.pppoe.rowValues(item), sessionId: sessionOf(sessions, "pppoe", item.key) };
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

export const localSubscriberRoutes = [
  implement(localSubscribers.list, async (ctx) => {
    tagConfigRead(ctx);
    const config = ctx.appliance.stub.config();
    const [ipoe, pppoe, sessions] = await Promise.all([config.items(LOCAL_LISTS.ipoe), config.items(LOCAL_LISTS.pppoe), ctx.appliance.stub.dataPlane().localSubscriberSessions()]);
    const lines = ipoe
      .map((item) => ipoeRecord(item, sessions))
      .sort((a, b) => line(a, "port")! - line(b, "port")! || line(a, "sVlan")! - line(b, "sVlan")! || line(a, "vlan")! - line(b, "vlan")!);
    const users = pppoe.map((item) => pppoeRecord(item, sessions)).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const rows = [...(ctx.query.kind === "pppoe" ? [] : lines), ...(ctx.query.kind === "ipoe" ? [] : users)].map(row);
    return slicePage(rows, ctx.query.offset, ctx.query.limit);
  }),
  implement(localSubscribers.createIpoe, async (ctx) => {
    const key = ipoeKey(Number(ctx.body.port), Number(ctx.body.sVlan), Number(ctx.body.vlan));
    committed(ctx, await ctx.appliance.stub.config().putItem(LOCAL_LISTS.ipoe, key, lists.ipoe.children(ctx.body, "create"), "create", meta(ctx, commentOf(ctx.body))));
    return record(ctx, "ipoe", key);
  }),
  implement(localSubscribers.getIpoe, (ctx) => record(ctx, "ipoe", ctx.params.key)),
  implement(localSubscribers.replaceIpoe, async (ctx) => {
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
  }),
  implement(localSubscribers.removeIpoe, async (ctx) => commitResult(ctx.params.key, committed(ctx, await ctx.appliance.stub.config().deleteItem(LOCAL_LISTS.ipoe, ctx.params.key, meta(ctx, ctx.query.comment))))),
  implement(localSubscribers.createPppoe, async (ctx) => {
    committed(ctx, await ctx.appliance.stub.config().putItem(LOCAL_LISTS.pppoe, ctx.body.username, lists.pppoe.children(ctx.body, "create"), "create", meta(ctx, commentOf(ctx.body))));
    return record(ctx, "pppoe", ctx.body.username);
  }),
  implement(localSubscribers.getPppoe, (ctx) => record(ctx, "pppoe", ctx.params.username)),
  implement(localSubscribers.replacePppoe, async (ctx) => {
    await mustExist(ctx, "pppoe", ctx.params.username);
    sameIdentity("username", ctx.body.username, ctx.params.username);
    committed(ctx, await ctx.appliance.stub.config().putItem(LOCAL_LISTS.pppoe, ctx.params.username, lists.pppoe.children(ctx.body, "replace"), "replace", meta(ctx, commentOf(ctx.body))));
    return record(ctx, "pppoe", ctx.params.username);
  }),
  implement(localSubscribers.removePppoe, async (ctx) =>
    commitResult(ctx.params.username, committed(ctx, await ctx.appliance.stub.config().deleteItem(LOCAL_LISTS.pppoe, ctx.params.username, meta(ctx, ctx.query.comment))))),
  implement(localSubscribers.session, async (ctx) => unwrap(await ctx.appliance.stub.dataPlane().localSession(ctx.params.kind, ctx.params.key)).session),
];
