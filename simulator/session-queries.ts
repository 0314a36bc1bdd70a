/**
 * Read side of the session table: the spec's SessionList (filters
 * AND-combined, string filters case-insensitive, newest first, `total`
 * before paging, limit default 100 clamped 1-500), SessionSummaryCounts
 * (from incremental counters, never a recount), session detail and live
 * rates. Filters compile onto the indexes the table and the pools keep
 * (session-filter.ts, username-match.ts); rows are built only for the
 * returned page.
 */
import type {
  AssignedPrefix,
  SessionDetail as WireSessionDetail,
  SessionList,
  SessionRates,
  SessionSummary,
  SessionSummaryCounts,
} from "../src/schemas/sessions.ts";
import { isoTime } from "./clock.ts";
import type { Hold } from "./local-subscribers.ts";
import type { Model } from "./model.ts";
import { pageWindow } from "./paging.ts";
import type { JsonText } from "./row-texts.ts";
import type { SessionStore } from "./sessions.ts";
import { ENCAPS, type Encap } from "./profile.ts";
import { formatIpv4, ipv4Range, ipv4TextRanges, parsePrefix, prefixesOverlap } from "./prefix.ts";
import { ipv6Text } from "./session-addresses.ts";
import { ENCAP_L2TP, ENCAP_PPPOE_LAC, formatMac } from "./subscribers.ts";
import { compileUsername, usernameMask, usernameTest } from "./username-match.ts";
import { ipv4Mask, ipv6Mask, ipv6TextRanges, selectSessions, type SessionFilter } from "./session-filter.ts";

/** Query of the sessions list (spec GET /api/v1/sessions). */
export interface SessionQuery {
  encap?: string | null | undefined;
  ip?: string | null | undefined;
  port?: number | null | undefined;
  type?: string | null | undefined;
  username?: string | null | undefined;
  vrf?: string | null | undefined;
  /** true = only walled-garden sessions; false or absent = no filter (spec: "true = only walled-garden sessions"). */
  walledGarden?: boolean | null | undefined;
  /** Exact MAC, lower case with colons (the contract normalises what was typed). */
  mac?: string | null | undefined;
  svlan?: number | null | undefined;
  /** The inner (C-)VLAN, as the session row names it. */
  vlan?: number | null | undefined;
  /** Exact plan name as the session shows it, any case. */
  plan?: string | null | undefined;
  offset?: number | null | undefined;
  limit?: number | null | undefined;
}

/**
 * Everything the model knows about one session: the wire SessionDetail without the source-VRF steering, which the data
 * plane adds.
 */
export type SessionDetail = Omit<WireSessionDetail, "steering">;

type Predicate = (slot: number) => boolean;

/** The sessions list. */
export function listSessions(m: Model, q: SessionQuery): SessionList {
  const { total, offset, slots } = sessionPage(m, q);
  return { total, offset, items: slots.map((slot) => summaryRow(m, slot)) };
}

/**
 * The sessions list as JSON text, from the rows the model keeps encoded (row-texts.ts): what the API answers, kept
 * while it stands (page-texts.ts).
 */
export function sessionListText(m: Model, q: SessionQuery): JsonText<SessionList> {
  // The query as it came (the contract's parse gives its fields in one order): a field added to SessionQuery keys
  // its own pages with no list here to keep up; two spellings of one query are two entries of the same page.
  return m.pageTexts.get(JSON.stringify(q), m.nowMs, m.store.revision, () => renderSessionList(m, q));
}

function renderSessionList(m: Model, q: SessionQuery): JsonText<SessionList> {
  const { total, offset, slots } = sessionPage(m, q);
  const s = m.store;
  // One builder for the page, not a closure per row: most rows are kept encoded and never built.
  const build = (slot: number) => summaryRow(m, slot);
  const rows = slots.map((slot) => m.rowTexts.text(slot, s.id[slot] ?? 0, uptimeOf(m, slot), build));
  const head = `{"total":${total},"offset":${offset},"items":[`;
  if (rows.length === 0) return `${head}]}`;
  // One join makes the whole answer one flat string: a template around the join would be a rope, which the object
  // call's serialisation flattens into a second copy of the page (a quarter of a 100-row page's allocation).
  rows[0] = head + rows[0]!;
  rows[rows.length - 1] += "]}";
  return rows.join(",");
}

