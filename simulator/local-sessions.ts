/**
 * Local subscribers' sessions: installing the configured table (a hot-apply)
 * and bringing each subscriber up through local AAA.
 *
 * Installing compares each subscriber with what is installed: an unchanged
 * one keeps its session; a removed or changed one is disconnected and gives
 * back every block it claimed; a new or changed one claims its static blocks
 * at once (disconnecting a dynamic session that holds one) and connects at
 * the next sub-step. A subscriber that cannot come up retries every minute,
 * as a CPE retries DHCP or PPPoE discovery.
 */
import { SUB_STEP_MS } from "./clock.ts";
import { grantLease } from "./leases.ts";
import { noteFailure, offer, recordSessionUp, teardownSession, type SetupFailure } from "./lifecycle.ts";
import {
  LocalTable,
  compareLocal,
  localId,
  makeEntry,
  type Hold,
  type LocalEntry,
  type LocalSubscriber,
} from "./local-subscribers.ts";
import { FAMILY_V4 } from "./families.ts";
import type { Model } from "./model.ts";
import { ipv6Text } from "./session-addresses.ts";
import { formatIpv4, parseIpv4, parsePrefix } from "./prefix.ts";
import { ENCAPS } from "./profile.ts";
import { NO_LEASE } from "./sessions.ts";
import { ENCAP_IPOE } from "./subscribers.ts";

/** How long a local subscriber that failed to come up waits before its next attempt. */
export const LOCAL_RETRY_MS = 60_000;
/** Encapsulation index of a local PPPoE session (`pppoe-local`). */
const ENCAP_PPPOE_LOCAL = 1;

/** What an installation changed. */
export interface LocalInstallReport {
  installed: number;
  added: number;
  changed: number;
  removed: number;
  /** Sessions disconnected: of removed and changed subscribers, and dynamic sessions holding a newly claimed block. */
  disconnected: number;
}

/** Installs the configured local subscribers (the whole table; duplicates of a kind and key: the last wins). */
export function installLocalSubscribers(m: Model, list: readonly LocalSubscriber[]): LocalInstallReport {
  const wanted = new Map<string, LocalSubscriber>();
  for (const c of list) wanted.set(localId(c.kind, c.key), structuredClone(c));
  const report: LocalInstallReport = { installed: wanted.size, added: 0, changed: 0, removed: 0, disconnected: 0 };
  const kept = new Map<string, LocalEntry>();
  for (const old of m.locals.entries) {
    const id = localId(old.config.kind, old.config.key);
    const next = wanted.get(id);
    if (next && JSON.stringify(next) === old.fingerprint) {
      kept.set(id, old);
      continue;
    }
    if (old.slot >= 0) {
      teardownSession(m, old.slot, next ? "local-subscriber-changed" : "local-subscriber-removed", true);
      report.disconnected++;
    }
    for (const hold of [old.v4, old.wan, old.pd]) unclaim(m, hold);
    if (next) report.changed++;
    else report.removed++;
  }
  const fresh: LocalEntry[] = [];
  const entries = [...wanted.values()].sort(compareLocal).map((c) => {
    const existing = kept.get(localId(c.kind, c.key));
    if (existing) return existing;
    const entry = makeEntry(m, m.locals.nextId++, c);
    fresh.push(entry);
    return entry;
  });
  report.added = fresh.length - report.changed;
  m.locals.replace(entries);
  for (const entry of fresh) report.disconnected += claimHolds(m, entry);
  if (report.added + report.changed + report.removed > 0) {
    m.logs.emit(m.nowMs, "aaa.local.table", {
      installed: report.installed,
      added: report.added,
      changed: report.changed,
      removed: report.removed,
      disconnected: report.disconnected,
    });
  }
  return report;
}

/** Brings up every offline local subscriber whose retry time has come (one sub-step's worth). */
export function connectLocalSubscribers(m: Model): void {
  for (const entry of m.locals.entries) {
    if (entry.slot < 0 && entry.retryAtMs <= m.nowMs) setupLocalSession(m, entry);
  }
}

function unclaim(m: Model, hold: Hold): void {
  if (hold.kind !== "pool" || !hold.claimed) return;
  m.pools[hold.pool]?.releaseStatic(hold.subnet, hold.ordinal);
  m.locals.forgetClaim(hold);
  hold.claimed = false;
}

/** Claims an entry's unclaimed pool blocks; returns the sessions disconnected to free them. */
export function claimHolds(m: Model, entry: LocalEntry): number {
  let disconnected = 0;
  for (const hold of [entry.v4, entry.wan, entry.pd]) {
    if (hold.kind !== "pool" || hold.claimed) continue;
    const pool = m.pools[hold.pool];
    const block = parsePrefix(hold.block);
    if (!pool || !block) continue;
    let claim = pool.claimStatic(block);
    if (!claim.ok && claim.reason === "committed") {
      // The block was handed out dynamically before it was configured: that session gives it up.
      teardownSession(m, claim.slot, "static-address-claimed", true);
      disconnected++;
      claim = pool.claimStatic(block);
    }
    if (!claim.ok) continue;
    hold.subnet = claim.subnet;
    hold.ordinal = claim.ordinal;
    hold.claimed = true;
    m.locals.noteClaim(entry, hold);
  }
  return disconnected;
}

