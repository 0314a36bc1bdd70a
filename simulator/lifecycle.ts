/**
 * Session bring-up and teardown. A session comes up only when every stage
 * succeeds, in the order a BNG runs them: capacity (licence), AAA (local or
 * RADIUS), IPv4 address (DHCP OFFER / IPCP), IPv6 WAN and PD for dual-stack
 * subscribers, then a CGN binding for a translated private address. A failed
 * stage hands back everything the earlier stages took.
 */
import { ENCAPS } from "./profile.ts";
import type { FieldsOf } from "./log-catalogue.ts";
import { formatIpv4, parseIpv4 } from "./prefix.ts";
import type { BindingRefusal } from "./cgn.ts";
import { FAMILY_PD, FAMILY_V4, FAMILY_WAN } from "./families.ts";
import type { Model } from "./model.ts";
import { ipv6Text, lacLearnedIpv4 } from "./session-addresses.ts";
import type { AddressPool } from "./pools.ts";
import { accountStart, accountStop } from "./accounting.ts";
import { grantLease } from "./leases.ts";
import type { DownCause } from "./lifetimes.ts";
import { NO_LEASE } from "./sessions.ts";
import { ENCAP_IPOE, ENCAP_L2TP, ENCAP_PPPOE_LAC, type SubscriberAttrs } from "./subscribers.ts";
import { askServer } from "./external-aaa.ts";
import type { AcceptedAttributes } from "./radius-records.ts";

/** Why a setup attempt failed. */
export type SetupFailure =
  | "licence-limit"
  | "access-reject"
  | "timeout"
  | "no-live-server"
  | "pool-exhausted"
  /** The subscriber's VRF has no IPv4 pool (configuration removed it). */
  | "no-pool"
  | "negotiation-abandoned"
  | `cgn-${BindingRefusal}`
  /**
   * Local subscribers: a configured block another holder keeps, an address the pools refuse, no such port, no room for
   * the VRF.
   */
  | "address-in-use"
  | "address-refused"
  | "unknown-port"
  | "no-vrf"
  /** L2TP: the session's LNS (or LAC) peer does not answer the tunnel handshake. */
  | "l2tp-peer-unreachable"
  /** A real server's Access-Accept named a rate plan (Alc-SLA-Prof-Str) the appliance does not have. */
  | "unknown-plan";

/**
 * The blocks a setup holds until it commits or fails, by family (IPv4, WAN,
 * PD): one record reused by every setup instead of a list per attempt, since
 * bring-up runs a hundred thousand of them per appliance and a setup never
 * starts another before it ends.
 */
const held = {
  pools: [null, null, null] as (AddressPool | null)[],
  subnets: new Int32Array(3),
  ordinals: new Int32Array(3),
};

/** Forgets the blocks of the last setup (committed or handed back). */
function clearHeld(): void {
  const pools = held.pools;
  pools[0] = null;
  pools[1] = null;
  pools[2] = null;
}

/** Hands back what a failed setup held and counts (and within the budget logs) the failure. */
function failSetup(
  m: Model,
  sub: number,
  realm: number,
  encap: number,
  reason: SetupFailure,
): { ok: false; reason: SetupFailure } {
  for (let f = 0; f < 3; f++) {
    const pool = held.pools[f];
    if (pool) pool.withdraw(held.subnets[f] ?? 0, held.ordinals[f] ?? 0);
  }
  noteFailure(m, m.subscribers.username(sub, realm), encap, reason);
  return { ok: false, reason };
}

/**
 * Tries to bring subscriber `sub` online; on success the session is live and counted. With real RADIUS servers
 * the subscriber is asked for and waits (`pending`): its answer brings it up at a later sub-step (aaa-answers.ts).
 */
