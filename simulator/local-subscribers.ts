/**
 * Locally defined subscribers: the appliance's own subscriber table, which
 * AAA answers without a RADIUS request. Each configured subscriber is a
 * member of the population outside the generated base: it is not picked by
 * arrivals but connects by itself (its CPE is always there), within a
 * sub-step of being installed and again after every teardown.
 *
 * Addresses: a configured address inside a pool of the subscriber's VRF is
 * that pool's block, claimed as a static allocation from installation to
 * removal (offline or not, as a static DHCP binding or Framed-IP-Address
 * would be); one outside every pool is used as configured; no IPv4 address
 * means a dynamic one from the VRF's pool at each bring-up. IPv6 WAN and PD
 * are given only when configured.
 *
 * This file holds the table (state, lookups, snapshot) and the placement
 * rules the configuration validator shares; local-sessions.ts brings the
 * sessions up and down.
 */
import type { HolderInfo } from "./pools.ts";
import type { ModelCore } from "./model-core.ts";
import { MAX_STATIC_OFFSET, type PoolConfig } from "./profile.ts";
import {
  familyBits,
  formatPrefix,
  parsePrefix,
  prefixContains,
  prefixesOverlap,
  prefixSpan,
  type Prefix,
} from "./prefix.ts";
import { cumulativeWeights, hash32, hashUnit, mix32, pickFromCumulative } from "./random.ts";

/** The two kinds of local subscriber: IPoE (keyed by its access line) and PPPoE (keyed by its username). */
export const LOCAL_KINDS = ["ipoe", "pppoe"] as const;
export type LocalKind = (typeof LOCAL_KINDS)[number];

/** One configured local subscriber, reduced to what shapes its session. */
export interface LocalSubscriber {
  kind: LocalKind;
  /** The configuration key: `port:sVlan:vlan` (IPoE) or the username (PPPoE). */
  key: string;
  /** The session's username. */
  username: string;
  /** VRF name; `default` = the global table. */
  vrf: string;
  /** IPv4 address; null = a dynamic address from the VRF's IPv4 pool. */
  framedIp: string | null;
  /** IPv6 WAN address; null = none. */
  framedIpv6: string | null;
  /** Delegated prefix as `address/length`; null = none. */
  ipv6Pd: string | null;
  /** Plan name of the profile; null = none. */
  plan: string | null;
  /** Shaped rates; 0 = the plan's. */
  downloadKbps: number;
  uploadKbps: number;
  /** The access line of an IPoE subscriber; null for PPPoE (derived from the username). */
  line: { portId: number; svlan: number; cvlan: number } | null;
}

/**
 * Where a configured address or prefix lands among the pools of its VRF. A
 * refusal names the pool (index) and what in it refuses: a delegated prefix
 * that is not one of its blocks, an exclude, a static allocation, or the
 * simulation's static offset limit.
 */
export type Placement =
  | { kind: "pool"; pool: number; block: Prefix }
  | { kind: "outside" }
  | { kind: "refused"; detail: string; pool: number; cause: "delegation" | "excluded" | "static" | "offset" };

const blockOf = (family: 4 | 6, address: bigint, length: number): Prefix => {
  const host = BigInt(familyBits(family) - length);
  return { family, base: (address >> host) << host, length };
};

function place(
  pools: readonly PoolConfig[],
  vrf: string,
  family: PoolConfig["family"],
  target: (pool: PoolConfig) => Prefix,
  exact: boolean,
): Placement {
  for (let i = 0; i < pools.length; i++) {
    const pool = pools[i] as PoolConfig;
    if (pool.family !== family || (pool.vrf ?? "default") !== vrf) continue;
    const block = target(pool);
    for (const s of pool.subnets) {
      const subnet = parsePrefix(s.prefix);
      if (subnet === null || !prefixesOverlap(subnet, block)) continue;
      if (exact && (block.length !== pool.delegationLength || !prefixContains(subnet, block))) {
        return {
          kind: "refused",
          pool: i,
          cause: "delegation",
          detail:
            `overlaps pool '${pool.name}' (${s.prefix}) but is not one of its ` +
            `/${pool.delegationLength} delegations`,
        };
      }
      const excluded = pool.exclude.find((e) => {
        const p = parsePrefix(e);
        return p !== null && prefixesOverlap(p, block);
      });
      if (excluded)
        return {
          kind: "refused",
          pool: i,
          cause: "excluded",
          detail: `is excluded from pool '${pool.name}' (${excluded})`,
        };
      const statics = pool.static.find((st) => {
        const p = parsePrefix(st.prefix);
        return p !== null && prefixesOverlap(p, block);
      });
      if (statics)
        return {
          kind: "refused",
          pool: i,
          cause: "static",
          detail: `is held statically for ${statics.username} in pool '${pool.name}'`,
        };
      if ((block.base - subnet.base) / prefixSpan(block) >= BigInt(MAX_STATIC_OFFSET)) {
        return {
          kind: "refused",
          pool: i,
          cause: "offset",
          detail:
            `lies beyond the first ${MAX_STATIC_OFFSET} blocks of ${s.prefix} in pool ` +
            `'${pool.name}' (a limit of the simulation)`,
        };
      }
      return { kind: "pool", pool: i, block };
    }
  }
  return { kind: "outside" };
}