/** The slots of one page of the sessions list, and the count before paging. */
function sessionPage(m: Model, q: SessionQuery): { total: number; offset: number; slots: number[] } {
  const { offset, limit } = pageWindow(q.offset, q.limit, 100, 500);
  const filter = compile(m, q);
  if (filter === false) return { total: 0, offset, slots: [] };
  return { ...selectSessions(m, filter, offset, limit), offset };
}

/** Whole seconds since the session came up. */
const uptimeOf = (m: Model, slot: number): number =>
  Math.max(0, Math.round((m.nowMs - (m.store.upMs[slot] ?? m.nowMs)) / 1000));

/** The summary counts, from the incremental counters. */
export function summarise(m: Model): SessionSummaryCounts {
  const s = m.store;
  const byEncap = {
    ipoe: s.byEncap[0] ?? 0,
    "pppoe-local": s.byEncap[1] ?? 0,
    "pppoe-lac": s.byEncap[2] ?? 0,
    l2tp: s.byEncap[3] ?? 0,
  };
  const byVrf: Record<string, number> = {};
  m.vrfNames.forEach((name, i) => (byVrf[name] = s.byVrf[i] ?? 0));
  return {
    total: s.liveCount,
    byType: { ipoe: byEncap.ipoe, ppp: byEncap["pppoe-local"] + byEncap["pppoe-lac"] + byEncap.l2tp },
    byEncap,
    byPort: m.profile.ports.map((p, i) => ({ portId: p.portId, label: p.label, count: s.byPort[i] ?? 0 })),
    byVrf,
    walledGarden: s.walledGardenCount,
  };
}

/** One session's row. */
export function summaryRow(m: Model, slot: number): SessionSummary {
  const s = m.store;
  const encap = ENCAPS[s.encap[slot] ?? 0] ?? "ipoe";
  const port = s.port[slot] ?? -1;
  return {
    id: s.id[slot] ?? 0,
    type: encap === "ipoe" ? "ipoe" : "ppp",
    encap,
    username: m.usernameOf(slot),
    ipv4: formatIpv4(s.v4Addr[slot] ?? 0),
    // The spec's SessionSummary.ipv6 is not nullable: none reads as an empty string.
    ipv6: ipv6Text(m, slot) ?? "",
    vrf: m.vrfNames[s.vrf[slot] ?? 0] ?? "default",
    mac: macOf(m, slot),
    svlan: s.svlan[slot] ?? 0,
    vlan: s.cvlan[slot] ?? 0,
    plan: planName(m, slot),
    walledGarden: s.walledGarden[slot] === 1,
    uptimeSeconds: uptimeOf(m, slot),
    portId: port >= 0 ? (m.profile.ports[port]?.portId ?? null) : null,
  };
}

/** A slot's byte and packet counters through sub-step `tick`. */
export function countersOf(s: SessionStore, slot: number, tick: number): WireSessionDetail["counters"] {
  return {
    rxBytes: Math.round(s.rxBytesAt(slot, tick)),
    txBytes: Math.round(s.txBytesAt(slot, tick)),
    // Counted as the bytes are, from the packet rates the traffic draws with them (traffic.ts).
    rxPackets: Math.round(s.rxPacketsAt(slot, tick)),
    txPackets: Math.round(s.txPacketsAt(slot, tick)),
  };
}

