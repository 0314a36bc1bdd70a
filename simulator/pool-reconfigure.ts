/**
 * Address pools as configuration: installing a new set of pools in the
 * running simulation (a hot-apply, `Gateway.setPools`). Pools are matched by
 * name; one whose family, VRF and delegation length are unchanged keeps its
 * blocks (subnets matched by prefix, blocks by address), any other is built
 * afresh under its name. What each change does to what the pools hold:
 * dynamic sessions, static allocations, and offers, quarantines and
 * reservations (a holding not named is untouched):
 *
 * - subnet added: size and free grow at once; setups that failed for lack of blocks succeed at the next steps.
 * - subnet removed: sessions disconnected (`pool-reconfigured`), everything they held freed; statics kept, not
 *   disconnected (below); offers dropped.
 * - exclude added: a session holding a newly excluded block is disconnected; statics kept while not covered (the
 *   validator refuses covering a local subscriber's); offers dropped.
 * - exclude removed: the blocks become free at once.
 * - pool added: AAA hands it out for its VRF and family from the next setup; statics: the profile's statics of that
 *   name, if they fit.
 * - pool removed: sessions disconnected; statics kept, as for a removed subnet; its alarm clears; offers dropped.
 * - VRF or delegation changed: as removed and added again under the same name.
 * - description, announce, order: nothing.
 *
 * A static allocation is not disconnected when its subnet goes (spec
 * AddressPoolAllocation `static`): a local subscriber keeps its session and
 * its configured address, which from then on lies outside every pool (used
 * as configured, its session's pool null) until a subnet holding it returns,
 * when it is held statically again before anything can be offered from it.
 * A static of the profile (a reserved address with no session) is held only
 * while its subnet is configured.
 */
import { teardownSession } from "./lifecycle.ts";
import { claimHolds } from "./local-sessions.ts";
import { holdsOf, type Hold } from "./local-subscribers.ts";
import type { Model } from "./model.ts";
import { poolIssues, withStatics, type PoolDefinition, type PoolSettings } from "./pool-rules.ts";
import type { AddressPool, BlockMap } from "./pools.ts";

/** What a pool installation changed. */
export interface PoolReconfigureReport {
  /** Pools now configured. */
  pools: number;
  added: string[];
  /** Pools whose settings changed (rebuilt ones included). */
  changed: string[];
  removed: string[];
  /** Sessions disconnected because a block they held left the pools. */
  disconnected: number;
}

export type PoolReconfigureResult =
  | { ok: true; report: PoolReconfigureReport }
  | { ok: false; reason: "invalid-pools"; issues: string[] };

/** A definition's identity, key order fixed (`vrf` null and `default` alike). */
const canonical = (p: PoolDefinition): string =>
  JSON.stringify([
    p.name,
    p.family,
    p.vrf ?? "default",
    p.delegationLength,
    p.description,
    p.subnets.map((s) => [s.prefix, s.announce]),
    p.exclude,
    p.static.map((s) => [s.prefix, s.username]),
  ]);

/** Whether a pool's blocks mean the same under both definitions. */
const sameBlocks = (a: PoolDefinition, b: PoolDefinition): boolean =>
  a.family === b.family && (a.vrf ?? "default") === (b.vrf ?? "default") && a.delegationLength === b.delegationLength;

const IDENTITY: BlockMap = (subnet, ordinal) => ({ subnet, ordinal });

/** A hold a live session cannot keep: an address the pools refuse, or a block another holds. */
const unusable = (h: Hold): boolean => h.kind === "refused" || (h.kind === "pool" && !h.claimed);

/** The running pools as settings, in order. */
export function poolSettingsOf(m: Model): PoolSettings[] {
  return m.poolConfigs.map(({ static: _static, ...settings }) => structuredClone(settings));
}

/**
 * Installs `settings` as the running pools (the whole list, in preference
 * order for AAA's pick among a VRF's pools). The profile's static
 * allocations follow their pool's name. Refused, changing nothing, when the
 * pools break a rule of pool-rules.ts other than the CGN one (which the
 * configuration enforces against the groups it configures).
 */