export function setupSession(
  m: Model,
  sub: number,
): { ok: true; slot: number } | { ok: false; reason: SetupFailure } | { ok: "pending" } {
  const a = m.subscribers.describe(sub, m.scratch);
  const realm = a.realm;
  clearHeld();
  if (m.store.full) return failSetup(m, sub, realm, a.encap, "licence-limit");
  // An LNS hears nothing from the subscribers of a LAC that is down: they are back with it (l2tp.ts).
  if (a.encap === ENCAP_L2TP && m.l2tp.admit(m, a.encap, realm, sub) === "lac-down") {
    m.park(sub);
    return { ok: false, reason: "l2tp-peer-unreachable" };
  }

  let server = -1;
  if (!a.local) {
    if (m.radius.external) return askServer(m, sub, a) ? { ok: "pending" } : { ok: false, reason: "timeout" };
    const auth = m.radius.authenticate(m.rng, m.nowMs);
    if (!auth.ok) {
      logAaaRefusal(m, m.subscribers.username(sub, realm), auth.reason, auth.server);
      return failSetup(m, sub, realm, a.encap, auth.reason);
    }
    server = auth.server;
  }
  return bringUp(m, sub, a, server, m.nextSessionId, null);
}

/** A real server's refusal of a subscriber (or no answer): counted and logged as the simulated pool's. */
export function noteAaaRefusal(
  m: Model,
  sub: number,
  a: SubscriberAttrs,
  reason: "access-reject" | "timeout" | "no-live-server",
  server: number,
): void {
  clearHeld();
  logAaaRefusal(m, m.subscribers.username(sub, a.realm), reason, server);
  failSetup(m, sub, a.realm, a.encap, reason);
}

/**
 * The stages after AAA, as session `id`: the L2TP tunnel, the addresses (the pool an Access-Accept named, the
 * address it framed), the CGN binding, then the session is committed with the plan the Accept set.
 */