/** Where an address lands: the block of an IPv4 or IPv6 WAN pool of its VRF that holds it, or outside every pool. */
export function placeAddress(
  pools: readonly PoolConfig[],
  vrf: string,
  family: "ipv4" | "ipv6-wan",
  address: bigint,
): Placement {
  const bits = family === "ipv4" ? 4 : 6;
  return place(pools, vrf, family, (pool) => blockOf(bits, address, pool.delegationLength), false);
}

/** Where a delegated prefix lands: exactly one block of a PD pool of its VRF, or outside every PD pool. */
export function placePrefix(pools: readonly PoolConfig[], vrf: string, prefix: Prefix): Placement {
  return place(pools, vrf, "ipv6-pd", () => prefix, true);
}

/** What a local subscriber holds of one address family. */
export type Hold =
  | { kind: "none" }
  /** IPv4 only: a block from the VRF's pool at each bring-up. */
  | { kind: "dynamic" }
  | { kind: "outside"; text: string }
  | { kind: "pool"; pool: number; block: string; subnet: number; ordinal: number; claimed: boolean }
  | { kind: "refused"; detail: string };

/** A local subscriber as installed in the model. */
export interface LocalEntry {
  readonly id: number;
  readonly config: LocalSubscriber;
  readonly fingerprint: string;
  /** Why it cannot come up whatever happens (no such port, no room for its VRF); null = it can. */
  blocked: "unknown-port" | "no-vrf" | null;
  vrf: number;
  port: number;
  svlan: number;
  cvlan: number;
  /** Profile plan index, or -1. */
  plan: number;
  downBps: number;
  upBps: number;
  activity: number;
  macHi: number;
  macLo: number;
  realm: string;
  poolPick: number;
  v4: Hold;
  wan: Hold;
  pd: Hold;
  /** Live session slot, or -1. */
  slot: number;
  /** Earliest instant of the next bring-up attempt. */
  retryAtMs: number;
}

/**
 * The model's state of one local subscriber: its identity and its live session (the route joins it to the configured
 * row; a type of its own, as src/schemas/local-subscribers.ts reaches the model through the configuration's rules).
 */
export interface LocalSubscriberStatus {
  kind: LocalKind;
  key: string;
  username: string;
  sessionId: number | null;
}

/** FNV-1a over a string, mixed: the seed of a local subscriber's derived attributes. */
function textHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return mix32(h);
}

/** `kind/key`, the table's index. */
export const localId = (kind: LocalKind, key: string): string => `${kind}/${key}`;

