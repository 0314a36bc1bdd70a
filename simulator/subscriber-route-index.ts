/**
 * A VRF's sessions' routes in table order as numbers, not objects: for each
 * route the pool subnet (run) it sits in, its block ordinal and the session's
 * slot, read from the pools' holder tables in one pass. The holder tables are
 * already in address order and the pools' subnets are visited by base, so no
 * sort is needed; a route is rendered (BigInt base, interface name) only when
 * a page or a binary search asks for it. This replaces 190,000 route objects
 * and their sort per sessions change at 128k sessions (issue #11).
 */
import type { Model } from "./model.ts";
import type { AddressPool } from "./pools.ts";
import { formatIpv4 } from "./prefix.ts";
import type { SubscriberRoute } from "./routing.ts";
import { SortedSubscriberRoutes, type SubscriberRouteList } from "./rib.ts";
import { localRoutes } from "./subscriber-routes.ts";

interface Run {
  pool: AddressPool;
  subnet: number;
  family: 4 | 6;
}

/** The routes as parallel typed arrays, in table order. */
class SubscriberRouteIndex implements SubscriberRouteList {
  readonly length: number;
  readonly #runs: Run[];
  readonly #run: Uint16Array;
  readonly #ordinal: Uint32Array;
  readonly #slot: Uint32Array;
  readonly #m: Model;

  constructor(m: Model, runs: Run[], run: Uint16Array, ordinal: Uint32Array, slot: Uint32Array, length: number) {
    this.#m = m;
    this.#runs = runs;
    this.#run = run;
    this.#ordinal = ordinal;
    this.#slot = slot;
    this.length = length;
  }

