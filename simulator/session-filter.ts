/**
 * Evaluates a sessions list filter on the session table's indexes: the
 * bitsets the table keeps per encapsulation, port, VRF and walled garden
 * (sessions.ts), and for `ip` the pools' holder tables (an address range
 * reads only the blocks in it). The bitsets are over id-order positions, so
 * walking them from the top is newest first; `total` is a population count
 * and a page deep in the list skips 32 sessions a word. What no index covers
 * (the username needle, an IPv6 text that cannot be turned into ranges) is
 * tested only on the sessions the indexes left.
 */
import { countBits, popcount, setBit } from "./bits.ts";
import type { Model } from "./model.ts";
import { ENCAP_PPPOE_LAC } from "./subscribers.ts";
import type { AddressPool } from "./pools.ts";

/** A compiled filter: bitsets every match has, bitsets none has, and tests on the remaining candidates. */
export interface SessionFilter {
  all: Int32Array[];
  none: Int32Array[];
  tests: ((slot: number) => boolean)[];
}

/** Matching live slots newest first from `offset` (at most `limit`), and how many match in all. */
export function selectSessions(
  m: Model,
  filter: SessionFilter,
  offset: number,
  limit: number,
): { total: number; slots: number[] } {
  const s = m.store;
  const words = (s.orderLen + 31) >>> 5;
  let acc = s.liveBits;
  if (filter.all.length > 0 || filter.none.length > 0) {
    acc = s.liveBits.slice(0, words);
    for (const mask of filter.all) for (let w = 0; w < words; w++) acc[w] = (acc[w] ?? 0) & (mask[w] ?? 0);
    for (const mask of filter.none) for (let w = 0; w < words; w++) acc[w] = (acc[w] ?? 0) & ~(mask[w] ?? 0);
  }
  const slots: number[] = [];
  const order = s.orderSlots;
  const tests = filter.tests;
  if (tests.length === 0) {
    // Unfiltered, the count is the table's own: no popcount over every word (4,000 of them at 128k sessions) for a
    // page.
    const total = acc === s.liveBits ? s.total : countBits(acc, words);
    let skip = offset;
    for (let w = words - 1; w >= 0 && slots.length < limit; w--) {
      let x = acc[w] ?? 0;
      if (x === 0) continue;
      const n = popcount(x);
      if (skip >= n) {
        skip -= n;
        continue;
      }
      while (x !== 0 && slots.length < limit) {
        const b = 31 - Math.clz32(x);
        x &= ~(1 << b);
        if (skip > 0) skip--;
        else slots.push(order[(w << 5) | b] ?? 0);
      }
    }
    return { total, slots };
  }
  let total = 0;
  for (let w = words - 1; w >= 0; w--) {
    let x = acc[w] ?? 0;
    while (x !== 0) {
      const b = 31 - Math.clz32(x);
      x &= ~(1 << b);
      const slot = order[(w << 5) | b] ?? 0;
      let ok = true;
      for (const t of tests) {
        if (!t(slot)) {
          ok = false;
          break;
        }
      }
      if (!ok) continue;
      if (total >= offset && slots.length < limit) slots.push(slot);
      total++;
    }
  }
  return { total, slots };
}

/**
 * The live sessions whose IPv4 address lies in one of `ranges`, as a bitset:
 * read from the IPv4 pools' holder tables. `local` decides for configured
 * local subscribers' sessions (their blocks are held as static, not by slot).
 */
export function ipv4Mask(
  m: Model,
  ranges: readonly { first: number; last: number }[],
  local: (slot: number) => boolean,
): Int32Array {
  const s = m.store;
  return mask(m, local, (set) => {
    for (const pool of m.pools) {
      if (pool.config.family !== "ipv4") continue;
      pool.subnets.forEach((_, si) => {
        for (const r of ranges) {
          const range = pool.ordinalsStartingIn(si, BigInt(r.first), BigInt(r.last));
          if (range) pool.committedBetween(si, range, (slot) => s.v4Pool[slot] === pool.index && set(slot));
        }
      });
    }
    // LAC sessions hold no pool block: their learned addresses are read from the sessions (few, one bitset's words).
    const lac = s.encapBits[ENCAP_PPPOE_LAC] ?? new Int32Array(0);
    for (let w = 0; w < lac.length; w++) {
      for (let x = lac[w] ?? 0; x !== 0; ) {
        const b = 31 - Math.clz32(x);
        x &= ~(1 << b);
        const slot = s.orderSlots[(w << 5) | b] ?? -1;
        const a = slot >= 0 ? (s.v4Addr[slot] ?? 0) : 0;
        for (const r of ranges) if (a >= r.first && a <= r.last) set(slot);
      }
    }
  });
}