/** Current rates of a slot. */
export function ratesOf(m: Model, slot: number): SessionRates {
  const s = m.store;
  const rx = s.rxBps[slot] ?? 0;
  const tx = s.txBps[slot] ?? 0;
  return {
    sessionId: s.id[slot] ?? 0,
    timestamp: isoTime(m.nowMs),
    rxBps: Math.round(rx),
    txBps: Math.round(tx),
    rxPps: s.rxPps[slot] ?? 0,
    txPps: s.txPps[slot] ?? 0,
  };
}

/** Everything known about one slot. */
export function detailOf(m: Model, slot: number): SessionDetail {
  const s = m.store;
  const row = summaryRow(m, slot);
  const port = s.port[slot] ?? -1;
  const server = s.aaa[slot] ?? -1;
  const v4 = m.pools[s.v4Pool[slot] ?? 0];
  const v6 = (poolIdx: number, subnet: number, ord: number): AssignedPrefix | null => {
    const pool = poolIdx >= 0 ? m.pools[poolIdx] : undefined;
    if (!pool) return null;
    return { prefix: pool.text(subnet, ord), pool: pool.name, subnet: pool.config.subnets[subnet]?.prefix ?? "" };
  };
  const plan = m.profile.plans[s.plan[slot] ?? 0];
  const binding = s.cgn[slot] ?? -1;
  // A local subscriber (negative sub): its realm, rates and addresses outside the pools come from its configuration.
  const local = (s.sub[slot] ?? 0) < 0 ? m.locals.ofSub(s.sub[slot] ?? 0) : undefined;
  const outside = (hold: Hold | undefined) =>
    hold?.kind === "outside" ? { prefix: hold.text, pool: null, subnet: null } : null;
  return {
    ...row,
    state: "up",
    startedUtc: isoTime(s.upMs[slot] ?? m.nowMs),
    portLabel: port >= 0 ? (m.profile.ports[port]?.label ?? null) : null,
    realm: local ? local.realm : (m.profile.identities.realms[s.realm[slot] ?? 0]?.domain ?? ""),
    aaa: server >= 0 ? { method: "radius", server: m.radius.label(server) } : { method: "local", server: null },
    addresses: {
      ipv4: {
        address: row.ipv4,
        pool: v4?.name ?? null,
        subnet: v4 ? (v4.config.subnets[s.v4Subnet[slot] ?? 0]?.prefix ?? null) : null,
        cgnTranslated: v4?.cgnTranslated ?? binding >= 0,
        learned: s.encap[slot] === ENCAP_PPPOE_LAC,
      },
      ipv6Wan: v6(s.wanPool[slot] ?? -1, s.wanSubnet[slot] ?? 0, s.wanOrd[slot] ?? 0) ?? outside(local?.wan),
      ipv6Pd: v6(s.pdPool[slot] ?? -1, s.pdSubnet[slot] ?? 0, s.pdOrd[slot] ?? 0) ?? outside(local?.pd),
    },
    // The lease's expiry (leases.ts), not the next renewal: what a DHCP server's binding table shows.
    leaseExpiresUtc: (s.leaseEnd[slot] ?? 0) > 0 ? isoTime((s.leaseEnd[slot] ?? 0) * 1000) : null,
    planRates: local
      ? { downloadKbps: local.downBps / 1000, uploadKbps: local.upBps / 1000 }
      : { downloadKbps: plan?.downloadKbps ?? 0, uploadKbps: plan?.uploadKbps ?? 0 },
    cgn: binding >= 0 ? m.cgn.row(binding, m.usernameOf) : null,
    counters: countersOf(s, slot, m.tick),
    rates: ratesOf(m, slot),
    capture: m.captures.get(row.id),
  };
}

/** Live slots matching a query's filters (paging ignored), newest first. */
export function matchingSlots(m: Model, q: SessionQuery): number[] {
  const filter = compile(m, q);
  return filter === false ? [] : selectSessions(m, filter, 0, Number.POSITIVE_INFINITY).slots;
}