/** Table order: IPoE before PPPoE, then by key. */
export function compareLocal(a: LocalSubscriber, b: LocalSubscriber): number {
  if (a.kind !== b.kind) return a.kind === "ipoe" ? -1 : 1;
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

/** The holds of a subscriber among `pools` (the running ones), before any block is claimed. */
export function holdsOf(pools: readonly PoolConfig[], c: LocalSubscriber): { v4: Hold; wan: Hold; pd: Hold } {
  const fromPlacement = (placement: Placement, text: string): Hold => {
    if (placement.kind === "refused") return { kind: "refused", detail: placement.detail };
    if (placement.kind === "outside") return { kind: "outside", text };
    return {
      kind: "pool",
      pool: placement.pool,
      block: formatPrefix(placement.block),
      subnet: -1,
      ordinal: -1,
      claimed: false,
    };
  };
  const v4Prefix = c.framedIp === null ? null : parsePrefix(c.framedIp);
  const wanPrefix = c.framedIpv6 === null ? null : parsePrefix(c.framedIpv6);
  const pdPrefix = c.ipv6Pd === null ? null : parsePrefix(c.ipv6Pd);
  const refused = (what: string): Hold => ({ kind: "refused", detail: `${what} does not parse` });
  return {
    v4:
      c.framedIp === null
        ? { kind: "dynamic" }
        : v4Prefix?.family !== 4
          ? refused("framedIp")
          : fromPlacement(placeAddress(pools, c.vrf, "ipv4", v4Prefix.base), c.framedIp),
    wan:
      c.framedIpv6 === null
        ? { kind: "none" }
        : wanPrefix?.family !== 6
          ? refused("framedIpv6")
          : fromPlacement(placeAddress(pools, c.vrf, "ipv6-wan", wanPrefix.base), c.framedIpv6),
    pd:
      c.ipv6Pd === null
        ? { kind: "none" }
        : pdPrefix?.family !== 6
          ? refused("ipv6Pd")
          : fromPlacement(placePrefix(pools, c.vrf, pdPrefix), formatPrefix(pdPrefix)),
  };
}

/**
 * A new entry: attributes derived from the configuration and a hash of its
 * key (a PPPoE subscriber's port and VLANs, every subscriber's MAC and
 * activity), so they survive a reseed and a restart unchanged.
 */
export function makeEntry(m: ModelCore, id: number, config: LocalSubscriber): LocalEntry {
  const p = m.profile;
  const h = textHash(localId(config.kind, config.key));
  let port: number;
  let svlan: number;
  let cvlan: number;
  if (config.line) {
    port = p.ports.findIndex((x) => x.portId === config.line?.portId);
    svlan = config.line.svlan;
    cvlan = config.line.cvlan;
  } else {
    // A PPPoE subscriber dials in on a port and VLANs of the profile's access plan, stable per username.
    const cum = cumulativeWeights(p.ports.map((x) => x.weight));
    port = pickFromCumulative(cum, hashUnit(h, 0, 1) * (cum[cum.length - 1] ?? 0));
    const v = p.ports[port]?.vlans;
    svlan = v ? v.svlanFirst + (hash32(h, 0, 2) % v.svlanCount) : 0;
    cvlan = v ? v.cvlanFirst + (hash32(h, 0, 3) % v.cvlanCount) : 0;
  }
  const plan = config.plan === null ? -1 : p.plans.findIndex((x) => x.name === config.plan);
  const planRates = plan >= 0 ? p.plans[plan] : undefined;
  const vrf = m.addVrf(config.vrf);
  const at = config.username.lastIndexOf("@");
  return {
    id,
    config,
    fingerprint: JSON.stringify(config),
    blocked: port < 0 ? "unknown-port" : vrf < 0 ? "no-vrf" : null,
    vrf: Math.max(0, vrf),
    port: Math.max(0, port),
    svlan,
    cvlan,
    plan,
    downBps: (config.downloadKbps > 0 ? config.downloadKbps : (planRates?.downloadKbps ?? 0)) * 1000,
    upBps: (config.uploadKbps > 0 ? config.uploadKbps : (planRates?.uploadKbps ?? 0)) * 1000,
    activity: Math.min(1, -Math.log(1 - hashUnit(h, 0, 4)) * p.traffic.meanActivity),
    // A locally administered unicast MAC (IEEE 802 bit 0x02 of the first octet): the configuration names none.
    macHi: 0x0200 | (hash32(h, 0, 5) & 0xff),
    macLo: hash32(h, 0, 6) >>> 0,
    realm: config.kind === "pppoe" && at >= 0 ? config.username.slice(at + 1) : "",
    poolPick: hash32(h, 0, 7),
    ...holdsOf(m.poolConfigs, config),
    slot: -1,
    retryAtMs: 0,
  };
}

/** Serialisable state of the table (derived attributes are rebuilt from the configuration). */
export interface LocalTableState {
  nextId: number;
  entries: { id: number; config: LocalSubscriber; v4: Hold; wan: Hold; pd: Hold; slot: number; retryAtMs: number }[];
}

/** The installed local subscribers, in table order, with their indexes. */
export class LocalTable {
  entries: LocalEntry[] = [];
  nextId = 0;
  #byId = new Map<number, LocalEntry>();
  #byKey = new Map<string, LocalEntry>();
  /** Claimed blocks: `pool/subnet/ordinal` → owner. */
  #statics = new Map<string, LocalEntry>();

  /** Number of installed subscribers. */
  get size(): number {
    return this.entries.length;
  }

  /** Replaces the table's entries (already in table order). */
  replace(entries: LocalEntry[]): void {
    this.entries = entries;
    this.#byId = new Map(entries.map((e) => [e.id, e]));
    this.#byKey = new Map(entries.map((e) => [localId(e.config.kind, e.config.key), e]));
    this.#statics.clear();
    for (const e of entries)
      for (const h of [e.v4, e.wan, e.pd]) if (h.kind === "pool" && h.claimed) this.noteClaim(e, h);
  }

  /** The entry of a kind and key. */
  find(kind: LocalKind, key: string): LocalEntry | undefined {
    return this.#byKey.get(localId(kind, key));
  }

  /** The entry behind a session's `sub` column (negative for local subscribers). */
  ofSub(sub: number): LocalEntry | undefined {
    return this.#byId.get(-1 - sub);
  }

  /** The `sub` column value of an entry's session. */
  static subOf(entry: LocalEntry): number {
    return -1 - entry.id;
  }

  /** Records a claimed block. */
  noteClaim(entry: LocalEntry, hold: Extract<Hold, { kind: "pool" }>): void {
    this.#statics.set(`${hold.pool}/${hold.subnet}/${hold.ordinal}`, entry);
  }

  /** Forgets a claimed block. */
  forgetClaim(hold: Extract<Hold, { kind: "pool" }>): void {
    this.#statics.delete(`${hold.pool}/${hold.subnet}/${hold.ordinal}`);
  }

  /** The subscriber (and its live session) holding a claimed block, for the allocations list. */
  staticHolder(m: ModelCore, pool: number, subnet: number, ordinal: number): HolderInfo | null {
    const e = this.#statics.get(`${pool}/${subnet}/${ordinal}`);
    if (!e) return null;
    return { sessionId: e.slot >= 0 ? (m.store.id[e.slot] ?? 0) : 0, username: e.config.username, vrf: e.config.vrf };
  }

  /**
   * A local session went down: its dynamic IPv4 block goes back to the pool
   * (claimed blocks stay claimed), and it may reconnect at the next sub-step.
   */
  release(m: ModelCore, slot: number, sub: number): void {
    const e = this.ofSub(sub);
    const s = m.store;
    if (!e) return;
    if (e.v4.kind === "dynamic") m.pools[s.v4Pool[slot] ?? -1]?.release(s.v4Subnet[slot] ?? 0, s.v4Ord[slot] ?? 0);
    e.slot = -1;
    e.retryAtMs = m.nowMs;
  }

  /** Every subscriber's state, in table order. */
  statuses(m: ModelCore): LocalSubscriberStatus[] {
    return this.entries.map((e) => ({
      kind: e.config.kind,
      key: e.config.key,
      username: e.config.username,
      sessionId: e.slot >= 0 ? (m.store.id[e.slot] ?? null) : null,
    }));
  }

  /** The installed configuration, in table order (a reseed installs it again). */
  installed(): LocalSubscriber[] {
    return this.entries.map((e) => e.config);
  }

  /** State for a snapshot. */
  exportState(): LocalTableState {
    return {
      nextId: this.nextId,
      entries: this.entries.map((e) => ({
        id: e.id,
        config: e.config,
        v4: { ...e.v4 },
        wan: { ...e.wan },
        pd: { ...e.pd },
        slot: e.slot,
        retryAtMs: e.retryAtMs,
      })),
    };
  }

  /** Restores snapshot state onto a model whose pools and session table are restored alongside. */
  importState(m: ModelCore, state: LocalTableState | null | undefined): void {
    if (!state) return;
    this.nextId = state.nextId;
    this.replace(
      state.entries.map((st) => ({
        ...makeEntry(m, st.id, st.config),
        v4: { ...st.v4 },
        wan: { ...st.wan },
        pd: { ...st.pd },
        slot: st.slot,
        retryAtMs: st.retryAtMs,
      })),
    );
  }
}