  at(i: number): SubscriberRoute {
    const run = this.#runs[this.#run[i]!]!;
    const slot = this.#slot[i]!;
    const s = this.#m.store;
    const iface = `${s.encap[slot] === 0 ? "ipoe" : "ppp"}${s.id[slot] ?? 0}`;
    if (run.family === 4) return { family: 4, base: BigInt(s.v4Addr[slot] ?? 0), length: 32, interface: iface };
    return {
      family: 6,
      base: run.pool.blockBase(run.subnet, this.#ordinal[i]!),
      length: run.pool.config.delegationLength,
      interface: iface,
    };
  }

  text(i: number): string {
    const run = this.#runs[this.#run[i]!]!;
    if (run.family === 4) return `${formatIpv4(this.#m.store.v4Addr[this.#slot[i]!] ?? 0)}/32`;
    return run.pool.text(run.subnet, this.#ordinal[i]!);
  }
}

/**
 * Every live session's routes in `vrf` of one family or both, in table
 * order, as subscriberRoutes() lists them once sorted; null when that order
 * cannot be had without a sort (pool subnets whose routes interleave), and
 * the caller sorts the objects.
 */
export function subscriberRouteIndex(m: Model, vrf: string, family: 4 | 6 | null = null): SubscriberRouteList | null {
  const v = m.vrfNames.indexOf(vrf);
  if (v < 0) return emptyList;
  const s = m.store;
  const runs: Run[] = m.pools
    .filter((pool) => (pool.config.family === "ipv4" ? family !== 6 : family !== 4))
    .flatMap((pool) =>
      pool.subnets.map((_, subnet) => ({
        pool,
        subnet,
        family: (pool.config.family === "ipv4" ? 4 : 6) as 4 | 6,
        base: pool.subnetPrefix(subnet).base,
      })),
    )
    .sort((a, b) => a.family - b.family || (a.base < b.base ? -1 : a.base > b.base ? 1 : 0));
  if (runs.length > 0xffff) return null;
  let capacity = 1024;
  let run = new Uint16Array(capacity);
  let ordinal = new Uint32Array(capacity);
  let slots = new Uint32Array(capacity);
  let n = 0;
  // The last route's address, to prove the runs do not interleave (IPv4 as a number; IPv6 compared as BigInt once per
  // run).
  let lastV4 = -1;
  let lastV6: bigint | null = null;
  for (let r = 0; r < runs.length; r++) {
    const { pool, subnet } = runs[r]!;
    const kind = pool.config.family;
    const first = n;
    let ok = true;
    // The pools' holder tables read directly (as committedBetween does) with the columns in locals: this pass runs once
    // per sessions change.
    const { holders, extent } = pool.holderTable(subnet);
    const { alive, vrf: vrfs, sub, v4Pool, v4Addr } = s;
    const wan = kind === "ipv6-wan";
    const ownPool = wan ? s.wanPool : s.pdPool;
    const ownSubnet = wan ? s.wanSubnet : s.pdSubnet;
    const ownOrd = wan ? s.wanOrd : s.pdOrd;
    for (let h = 0; h < extent; h++) {
      const held = holders[h]!;
      if (held <= 0) continue;
      const slot = held - 1;
      if (alive[slot] !== 1 || vrfs[slot] !== v || (sub[slot] ?? 0) < 0) continue;
      let ord = 0;
      if (kind === "ipv4") {
        const addr = v4Addr[slot] ?? 0;
        if (v4Pool[slot] !== pool.index || addr === 0) continue;
        if (addr <= lastV4) ok = false;
        lastV4 = addr;
      } else {
        if (ownPool[slot] !== pool.index) continue;
        // The route is the session's own block: one held in another subnet's table would not be in this run's order.
        if (ownSubnet[slot] !== subnet) ok = false;
        ord = ownOrd[slot] ?? 0;
      }
      if (n === capacity) {
        capacity *= 2;
        run = grow(run, new Uint16Array(capacity));
        ordinal = grow(ordinal, new Uint32Array(capacity));
        slots = grow(slots, new Uint32Array(capacity));
      }
      run[n] = r;
      ordinal[n] = ord;
      slots[n] = slot;
      n++;
    }
    if (!ok) return null;
    if (kind !== "ipv4" && n > first) {
      // Within a run the holder table is in block order; across runs the first block must lie past the last run's last.
      const firstBase = pool.blockBase(subnet, ordinal[first]!);
      if (lastV6 !== null && firstBase <= lastV6) return null;
      for (let i = first + 1; i < n; i++) if (ordinal[i]! <= ordinal[i - 1]!) return null;
      lastV6 = pool.blockBase(subnet, ordinal[n - 1]!);
    }
  }
  const pooled = new SubscriberRouteIndex(m, runs, run, ordinal, slots, n);
  // Configured local subscribers hold their pool blocks as static (no slot in the holder tables), or lie outside the
  // pools: few, sorted apart and merged in.
  const locals: SubscriberRoute[] = [];
  for (const e of m.locals.entries) {
    const slot = e.slot;
    if (slot < 0 || s.alive[slot] !== 1 || s.vrf[slot] !== v) continue;
    localRoutes(m, slot, family, `${s.encap[slot] === 0 ? "ipoe" : "ppp"}${s.id[slot] ?? 0}`, locals);
  }
  return locals.length === 0 ? pooled : merged(pooled, new SortedSubscriberRoutes(locals));
}

/**
 * Two lists in table order as one: local route k sits at merged position k +
 * (pool routes before it), after any pool route of the same prefix, as the
 * stable sort of pool routes then locals (subscriberRoutes' order) puts it.
 */
function merged(pooled: SubscriberRouteList, locals: SubscriberRouteList): SubscriberRouteList {
  const placed: number[] = [];
  for (let k = 0; k < locals.length; k++) {
    const r = locals.at(k);
    let lo = 0;
    let hi = pooled.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareRoutes(pooled.at(mid), r) <= 0) lo = mid + 1;
      else hi = mid;
    }
    placed.push(k + lo);
  }
  // Position i is local k when placed[k] === i, else pool route i - (locals placed before i).
  const locate = (i: number): [SubscriberRouteList, number] => {
    let lo = 0;
    let hi = placed.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (placed[mid]! < i) lo = mid + 1;
      else hi = mid;
    }
    return placed[lo] === i ? [locals, lo] : [pooled, i - lo];
  };
  return {
    length: pooled.length + locals.length,
    at: (i) => {
      const [list, j] = locate(i);
      return list.at(j);
    },
    text: (i) => {
      const [list, j] = locate(i);
      return list.text(j);
    },
  };
}

const compareRoutes = (a: SubscriberRoute, b: SubscriberRoute): number =>
  a.family - b.family || (a.base < b.base ? -1 : a.base > b.base ? 1 : 0) || a.length - b.length;

function grow<T extends Uint16Array | Uint32Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

const none = (): never => {
  throw new RangeError("no sessions' routes");
};
const emptyList: SubscriberRouteList = { length: 0, at: none, text: none };