/**
 * The subscriber's MAC as this box sees it: none on an LNS (the spec's `mac` is not nullable: empty), which hears PPP
 * through a tunnel.
 */
export function macOf(m: Model, slot: number): string {
  if (m.store.encap[slot] === ENCAP_L2TP) return "";
  const sub = m.store.sub[slot] ?? 0;
  const local = sub < 0 ? m.locals.ofSub(sub) : undefined;
  if (local) return formatMac(local.macHi, local.macLo);
  const mac = m.subscribers.mac(sub);
  return formatMac(mac.hi, mac.lo);
}

/**
 * The plan a session shows: the profile plan's name; a local subscriber's configured plan, or `local` when it has none.
 */
function planName(m: Model, slot: number): string {
  const sub = m.store.sub[slot] ?? 0;
  if (sub < 0) return m.locals.ofSub(sub)?.config.plan ?? "local";
  return m.profile.plans[m.store.plan[slot] ?? 0]?.name ?? "";
}

/**
 * Compiles the filters onto the table's indexes; false = a filter nothing
 * can match (an unknown encapsulation, type, port or VRF, an address that is
 * not one).
 */
function compile(m: Model, q: SessionQuery): SessionFilter | false {
  const s = m.store;
  const filter: SessionFilter = { all: [], none: [], tests: [] };
  if (q.encap !== undefined && q.encap !== null && q.encap !== "") {
    const bits = s.encapBits[ENCAPS.indexOf(q.encap.toLowerCase() as Encap)];
    if (bits === undefined) return false;
    filter.all.push(bits);
  }
  if (q.type !== undefined && q.type !== null && q.type !== "") {
    const t = q.type.toLowerCase();
    const ipoe = s.encapBits[0] as Int32Array;
    if (t === "ipoe") filter.all.push(ipoe);
    else if (t === "ppp") filter.none.push(ipoe);
    else return false;
  }
  if (q.port !== undefined && q.port !== null) {
    // LNS-terminated sessions carry port -1, so they are in no port's bitset.
    const bits = s.portBits[m.profile.ports.findIndex((x) => x.portId === q.port)];
    if (bits === undefined) return false;
    filter.all.push(bits);
  }
  if (q.vrf !== undefined && q.vrf !== null && q.vrf !== "") {
    const name = q.vrf.toLowerCase();
    const bits = s.vrfBits[m.vrfNames.findIndex((x) => x.toLowerCase() === name)];
    if (bits === undefined) return false;
    filter.all.push(bits);
  }
  if (q.walledGarden === true) filter.all.push(s.walledGardenBits);
  if (q.ip !== undefined && q.ip !== null && q.ip.trim() !== "") {
    const ip = ipFilter(m, q.ip.trim().toLowerCase());
    if (ip === false) return false;
    if (ip instanceof Int32Array) filter.all.push(ip);
    else filter.tests.push(ip);
  }
  // No index covers these: a test of the sessions the other filters leave (alone, one pass over the table).
  if (q.svlan !== undefined && q.svlan !== null) {
    const svlan = q.svlan;
    filter.tests.push((slot) => s.svlan[slot] === svlan);
  }
  if (q.vlan !== undefined && q.vlan !== null) {
    const vlan = q.vlan;
    filter.tests.push((slot) => s.cvlan[slot] === vlan);
  }
  if (q.plan !== undefined && q.plan !== null && q.plan !== "") {
    const plan = q.plan.toLowerCase();
    filter.tests.push((slot) => planName(m, slot).toLowerCase() === plan);
  }
  if (q.mac !== undefined && q.mac !== null && q.mac !== "") {
    const mac = q.mac.toLowerCase();
    filter.tests.push((slot) => macOf(m, slot) === mac);
  }
  if (q.username !== undefined && q.username !== null && q.username !== "") {
    const needle = q.username.toLowerCase();
    const match = compileUsername(m, needle);
    if (match === null) filter.tests.push((slot) => m.usernameOf(slot).toLowerCase().includes(needle));
    // Alone it is a pass over the table; after other filters, a test of the few sessions they leave.
    else if (filter.all.length === 0 && filter.none.length === 0) filter.all.push(usernameMask(m, match));
    else filter.tests.push(usernameTest(m, match));
  }
  return filter;
}