export function bringUp(
  m: Model,
  sub: number,
  a: SubscriberAttrs,
  server: number,
  id: number,
  accepted: AcceptedAttributes | null,
): { ok: true; slot: number } | { ok: false; reason: SetupFailure } {
  const realm = a.realm;
  clearHeld();
  // A wait for a real server's answer may have let the licence fill meanwhile.
  if (accepted && m.store.full) return failSetup(m, sub, realm, a.encap, "licence-limit");
  const plan = accepted?.plan == null ? a.plan : m.profile.plans.findIndex((p) => p.name === accepted.plan);
  if (plan < 0) return failSetup(m, sub, realm, a.encap, "unknown-plan");
  if (a.encap !== ENCAP_L2TP && m.l2tp.admit(m, a.encap, a.realm, sub) !== "ok") {
    return failSetup(m, sub, realm, a.encap, "l2tp-peer-unreachable");
  }

  // IPv4, then the IPv6 WAN and PD blocks the subscriber wants, in that order (the random stream's). A LAC takes
  // none: the LNS assigns them in IPCP and IPv6CP/DHCPv6 through the tunnel, and the LAC learns only the IPv4
  // address it snoops from IPCP (lacLearnedIpv4).
  const lac = a.encap === ENCAP_PPPOE_LAC;
  for (let family = FAMILY_V4; family <= FAMILY_PD && !lac; family++) {
    if (family === FAMILY_WAN ? !a.wantsWan : family === FAMILY_PD ? !a.wantsPd : false) continue;
    if (family === FAMILY_V4 && accepted && (accepted.framedPool !== null || accepted.framedIpAddress !== null)) {
      const framed = framedIpv4(m, a, accepted);
      if (!framed.ok) return failSetup(m, sub, realm, a.encap, framed.reason);
      held.pools[family] = framed.pool;
      held.subnets[family] = framed.subnet;
      held.ordinals[family] = framed.ordinal;
      continue;
    }
    const pool = m.poolFor(a.vrf, family, a.poolPick);
    if (pool === null) {
      // IPv6 is given when the VRF has a pool for it; without an IPv4 pool the session cannot come up.
      if (family === FAMILY_V4) return failSetup(m, sub, realm, a.encap, "no-pool");
      continue;
    }
    const got = offer(m, pool, family === FAMILY_V4 && a.encap === ENCAP_IPOE);
    if (got === "exhausted") return failSetup(m, sub, realm, a.encap, "pool-exhausted");
    if (got === "abandoned") return failSetup(m, sub, realm, a.encap, "negotiation-abandoned");
    held.pools[family] = pool;
    held.subnets[family] = got.subnet;
    held.ordinals[family] = got.ordinal;
  }
  const v4 = held.pools[FAMILY_V4];
  if (!v4 && !lac) return failSetup(m, sub, realm, a.encap, "pool-exhausted");
  const v4Subnet = held.subnets[FAMILY_V4] ?? 0;
  const v4Ord = held.ordinals[FAMILY_V4] ?? 0;

  const slot = m.store.takeSlot();
  const addr = v4 ? v4.ipv4(v4Subnet, v4Ord) : lacLearnedIpv4(a.realm, sub);
  let binding = -1;
  // Who holds the slot is known before its CGN binding: the first block's compliance record names the subscriber
  // (Model.usernameOf).
  m.store.sub[slot] = sub;
  m.store.realm[slot] = a.realm;
  if (v4?.cgnTranslated) {
    const group = m.cgn.groupFor(a.vrf, addr);
    if (group >= 0) {
      const created = m.cgn.create(m.nowMs, group, a.vrf, addr, id, slot, false);
      if (!created.ok) {
        m.store.returnSlot(slot);
        return failSetup(m, sub, realm, a.encap, `cgn-${created.reason}`);
      }
      binding = created.binding;
    }
  }

  const s = m.store;
  s.sub[slot] = sub;
  s.encap[slot] = a.encap;
  s.port[slot] = a.port;
  // An LNS sees the subscriber only through the tunnel: no access VLANs (and no MAC: session-queries.ts macOf).
  const lns = a.encap === ENCAP_L2TP;
  s.svlan[slot] = lns ? 0 : a.svlan;
  s.cvlan[slot] = lns ? 0 : a.cvlan;
  s.plan[slot] = plan;
  s.vrf[slot] = a.vrf;
  s.realm[slot] = a.realm;
  s.walledGarden[slot] = a.walledGarden ? 1 : 0;
  s.aaa[slot] = server;
  s.v4Pool[slot] = v4 ? v4.index : -1;
  s.v4Subnet[slot] = v4Subnet;
  s.v4Ord[slot] = v4Ord;
  s.v4Addr[slot] = addr;
  s.wanPool[slot] = -1;
  s.pdPool[slot] = -1;
  for (let family = FAMILY_V4; family <= FAMILY_PD; family++) {
    const pool = held.pools[family];
    if (!pool) continue;
    const subnet = held.subnets[family] ?? 0;
    const ordinal = held.ordinals[family] ?? 0;
    pool.commit(subnet, ordinal, slot);
    if (pool.config.family === "ipv6-wan") {
      s.wanPool[slot] = pool.index;
      s.wanSubnet[slot] = subnet;
      s.wanOrd[slot] = ordinal;
    } else if (pool.config.family === "ipv6-pd") {
      s.pdPool[slot] = pool.index;
      s.pdSubnet[slot] = subnet;
      s.pdOrd[slot] = ordinal;
    }
  }
  s.cgn[slot] = binding;
  s.upMs[slot] = m.nowMs;
  s.activity[slot] = a.activity;
  s.activate(slot, id);
  // PPP sessions have no lease; an IPoE client's is granted now (leases.ts).
  if (a.encap === ENCAP_IPOE) grantLease(m, slot);
  else s.setLease(slot, NO_LEASE);
  m.lifetimes.begin(m, slot);
  accountStart(m, slot);
  m.l2tp.attach(m, slot);
  m.takeOffline(sub);
  m.slotOfSub[sub] = slot;
  clearHeld();
  if (countSessionUp(m, id)) {
    m.logs.emit(m.nowMs, "session.up", {
      sessionId: id,
      username: m.subscribers.username(sub, realm),
      encap: ENCAPS[a.encap] ?? "ipoe",
      ipv4: formatIpv4(addr),
      ipv6: ipv6Text(m, slot),
      vrf: m.vrfNames[a.vrf] ?? "default",
      portId: a.port >= 0 ? (m.profile.ports[a.port]?.portId ?? null) : null,
      aaa: server >= 0 ? m.radius.label(server) : "local",
    });
  }
  return { ok: true, slot };
}

