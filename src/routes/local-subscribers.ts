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
import { ipoeKey, ipoeLineOf, ipoeUsername } from "../config/local-subscribers.ts";
import { unwrap } from "../http/refusal.ts";
import { committed, readAt } from "../http/config-version.ts";
import { inWorker } from "../http/route.ts";
import { commitResult } from "../schemas/commit.ts";
import { slicePage } from "../schemas/common.ts";
import {
  localSubscriberLists,
  localSubscribers,
  type Kind,
  type LocalIpoeSubscriber,
  type LocalPppoeSubscriber,
  type LocalSubscriberRow,
} from "../schemas/local-subscribers.ts";
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
  return {
    kind: "ipoe",
    key: item.key,
    username: ipoeUsername(Number(values.port), Number(values.sVlan), Number(values.vlan), option82),
    ...values,
    sessionId: sessionOf(sessions, "ipoe", item.key),
  };
}

function pppoeRecord(item: ConfigItem, sessions: Sessions): PppoeRecord {
  return {
    kind: "pppoe",
    key: item.key,
    username: item.key,
    passwordSet: ConfigList.secretSet(item, "password"),
    ...lists.pppoe.rowValues(item),
    sessionId: sessionOf(sessions, "pppoe", item.key),
  };
}

const text = (value: unknown): string | null => (typeof value === "string" ? value : null);
const line = (record: SubscriberRecord, part: "port" | "sVlan" | "vlan"): number | null =>
  record.kind === "ipoe" ? Number(record[part]) : null;

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

const RECORDS = { ipoe: ipoeRecord, pppoe: pppoeRecord };

/** A record as a port read it (the item and the sessions, at a version), with that version as the ETag. */
function recordOf<K extends Kind>(
  ctx: { responseHeaders: Headers },
  kind: K,
  read: { item: ConfigItem; sessions: Sessions; version: number },
): ReturnType<(typeof RECORDS)[K]> {
  readAt(ctx, read);
  // Each kind's own shape, so a route's schema sees an IPoE or a PPPoE record, not their union.
  return RECORDS[kind](read.item, read.sessions) as ReturnType<(typeof RECORDS)[K]>;
}

export const localSubscriberRoutes = [
  inWorker(localSubscribers.list, async (ctx) => {
    const { ipoe, pppoe, sessions } = readAt(ctx, await ctx.port.localSubscribers.list());
    const lines = ipoe
      .map((item) => ipoeRecord(item, sessions))
      .sort(
        (a, b) =>
          line(a, "port")! - line(b, "port")! ||
          line(a, "sVlan")! - line(b, "sVlan")! ||
          line(a, "vlan")! - line(b, "vlan")!,
      );
    const users = pppoe
      .map((item) => pppoeRecord(item, sessions))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const rows = [...(ctx.query.kind === "pppoe" ? [] : lines), ...(ctx.query.kind === "ipoe" ? [] : users)].map(row);
    return slicePage(rows, ctx.query.offset, ctx.query.limit);
  }),
  inWorker(localSubscribers.createIpoe, async (ctx) => {
    const key = ipoeKey(Number(ctx.body.port), Number(ctx.body.sVlan), Number(ctx.body.vlan));
    return recordOf(
      ctx,
      "ipoe",
      committed(
        ctx,
        await ctx.port.localSubscribers.createIpoe(key, lists.ipoe.children(ctx.body, "create"), commentOf(ctx.body)),
      ),
    );
  }),
  inWorker(localSubscribers.getIpoe, async (ctx) =>
    recordOf(ctx, "ipoe", unwrap(await ctx.port.localSubscribers.getIpoe(ctx.params.key))),
  ),
  inWorker(localSubscribers.replaceIpoe, async (ctx) => {
    // The line comes from the key (the object refuses a key no subscriber has, and a body naming another line).
    const [port, sVlan, vlan] = ipoeLineOf(ctx.params.key) ?? [ctx.body.port, ctx.body.sVlan, ctx.body.vlan];
    const children = lists.ipoe.children({ ...ctx.body, port, sVlan, vlan }, "replace");
    const given = { port: ctx.body.port, sVlan: ctx.body.sVlan, vlan: ctx.body.vlan };
    return recordOf(
      ctx,
      "ipoe",
      committed(ctx, await ctx.port.localSubscribers.replaceIpoe(ctx.params.key, children, given, commentOf(ctx.body))),
    );
  }),
  inWorker(localSubscribers.removeIpoe, async (ctx) =>
    commitResult(
      ctx.params.key,
      committed(ctx, await ctx.port.localSubscribers.removeIpoe(ctx.params.key, ctx.query.comment ?? null)),
    ),
  ),
  inWorker(localSubscribers.createPppoe, async (ctx) =>
    recordOf(
      ctx,
      "pppoe",
      committed(
        ctx,
        await ctx.port.localSubscribers.createPppoe(
          ctx.body.username,
          lists.pppoe.children(ctx.body, "create"),
          commentOf(ctx.body),
        ),
      ),
    ),
  ),
  inWorker(localSubscribers.getPppoe, async (ctx) =>
    recordOf(ctx, "pppoe", unwrap(await ctx.port.localSubscribers.getPppoe(ctx.params.username))),
  ),
  inWorker(localSubscribers.replacePppoe, async (ctx) =>
    recordOf(
      ctx,
      "pppoe",
      committed(
        ctx,
        await ctx.port.localSubscribers.replacePppoe(
          ctx.params.username,
          lists.pppoe.children(ctx.body, "replace"),
          { username: ctx.body.username },
          commentOf(ctx.body),
        ),
      ),
    ),
  ),
  inWorker(localSubscribers.removePppoe, async (ctx) =>
    commitResult(
      ctx.params.username,
      committed(ctx, await ctx.port.localSubscribers.removePppoe(ctx.params.username, ctx.query.comment ?? null)),
    ),
  ),
  inWorker(
    localSubscribers.session,
    async (ctx) => unwrap(await ctx.port.localSubscribers.session(ctx.params.kind, ctx.params.key)).session,
  ),
];