/**
 * The `ip` filter on the pools' holder tables where the text is a prefix,
 * an address or an IPv4 or IPv6 text that turns into address ranges; else
 * a test per candidate session (`ipPredicate`).
 */
function ipFilter(m: Model, text: string): Int32Array | Predicate | false {
  const test = ipPredicate(m, text);
  if (test === false) return false;
  const prefix = parsePrefix(text, false);
  if (prefix !== null && prefix.family === 4) return ipv4Mask(m, [ipv4Range(prefix)], test);
  if (prefix !== null) return ipv6Mask(m, (pool, si) => nonNull(pool.ordinalRange(si, prefix)), test);
  const v4 = ipv4TextRanges(text);
  if (v4 !== null) return ipv4Mask(m, v4, test);
  const v6 = ipv6TextRanges(text);
  if (v6 === null) return test;
  return ipv6Mask(
    m,
    (pool, si) => v6.ranges.flatMap((r) => nonNull(pool.ordinalsStartingIn(si, r.first, r.last))),
    test,
    v6.exact ? null : test,
  );
}

const nonNull = (range: [number, number] | null): [number, number][] => (range === null ? [] : [range]);

/**
 * The `ip` filter: "prefix match on IPv4 or IPv6 WAN address". A CIDR or a
 * bare address matches by containment; other text matches as a textual
 * prefix of the address (IPv4: turned into integer ranges first).
 * The IPv6 side uses the displayed `ipv6` (WAN, else the delegated prefix).
 */
function ipPredicate(m: Model, text: string): Predicate | false {
  const s = m.store;
  const prefix = parsePrefix(text, false);
  if (prefix !== null && prefix.family === 4) {
    const { first, last } = ipv4Range(prefix);
    return (slot) => {
      const a = s.v4Addr[slot] ?? 0;
      return a >= first && a <= last;
    };
  }
  if (prefix !== null) {
    // Per (pool, subnet), the ordinal range of blocks overlapping the query: one integer compare per session.
    const ranges = m.pools.map((pool) => pool.subnets.map((_, si) => pool.ordinalRange(si, prefix)));
    const inRange = (pool: number, subnet: number, ord: number): boolean => {
      const r = ranges[pool]?.[subnet];
      return r !== null && r !== undefined && ord >= r[0] && ord <= r[1];
    };
    // A local subscriber's IPv6 may lie outside every pool: its text is parsed (few sessions take this path).
    const local = (slot: number): boolean => {
      const text = ipv6Text(m, slot);
      const p = text === null ? null : parsePrefix(text, false);
      return p !== null && prefixesOverlap(prefix, p);
    };
    return (slot) => {
      const wan = s.wanPool[slot] ?? -1;
      if (wan >= 0) return inRange(wan, s.wanSubnet[slot] ?? 0, s.wanOrd[slot] ?? 0);
      if ((s.sub[slot] ?? 0) < 0) return local(slot);
      const pd = s.pdPool[slot] ?? -1;
      return pd >= 0 && inRange(pd, s.pdSubnet[slot] ?? 0, s.pdOrd[slot] ?? 0);
    };
  }
  const v4 = ipv4TextRanges(text);
  if (v4 !== null) {
    return (slot) => {
      const a = s.v4Addr[slot] ?? 0;
      for (const r of v4) if (a >= r.first && a <= r.last) return true;
      return false;
    };
  }
  // Partial IPv6 text: formats each dual-stack row (the one slow path; a CIDR is the fast way).
  if (!/^[0-9a-f:]+$/.test(text)) return false;
  return (slot) => (ipv6Text(m, slot) ?? "").startsWith(text);
}