export function reconfigurePools(m: Model, settings: readonly PoolSettings[]): PoolReconfigureResult {
  const definitions = withStatics(settings, (name) => m.profile.pools.find((p) => p.name === name)?.static ?? []);
  const issues = poolIssues(definitions, m.cgnVrfs).filter((i) => i.rule !== "cgn");
  if (issues.length > 0) {
    return {
      ok: false,
      reason: "invalid-pools",
      issues: issues.map((i) => `${definitions[i.pool]?.name ?? `pool ${i.pool}`}: ${i.field}: ${i.message}`),
    };
  }
  const report: PoolReconfigureReport = {
    pools: definitions.length,
    added: [],
    changed: [],
    removed: [],
    disconnected: 0,
  };
  if (definitions.map(canonical).join("\n") === m.poolConfigs.map(canonical).join("\n")) return { ok: true, report };

  // The plan, before anything moves: the new pools, and where each old pool's blocks go
  // (`maps[j]` null: the whole pool is gone; `target[j]`: the new index taking them).
  const old = m.pools;
  const maps: (BlockMap | null)[] = old.map(() => null);
  const target: number[] = old.map(() => -1);
  const adopted: { pool: AddressPool; from: AddressPool; map: BlockMap }[] = [];
  const next = definitions.map((def, i) => {
    const j = old.findIndex((p) => p.name === def.name);
    const before = old[j];
    if (!before) {
      report.added.push(def.name);
      return m.newPool(def, i);
    }
    if (canonical(before.config) === canonical(def)) {
      maps[j] = IDENTITY;
      target[j] = i;
      return before;
    }
    report.changed.push(def.name);
    const pool = m.newPool(def, i);
    if (sameBlocks(before.config, def)) {
      const map = pool.mapFrom(before);
      maps[j] = map;
      target[j] = i;
      adopted.push({ pool, from: before, map });
    }
    return pool;
  });
  for (const p of old) if (!definitions.some((d) => d.name === p.name)) report.removed.push(p.name);

  // Sessions holding a block that does not survive go down first, while the old pools are in place to free what they
  // held.
  const lost = new Map<string, number>();
  const doomed = new Set<number>();
  old.forEach((pool, j) => {
    const map = maps[j] ?? null;
    if (map === IDENTITY) return;
    pool.committedBlocks((subnet, ordinal, slot) => {
      if ((map && map(subnet, ordinal)) || doomed.has(slot)) return;
      doomed.add(slot);
      lost.set(pool.name, (lost.get(pool.name) ?? 0) + 1);
    });
  });
  for (const slot of doomed) teardownSession(m, slot, "pool-reconfigured");
  report.disconnected = doomed.size;

  for (const { pool, from, map } of adopted) pool.adopt(from, map);
  next.forEach((p, i) => (p.index = i));
  const s = m.store;
  const remap = (pools: Int16Array, subnets: Uint8Array, ordinals: Int32Array, slot: number): void => {
    const j = pools[slot] ?? -1;
    if (j < 0) return;
    const map = maps[j];
    const to = map ? map(subnets[slot] ?? 0, ordinals[slot] ?? 0) : null;
    // Only a local subscriber's static block can be gone here (dynamic holders went down above): see below.
    if (!to) {
      pools[slot] = -1;
      return;
    }
    pools[slot] = target[j] ?? -1;
    subnets[slot] = to.subnet;
    ordinals[slot] = to.ordinal;
  };
  for (let k = 0; k < s.liveCount; k++) {
    const slot = s.live[k] ?? 0;
    remap(s.v4Pool, s.v4Subnet, s.v4Ord, slot);
    remap(s.wanPool, s.wanSubnet, s.wanOrd, slot);
    remap(s.pdPool, s.pdSubnet, s.pdOrd, slot);
  }
  m.pools = next;
  m.poolConfigs = definitions;
  m.indexPools();

  report.disconnected += replaceLocals(m, maps, target);

  for (const name of report.removed) m.alarms.retire(m.nowMs, "pool.utilisation.high", name);
  // In configured order, then the removed ones.
  const changes = [
    ...definitions
      .filter((d) => report.added.includes(d.name) || report.changed.includes(d.name))
      .map((d) => [d.name, report.added.includes(d.name) ? "added" : "changed"] as const),
    ...report.removed.map((name) => [name, "removed"] as const),
  ];
  for (const [name, change] of changes) {
    const pool = m.pools.find((p) => p.name === name);
    m.logs.emit(m.nowMs, "pool.reconfigured", {
      pool: name,
      change,
      size: pool?.size ?? 0,
      subnets: pool?.subnets.length ?? 0,
      disconnected: lost.get(name) ?? 0,
    });
  }
  return { ok: true, report };
}

/**
 * Places every local subscriber again among the new pools: a claimed block
 * that survived is kept (at its new place), one that left the pools leaves
 * the subscriber with its address outside them, one that entered a pool is
 * claimed. A live session keeps going with what it had; only one whose
 * address the pools now refuse (or another holds) is disconnected. Returns
 * the sessions disconnected.
 */
function replaceLocals(m: Model, maps: readonly (BlockMap | null)[], target: readonly number[]): number {
  const keys = ["v4", "wan", "pd"] as const;
  for (const e of m.locals.entries) {
    const fresh = holdsOf(m.poolConfigs, e.config);
    for (const key of keys) {
      const was = e[key];
      const now = fresh[key];
      if (was.kind === "pool" && was.claimed) {
        const map = maps[was.pool];
        const to = map ? map(was.subnet, was.ordinal) : null;
        const pool = target[was.pool] ?? -1;
        if (now.kind === "pool" && to && now.pool === pool && now.block === was.block) {
          e[key] = { ...now, subnet: to.subnet, ordinal: to.ordinal, claimed: true };
          continue;
        }
        if (to) m.pools[pool]?.releaseStatic(to.subnet, to.ordinal);
      }
      e[key] = now;
    }
  }
  m.locals.replace(m.locals.entries);
  let disconnected = 0;
  for (const e of m.locals.entries) disconnected += claimHolds(m, e);
  const s = m.store;
  const columns = (h: Hold): [number, number, number] | null =>
    h.kind === "pool" ? [h.pool, h.subnet, h.ordinal] : h.kind === "dynamic" ? null : [-1, 0, 0];
  for (const e of m.locals.entries) {
    const slot = e.slot;
    if (slot < 0) continue;
    if (keys.some((key) => unusable(e[key]))) {
      teardownSession(m, slot, "pool-reconfigured", true);
      disconnected++;
      continue;
    }
    const v4 = columns(e.v4);
    if (v4) [s.v4Pool[slot], s.v4Subnet[slot], s.v4Ord[slot]] = v4;
    const wan = columns(e.wan);
    if (wan) [s.wanPool[slot], s.wanSubnet[slot], s.wanOrd[slot]] = wan;
    const pd = columns(e.pd);
    if (pd) [s.pdPool[slot], s.pdSubnet[slot], s.pdOrd[slot]] = pd;
  }
  return disconnected;
}