/**
 * One bring-up: local AAA (no RADIUS request), the configured or a dynamic IPv4 address, IPv6 when configured, then
 * CGN.
 */
function setupLocalSession(m: Model, e: LocalEntry): boolean {
  const c = e.config;
  const encap = c.kind === "ipoe" ? ENCAP_IPOE : ENCAP_PPPOE_LOCAL;
  let offered: { pool: number; subnet: number; ordinal: number } | null = null;
  const fail = (reason: SetupFailure): false => {
    if (offered) m.pools[offered.pool]?.withdraw(offered.subnet, offered.ordinal);
    // Retries fall on sub-step boundaries, so the wait is exactly the retry interval.
    e.retryAtMs = m.nowMs + Math.ceil(LOCAL_RETRY_MS / SUB_STEP_MS) * SUB_STEP_MS;
    noteFailure(m, c.username, encap, reason);
    return false;
  };
  if (e.blocked) return fail(e.blocked);
  if (m.store.full) return fail("licence-limit");
  const holds = [e.v4, e.wan, e.pd];
  if (holds.some((h) => h.kind === "refused")) return fail("address-refused");
  claimHolds(m, e);
  if (holds.some((h) => h.kind === "pool" && !h.claimed)) return fail("address-in-use");

  let v4Pool = -1;
  let v4Subnet = 0;
  let v4Ord = 0;
  let addr: number;
  if (e.v4.kind === "dynamic") {
    const pool = m.poolFor(e.vrf, FAMILY_V4, e.poolPick);
    if (pool === null) return fail("no-pool");
    const got = offer(m, pool, encap === ENCAP_IPOE);
    if (got === "exhausted") return fail("pool-exhausted");
    if (got === "abandoned") return fail("negotiation-abandoned");
    offered = { pool: pool.index, subnet: got.subnet, ordinal: got.ordinal };
    [v4Pool, v4Subnet, v4Ord] = [pool.index, got.subnet, got.ordinal];
    addr = pool.ipv4(got.subnet, got.ordinal);
  } else if (e.v4.kind === "pool") {
    [v4Pool, v4Subnet, v4Ord] = [e.v4.pool, e.v4.subnet, e.v4.ordinal];
    addr = m.pools[v4Pool]?.ipv4(v4Subnet, v4Ord) ?? 0;
  } else {
    addr = e.v4.kind === "outside" ? (parseIpv4(e.v4.text) ?? 0) : 0;
  }

  const s = m.store;
  const slot = s.takeSlot();
  const id = m.nextSessionId;
  let binding = -1;
  // Who holds the slot is known before its CGN binding: the first block's compliance record names the subscriber
  // (Model.usernameOf).
  s.sub[slot] = LocalTable.subOf(e);
  s.realm[slot] = 0;
  const group = m.cgn.groupFor(e.vrf, addr);
  if (group >= 0) {
    const created = m.cgn.create(m.nowMs, group, e.vrf, addr, id, slot, false);
    if (!created.ok) {
      s.returnSlot(slot);
      return fail(`cgn-${created.reason}`);
    }
    binding = created.binding;
  }
  if (offered) m.pools[offered.pool]?.commit(offered.subnet, offered.ordinal, slot);

  s.sub[slot] = LocalTable.subOf(e);
  s.encap[slot] = encap;
  s.port[slot] = e.port;
  s.svlan[slot] = e.svlan;
  s.cvlan[slot] = e.cvlan;
  s.plan[slot] = Math.max(0, e.plan);
  s.vrf[slot] = e.vrf;
  s.realm[slot] = 0;
  s.walledGarden[slot] = 0;
  s.aaa[slot] = -1;
  s.v4Pool[slot] = v4Pool;
  s.v4Subnet[slot] = v4Subnet;
  s.v4Ord[slot] = v4Ord;
  s.v4Addr[slot] = addr;
  const poolHold = (h: Hold): [number, number, number] =>
    h.kind === "pool" ? [h.pool, h.subnet, h.ordinal] : [-1, 0, 0];
  [s.wanPool[slot], s.wanSubnet[slot], s.wanOrd[slot]] = poolHold(e.wan);
  [s.pdPool[slot], s.pdSubnet[slot], s.pdOrd[slot]] = poolHold(e.pd);
  s.cgn[slot] = binding;
  s.upMs[slot] = m.nowMs;
  s.activity[slot] = e.activity;
  s.activate(slot, id);
  if (encap === ENCAP_IPOE) grantLease(m, slot);
  else s.setLease(slot, NO_LEASE);
  e.slot = slot;
  recordSessionUp(m, () => ({
    sessionId: id,
    username: c.username,
    encap: ENCAPS[encap] ?? "ipoe",
    ipv4: formatIpv4(addr),
    ipv6: ipv6Text(m, slot),
    vrf: m.vrfNames[e.vrf] ?? "default",
    portId: m.profile.ports[e.port]?.portId ?? null,
    aaa: "local",
  }));
  return true;
}