/**
 * Counts a session that has just come up (next id, the interval's ups, the
 * peak) and logs it within the per-step sampling budget; the log fields are
 * built only when the entry is written.
 */
export function recordSessionUp(m: Model, logFields: () => FieldsOf<"session.up">): void {
  if (countSessionUp(m, m.nextSessionId)) m.logs.emit(m.nowMs, "session.up", logFields());
}

/** Counts session `id`, just come up; true when it is to be logged (within the step's budget, counted as logged). */
function countSessionUp(m: Model, id: number): boolean {
  // An id a real server's answer brought up was taken when it was asked for (external-aaa.ts).
  m.nextSessionId = Math.max(m.nextSessionId, id + 1);
  m.upSinceSample++;
  m.tally.up++;
  m.sessionEvents.setups++;
  if (m.store.liveCount > m.peakSessions) m.peakSessions = m.store.liveCount;
  if (m.tally.loggedUp >= m.profile.logging.sessionEventsPerStep) return false;
  m.tally.loggedUp++;
  return true;
}

/**
 * Takes a session down and frees everything it held. `always` logs it outside the sampling budget (operator
 * actions). The subscriber dials again at once, or from `backMs` when its CPE is away until then.
 */
export function teardownSession(
  m: Model,
  slot: number,
  cause: DownCause | (string & {}),
  always = false,
  backMs = m.nowMs,
): void {
  const s = m.store;
  const id = s.id[slot] ?? 0;
  accountStop(m, slot, cause);
  if (m.captures.has(id)) m.captures.stop(m.nowMs, id, "session-down");
  const pools = m.pools;
  const sub = s.sub[slot] ?? 0;
  if (sub < 0) {
    // A local subscriber (negative sub): its claimed blocks stay claimed while it is configured.
    m.locals.release(m, slot, sub);
  } else {
    pools[s.v4Pool[slot] ?? 0]?.release(s.v4Subnet[slot] ?? 0, s.v4Ord[slot] ?? 0);
    if ((s.wanPool[slot] ?? -1) >= 0) pools[s.wanPool[slot] ?? 0]?.release(s.wanSubnet[slot] ?? 0, s.wanOrd[slot] ?? 0);
    if ((s.pdPool[slot] ?? -1) >= 0) pools[s.pdPool[slot] ?? 0]?.release(s.pdSubnet[slot] ?? 0, s.pdOrd[slot] ?? 0);
  }
  if ((s.cgn[slot] ?? -1) >= 0) m.cgn.release(m.nowMs, s.cgn[slot] ?? 0);
  s.cgn[slot] = -1;
  const uptime = Math.round((m.nowMs - (s.upMs[slot] ?? m.nowMs)) / 1000);
  // Read before the slot is freed; the text is built only if the entry is logged.
  const username = always || m.tally.loggedDown < m.profile.logging.sessionEventsPerStep ? m.usernameOf(slot) : "";
  const encap = ENCAPS[s.encap[slot] ?? 0] ?? "ipoe";
  m.l2tp.detach(m, slot);
  s.deactivate(slot);
  if (sub >= 0) {
    m.putOffline(sub, backMs);
    m.slotOfSub[sub] = -1;
  }
  m.downSinceSample++;
  m.tally.down++;
  m.sessionEvents.teardowns++;
  if (always || m.tally.loggedDown < m.profile.logging.sessionEventsPerStep) {
    m.tally.loggedDown++;
    m.logs.emit(m.nowMs, "session.down", { sessionId: id, username, encap, cause, uptimeSeconds: uptime });
  }
}