/**
 * The live sessions whose displayed IPv6 (the WAN prefix, else the delegated
 * prefix) is in the ordinal ranges `rangeOf` gives per pool subnet, as a
 * bitset read from the IPv6 pools' holder tables. `check`, when given, is
 * asked of each candidate: ranges that only bound what the filter takes.
 */
export function ipv6Mask(
  m: Model,
  rangeOf: (pool: AddressPool, subnet: number) => [number, number][],
  local: (slot: number) => boolean,
  check: ((slot: number) => boolean) | null = null,
): Int32Array {
  const s = m.store;
  return mask(m, local, (set) => {
    for (const pool of m.pools) {
      const family = pool.config.family;
      if (family === "ipv4") continue;
      // A delegated prefix is what the list shows only for a session without a WAN prefix.
      const shown =
        family === "ipv6-wan"
          ? (slot: number) => s.wanPool[slot] === pool.index
          : (slot: number) => s.pdPool[slot] === pool.index && (s.wanPool[slot] ?? -1) < 0;
      pool.subnets.forEach((_, si) => {
        for (const range of rangeOf(pool, si))
          pool.committedBetween(si, range, (slot) => shown(slot) && (check === null || check(slot)) && set(slot));
      });
    }
  });
}

/**
 * A bitset of the slots `fill` sets (generated subscribers only) and the live local subscribers' sessions `local`
 * accepts.
 */
function mask(m: Model, local: (slot: number) => boolean, fill: (set: (slot: number) => void) => void): Int32Array {
  const s = m.store;
  const bits = new Int32Array((s.orderLen + 31) >>> 5);
  const set = (slot: number): void => {
    if (s.alive[slot] !== 1) return;
    setBit(bits, s.orderPos[slot] ?? 0);
  };
  fill((slot) => {
    if ((s.sub[slot] ?? 0) >= 0) set(slot);
  });
  for (const e of m.locals.entries) if (e.slot >= 0 && s.alive[e.slot] === 1 && local(e.slot)) set(e.slot);
  return bits;
}

/**
 * Address ranges that hold every address whose RFC 5952 text begins with
 * `text` (no CIDR): whole groups fix 16 bits each, and the last, partial
 * group selects the values its hex digits begin. `exact` is false when only
 * formatting can tell some of those addresses apart, so each candidate's
 * text is checked: a zero group (the address's text may compress it into
 * `::`), or a `::` (the groups before it are fixed; where the run ends is
 * not). Null when the text is not of that shape.
 */
export function ipv6TextRanges(text: string): { ranges: { first: bigint; last: bigint }[]; exact: boolean } | null {
  // An address whose text begins with `:` begins with `::`: its first group is zero.
  if (text.startsWith(":")) return { ranges: [{ first: 0n, last: (1n << 112n) - 1n }], exact: false };
  const compressed = text.indexOf("::");
  // With a `::`, only the whole groups before it are known.
  const groups = (compressed > 0 ? text.slice(0, compressed + 1) : text).split(":");
  if (groups.length > 8) return null;
  const partial = groups.pop() ?? "";
  let exact = compressed < 0;
  let value = 0n;
  for (const g of groups) {
    if (!/^[0-9a-f]{1,4}$/.test(g)) return null;
    // RFC 5952 text has no leading zeros: such a group is in no address's text.
    if (g.length > 1 && g.startsWith("0")) return { ranges: [], exact: true };
    if (g === "0") exact = false;
    value = (value << 16n) | BigInt(parseInt(g, 16));
  }
  if (!/^[0-9a-f]{0,4}$/.test(partial)) return null;
  const rest = BigInt(16 * (7 - groups.length));
  const below = (1n << rest) - 1n;
  const span = (lo: number, hi: number) => ({
    first: ((value << 16n) | BigInt(lo)) << rest,
    last: (((value << 16n) | BigInt(hi)) << rest) | below,
  });
  if (partial === "") return { ranges: [span(0, 0xffff)], exact };
  // A group whose text begins with 0 is the zero group itself.
  if (partial === "0") return { ranges: [span(0, 0)], exact: false };
  if (partial.startsWith("0")) return { ranges: [], exact: true };
  const ranges: { first: bigint; last: bigint }[] = [];
  const lead = parseInt(partial, 16);
  for (let digits = partial.length; digits <= 4; digits++) {
    const free = 4 * (digits - partial.length);
    ranges.push(span(lead << free, ((lead + 1) << free) - 1));
  }
  return { ranges, exact };
}