/** One DHCP/IPCP exchange: an offer, possibly declined once (IPoE) or abandoned. */
export function offer(
  m: Model,
  pool: AddressPool,
  dhcp: boolean,
): { subnet: number; ordinal: number } | "exhausted" | "abandoned" {
  const neg = m.profile.negotiation;
  let got = pool.offer();
  if (got.ok && dhcp && m.rng.chance(neg.declineProbability)) {
    // RFC 2131 §3.1.5: the client found the address in use and sent DHCPDECLINE; the server offers another.
    pool.decline(got.subnet, got.ordinal, m.nowMs);
    m.logs.emit(m.nowMs, "pool.decline", {
      pool: pool.name,
      prefix: pool.text(got.subnet, got.ordinal),
      quarantineSeconds: 3600,
    });
    got = pool.offer();
  }
  if (!got.ok) {
    if (m.nowMs - pool.lastExhaustedLogMs >= 60_000) {
      pool.lastExhaustedLogMs = m.nowMs;
      m.logs.emit(m.nowMs, "pool.exhausted", {
        pool: pool.name,
        family: pool.config.family,
        vrf: pool.config.vrf ?? "default",
        allocationFailures: pool.allocationFailures,
      });
    }
    return "exhausted";
  }
  if (m.rng.chance(neg.abandonProbability)) {
    pool.abandon(got.subnet, got.ordinal, m.nowMs, neg.offerHoldSeconds);
    return "abandoned";
  }
  return { subnet: got.subnet, ordinal: got.ordinal };
}

/** Counts a failed setup and logs it within the sampling budget. */
export function noteFailure(m: Model, username: string, encap: number, reason: SetupFailure): void {
  m.tally.failed++;
  m.sessionEvents.failures++;
  if (m.tally.loggedFailed < m.profile.logging.sessionEventsPerStep) {
    m.tally.loggedFailed++;
    m.logs.emit(m.nowMs, "session.setup-failed", { username, encap: ENCAPS[encap] ?? "ipoe", reason });
  }
}

function logAaaRefusal(
  m: Model,
  username: string,
  reason: "access-reject" | "timeout" | "no-live-server",
  server: number,
): void {
  // Shares the failure budget: with every server dead, each attempt is refused and would flood the ring.
  if (m.tally.loggedFailed < m.profile.logging.sessionEventsPerStep) {
    m.logs.emit(m.nowMs, "aaa.reject", { username, server: server >= 0 ? m.radius.label(server) : null, reason });
  }
}

/**
 * The IPv4 block an Access-Accept framed: its Framed-IP-Address (RFC 2865 §5.8) in the pool that holds it (the
 * Framed-Pool it named, else the subscriber's VRF's), or an offer from the Framed-Pool it named (RFC 2869 §5.18).
 */
function framedIpv4(
  m: Model,
  a: SubscriberAttrs,
  accepted: AcceptedAttributes,
): { ok: true; pool: AddressPool; subnet: number; ordinal: number } | { ok: false; reason: SetupFailure } {
  const named =
    accepted.framedPool === null
      ? null
      : m.pools.find((p) => p.name === accepted.framedPool && p.config.family === "ipv4");
  if (named === undefined) return { ok: false, reason: "no-pool" };
  const candidates = named ? [named] : (m.poolTable[a.vrf * 3 + FAMILY_V4] ?? []).map((i) => m.pools[i]!);
  if (accepted.framedIpAddress === null) {
    const got = offer(m, named!, a.encap === ENCAP_IPOE);
    if (got === "exhausted") return { ok: false, reason: "pool-exhausted" };
    if (got === "abandoned") return { ok: false, reason: "negotiation-abandoned" };
    return { ok: true, pool: named!, ...got };
  }
  const address = parseIpv4(accepted.framedIpAddress);
  for (const pool of candidates) {
    const got = address === null ? null : pool.offerAddress(address);
    if (got === null || got === "outside") continue;
    if (got === "taken") return { ok: false, reason: "address-in-use" };
    return { ok: true, pool, ...got };
  }
  return { ok: false, reason: "address-refused" };
}
