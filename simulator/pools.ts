/**
 * Address pools: real prefix arithmetic over IPv4 /32 and IPv6 /64 or PD
 * blocks (spec AddressPool, AddressPoolSubnet, AddressPoolAllocation).
 *
 * A subnet's allocatable blocks are numbered by "ordinal": block indices with
 * excluded blocks squeezed out, so `size` never counts them and they can
 * never be handed out. Only ordinals below a high-water mark are
 * materialised in an Int32Array of holders, so a /40 of /64s (16 M blocks)
 * costs memory only for the blocks ever used. Freed blocks go to a FIFO and
 * are reused least-recently-released first, as DHCP servers do to avoid
 * handing a just-released address to a different subscriber.
 */
import { SUB_STEP_MS } from "./clock.ts";
import type { PoolConfig } from "./profile.ts";
import type { AddressPool as AddressPoolView, AddressPoolAllocation } from "../src/schemas/address-pools.ts";
import {
  familyBits,
  formatIpv4,
  formatIpv6Groups,
  formatPrefix,
  ipv6Groups,
  parsePrefix,
  prefixContains,
  prefixLast,
  prefixSpan,
  type Prefix,
} from "./prefix.ts";
import { IntQueue, TimedQueue } from "./queues.ts";

/** Holder codes; positive values are session slot + 1. */
export const FREE = 0;
const OFFERED = -1;
const QUARANTINED = -2;
const STATIC = -3;
const RESERVED = -4;

/** DHCP-declined blocks return after one hour (spec Limits). */
export const DECLINE_QUARANTINE_SECONDS = 3600;

/** Largest fill (scenario) in blocks, so a fill of an IPv6 pool cannot exhaust memory. */
export const MAX_FILL_BLOCKS = 1 << 21;

/** Who holds a committed block, for the allocations list. */
export interface HolderInfo {
  sessionId: number;
  username: string;
  vrf: string;
}

interface Skip {
  start: number;
  len: number;
}

/** One subnet of a pool. */
class Subnet {
  readonly prefix: Prefix;
  readonly announce: boolean;
  /** Address bits inside one block. */
  readonly shift: number;
  readonly skips: Skip[];
  readonly size: number;
  holders = new Int32Array(64);
  /**
   * Fresh ordinals handed out so far: `fresh(k)` for every k below this has been handed out at least once (or is
   * static).
   */
  hwm = 0;
  /**
   * The order fresh blocks go out in: k → (stride × k) mod size. An IPv4 subnet spreads them over its whole range,
   * as ISC Kea's random allocator does (Kea ARM, "Allocators": random picks any free address of the pool), so no
   * part of it (a CGN bypass range, the first /24) fills first; the stride is the golden ratio of the size, a
   * permutation that needs no state per block and spreads as evenly as random picks do on average. IPv6 pools
   * keep Kea's default, the iterative allocator (stride 1: in order).
   */
  readonly stride: number;
  readonly #inverse: number;
  free = new IntQueue();
  committed = 0;
  offered = 0;
  quarantined = 0;
  statics = 0;
  reserved = 0;
  staticUsers = new Map<number, string>();
  /** Ordinals materialised in `holders` (the high-water mark or past the last static). */
  extent = 0;
  /**
   * The prefix's groups, for IPv6 block texts in number arithmetic: a route table's text filter renders every block.
   */
  #groups: readonly number[] | null = null;
  #scratch: number[] | null = null;
  /** `prefix.base` as a number, for IPv4 addresses (see ipv4). */
  #base4: number | null = null;

  constructor(prefix: Prefix, announce: boolean, delegationLength: number, exclude: readonly Prefix[]) {
    this.prefix = prefix;
    this.announce = announce;
    this.shift = familyBits(prefix.family) - delegationLength;
    const raw = 2 ** (delegationLength - prefix.length);
    const ranges: [number, number][] = [];
    const last = prefixLast(prefix);
    for (const ex of exclude) {
      if (ex.family !== prefix.family) continue;
      const lo = ex.base > prefix.base ? ex.base : prefix.base;
      const exLast = prefixLast(ex);
      const hi = exLast < last ? exLast : last;
      if (lo > hi) continue;
      // Any block touching an excluded address is excluded: the block would otherwise hand that address out.
      ranges.push([Number((lo - prefix.base) >> BigInt(this.shift)), Number((hi - prefix.base) >> BigInt(this.shift))]);
    }
    ranges.sort((a, b) => a[0] - b[0]);
    const skips: Skip[] = [];
    for (const [s, e] of ranges) {
      const prev = skips[skips.length - 1];
      if (prev && s <= prev.start + prev.len) prev.len = Math.max(prev.len, e - prev.start + 1);
      else skips.push({ start: s, len: e - s + 1 });
    }
    this.skips = skips;
    this.size = raw - skips.reduce((n, s) => n + s.len, 0);
    this.stride = prefix.family === 4 ? spreadingStride(this.size) : 1;
    this.#inverse = modInverse(this.stride, this.size);
  }

  /** The k-th fresh ordinal. */
  fresh(k: number): number {
    return this.stride === 1 ? k : (this.stride * k) % this.size;
  }

  /** Whether an ordinal has been handed out at least once (its fresh turn has come). */
  handedOut(o: number): boolean {
    return (this.stride === 1 ? o : (this.#inverse * o) % this.size) < this.hwm;
  }

  /** Blocks held: committed, offered, quarantined, static or reserved. */
  get used(): number {
    return this.committed + this.offered + this.quarantined + this.statics + this.reserved;
  }

  /** Block index of an ordinal. */
  blockOf(ordinal: number): number {
    let b = ordinal;
    for (const s of this.skips) {
      if (s.start <= b) b += s.len;
      else break;
    }
    return b;
  }

  /** Ordinal of a block index, or -1 when excluded. */
  ordinalOf(block: number): number {
    let skipped = 0;
    for (const s of this.skips) {
      if (block < s.start) break;
      if (block < s.start + s.len) return -1;
      skipped += s.len;
    }
    return block - skipped;
  }

  /** First ordinal whose block is at or after `block`. */
  ordinalAtOrAfter(block: number): number {
    let skipped = 0;
    for (const s of this.skips) {
      if (block < s.start) break;
      if (block < s.start + s.len) return s.start - skipped;
      skipped += s.len;
    }
    return block - skipped;
  }

  /** Counts every kind of holder again from the table (after a pool took over another's blocks). */
  recount(): void {
    let committed = 0;
    let offered = 0;
    let quarantined = 0;
    let statics = 0;
    let reserved = 0;
    for (let o = 0; o < this.extent; o++) {
      const h = this.holders[o] ?? FREE;
      if (h > 0) committed++;
      else if (h === OFFERED) offered++;
      else if (h === QUARANTINED) quarantined++;
      else if (h === STATIC) statics++;
      else if (h === RESERVED) reserved++;
    }
    [this.committed, this.offered, this.quarantined, this.statics, this.reserved] = [
      committed,
      offered,
      quarantined,
      statics,
      reserved,
    ];
  }

  /** Grows the holder table to at least n ordinals. */
  ensure(n: number): void {
    if (n <= this.holders.length) return;
    let cap = this.holders.length;
    while (cap < n) cap *= 2;
    const next = new Int32Array(cap);
    next.set(this.holders);
    this.holders = next;
  }

  /** Takes a free ordinal (least recently released first, then never-used ones), or -1. */
  take(): number {
    // A queued ordinal may since have been claimed by a configured subscriber (claimStatic): skip it.
    while (this.free.size > 0) {
      const o = this.free.shift();
      if (this.holders[o] === FREE) return o;
    }
    while (this.hwm < this.size) {
      const o = this.fresh(this.hwm++);
      this.ensure(o + 1);
      if (o >= this.extent) this.extent = o + 1;
      if (this.holders[o] === FREE) return o;
    }
    return -1;
  }

  /** Returns an ordinal to the free queue. */
  give(o: number): void {
    this.holders[o] = FREE;
    this.free.push(o);
  }

  /** The uint32 address of an IPv4 block. */
  ipv4(o: number): number {
    // The base as a number once: converting the bigint at every setup cost more than the rest of the sum.
    this.#base4 ??= Number(this.prefix.base);
    return this.#base4 + this.blockOf(o) * 2 ** this.shift;
  }

  /** A block as text: the address for IPv4 /32, else prefix/length. */
  text(o: number, delegationLength: number): string {
    if (this.prefix.family === 4) {
      const first = formatIpv4(this.ipv4(o));
      return delegationLength === 32 ? first : `${first}/${delegationLength}`;
    }
    return `${formatIpv6Groups(this.#blockGroups(o))}/${delegationLength}`;
  }

  /**
   * An IPv6 block's first address as eight groups: the block number's bits
   * put in place beside the prefix's (whose host bits are zero, so nothing
   * carries), without a BigInt. Written into one array per subnet that the
   * caller formats at once.
   */
  #blockGroups(o: number): number[] {
    const groups = (this.#groups ??= ipv6Groups(this.prefix.base));
    const out = (this.#scratch ??= [0, 0, 0, 0, 0, 0, 0, 0]);
    for (let i = 0; i < 8; i++) out[i] = groups[i]!;
    // The group holding bit `shift` takes the block number's low 16 - r bits; each group above it the next 16.
    // Divisions by powers of two, exact in doubles for the 2^40 blocks a subnet may hold.
    const r = this.shift % 16;
    let k = 7 - (this.shift - r) / 16;
    const lowSpan = 2 ** (16 - r);
    let rest = this.blockOf(o);
    const low = rest % lowSpan;
    out[k] = out[k]! + low * 2 ** r;
    rest = (rest - low) / lowSpan;
    while (rest > 0 && k > 0) {
      const part = rest % 65536;
      k--;
      out[k] = out[k]! + part;
      rest = (rest - part) / 65536;
    }
    return out;
  }
}

/** Serialisable state of one pool. */
export interface PoolState {
  allocationFailures: number;
  lastExhaustedLogMs: number;
  offers: number[];
  quarantine: number[];
  reservedList: number[];
  subnets: {
    hwm: number;
    /** The fresh walk's stride (Subnet.stride); absent in snapshots from when every subnet went in order. */
    stride?: number;
    extent: number;
    counts: [number, number, number, number, number];
    free: Int32Array;
    holders: Int32Array;
  }[];
}

/**
 * Where a block of an earlier pool went: its subnet and ordinal in the pool that took it over, or null when it is gone.
 */
export type BlockMap = (subnet: number, ordinal: number) => { subnet: number; ordinal: number } | null;

/** One configured address pool. */
export class AddressPool {
  readonly config: PoolConfig;
  /**
   * Position in the model's pools (the session table's pool columns hold it); changes when earlier pools are removed.
   */
  index: number;
  readonly cgnTranslated: boolean;
  readonly subnets: Subnet[];
  /** Subnet indices ordered by prefix, for the allocations list. */
  readonly #byPrefix: number[];
  allocationFailures = 0;
  lastExhaustedLogMs = -Infinity;
  #offers = new TimedQueue();
  #quarantine = new TimedQueue();
  /** Reserved blocks as flat (subnet, ordinal) pairs, released by a drain. */
  #reserved: number[] = [];

  constructor(config: PoolConfig, index: number, cgnTranslated: boolean) {
    this.config = config;
    this.index = index;
    this.cgnTranslated = cgnTranslated;
    const exclude = config.exclude.map((e) => parsePrefix(e) as Prefix);
    this.subnets = config.subnets.map(
      (s) => new Subnet(parsePrefix(s.prefix) as Prefix, s.announce, config.delegationLength, exclude),
    );
    this.#byPrefix = this.subnets
      .map((_, i) => i)
      .sort((a, b) => {
        const x = this.subnets[a]?.prefix.base ?? 0n;
        const y = this.subnets[b]?.prefix.base ?? 0n;
        return x < y ? -1 : x > y ? 1 : 0;
      });
    for (const st of config.static) {
      const p = parsePrefix(st.prefix) as Prefix;
      const subnet = this.subnets.find((s) => p.base >= s.prefix.base && p.base <= prefixLast(s.prefix));
      if (!subnet) continue;
      const o = subnet.ordinalOf(Number((p.base - subnet.prefix.base) / prefixSpan(p)));
      if (o < 0 || subnet.holders[o] === STATIC) continue;
      subnet.ensure(o + 1);
      subnet.holders[o] = STATIC;
      subnet.extent = Math.max(subnet.extent, o + 1);
      subnet.statics++;
      subnet.staticUsers.set(o, st.username);
    }
  }

  /** The pool's name. */
  get name(): string {
    return this.config.name;
  }

  /** Allocatable blocks over all subnets. */
  get size(): number {
    return this.subnets.reduce((n, s) => n + s.size, 0);
  }

  /** Held blocks over all subnets. */
  get used(): number {
    return this.subnets.reduce((n, s) => n + s.used, 0);
  }

  /**
   * Offers a block (held as `offered`); counts a failure when no subnet has one free. An IPv4 pool takes it from its
   * least utilised subnet, so its subnets fill together as a random pick over the pool's blocks would fill them;
   * an IPv6 pool from the first subnet in preference order with one free.
   */
  offer(): { ok: true; subnet: number; ordinal: number } | { ok: false; reason: "pool-exhausted" } {
    const spread = this.config.family === "ipv4" && this.subnets.length > 1;
    const order = spread ? this.#byUtilisation() : null;
    for (let j = 0; j < this.subnets.length; j++) {
      const i = order ? (order[j] ?? j) : j;
      const s = this.subnets[i] as Subnet;
      const o = s.take();
      if (o < 0) continue;
      s.holders[o] = OFFERED;
      s.offered++;
      return { ok: true, subnet: i, ordinal: o };
    }
    this.allocationFailures++;
    return { ok: false, reason: "pool-exhausted" };
  }

  /**
   * Offers the block holding one IPv4 address (an Access-Accept's Framed-IP-Address), held as `offered` like
   * `offer`'s: "outside" when no subnet holds it (or it is excluded), "taken" when it is not free.
   */
  offerAddress(address: number): { subnet: number; ordinal: number } | "outside" | "taken" {
    for (let i = 0; i < this.subnets.length; i++) {
      const s = this.subnets[i] as Subnet;
      if (s.prefix.family !== 4) continue;
      const offset = address - Number(s.prefix.base);
      if (offset < 0 || offset >= 2 ** (32 - s.prefix.length)) continue;
      const o = s.ordinalOf(Math.floor(offset / 2 ** s.shift));
      if (o < 0) return "outside";
      s.ensure(o + 1);
      if ((s.holders[o] ?? FREE) !== FREE) return "taken";
      // A block below the high-water mark sits in the free queue too: `take` skips it while it is held.
      s.holders[o] = OFFERED;
      s.offered++;
      if (o >= s.extent) s.extent = o + 1;
      return { subnet: i, ordinal: o };
    }
    return "outside";
  }

  /** Subnet indexes, least utilised first (ties in preference order). */
  #byUtilisation(): number[] {
    const share = this.subnets.map((s) => (s.size > 0 ? s.used / s.size : 1));
    return this.subnets.map((_, i) => i).sort((a, b) => (share[a] ?? 1) - (share[b] ?? 1) || a - b);
  }

  /** Completes an offer: the block is committed to a session slot. */
  commit(subnet: number, ordinal: number, slot: number): void {
    const s = this.subnets[subnet] as Subnet;
    s.holders[ordinal] = slot + 1;
    s.offered--;
    s.committed++;
  }

  /** An abandoned negotiation: the block stays `offered` until the hold lapses. */
  abandon(subnet: number, ordinal: number, nowMs: number, holdSeconds: number): void {
    // Offer expiries are checked once per sub-step; round up so a hold never lapses early.
    this.#offers.push(nowMs + Math.ceil((holdSeconds * 1000) / SUB_STEP_MS) * SUB_STEP_MS, subnet, ordinal);
  }

  /** Withdraws an offer at once (a later setup stage failed). */
  withdraw(subnet: number, ordinal: number): void {
    const s = this.subnets[subnet] as Subnet;
    s.offered--;
    s.give(ordinal);
  }

  /** A DHCP DECLINE: the offered block is quarantined for one hour. */
  decline(subnet: number, ordinal: number, nowMs: number): void {
    const s = this.subnets[subnet] as Subnet;
    s.offered--;
    s.quarantined++;
    s.holders[ordinal] = QUARANTINED;
    this.#quarantine.push(nowMs + DECLINE_QUARANTINE_SECONDS * 1000, subnet, ordinal);
  }

  /** Frees a committed block (session down). */
  release(subnet: number, ordinal: number): void {
    const s = this.subnets[subnet] as Subnet;
    s.committed--;
    s.give(ordinal);
  }

  /** Returns lapsed offers and expired quarantines to the free queue. */
  expire(nowMs: number): void {
    this.#offers.drain(nowMs, (subnet, ordinal) => {
      const s = this.subnets[subnet] as Subnet;
      if (s.holders[ordinal] !== OFFERED) return;
      s.offered--;
      s.give(ordinal);
    });
    this.#quarantine.drain(nowMs, (subnet, ordinal) => {
      const s = this.subnets[subnet] as Subnet;
      if (s.holders[ordinal] !== QUARANTINED) return;
      s.quarantined--;
      s.give(ordinal);
    });
  }

  /** Scenario fill: reserves `percent` of the free blocks. */
  fill(percent: number): { ok: true; reserved: number } | { ok: false; reason: "fill-too-large" } {
    const want = Math.floor(((this.size - this.used) * percent) / 100);
    if (want > MAX_FILL_BLOCKS) return { ok: false, reason: "fill-too-large" };
    let got = 0;
    for (let i = 0; i < this.subnets.length && got < want; i++) {
      const s = this.subnets[i] as Subnet;
      while (got < want) {
        const o = s.take();
        if (o < 0) break;
        s.holders[o] = RESERVED;
        s.reserved++;
        this.#reserved.push(i, o);
        got++;
      }
    }
    return { ok: true, reserved: got };
  }

  /** Scenario drain: releases every reserved block. */
  drain(): number {
    let n = 0;
    for (let k = 0; k < this.#reserved.length; k += 2) {
      const s = this.subnets[this.#reserved[k] ?? 0] as Subnet;
      const o = this.#reserved[k + 1] ?? 0;
      // A reserved block claimed since by a configured subscriber stays with it.
      if (s.holders[o] !== RESERVED) continue;
      s.reserved--;
      s.give(o);
      n++;
    }
    this.#reserved = [];
    return n;
  }

  /**
   * Holds one block for a configured (local) subscriber: counted as static and
   * never offered until `releaseStatic`. A block committed to a live session
   * is refused with that session's slot (the caller disconnects it and claims
   * again); an offered, quarantined or reserved block is taken over.
   */
  claimStatic(
    block: Prefix,
  ):
    | { ok: true; subnet: number; ordinal: number }
    | { ok: false; reason: "outside" | "excluded" | "static" }
    | { ok: false; reason: "committed"; slot: number } {
    const si = this.subnets.findIndex(
      (s) => prefixContains(s.prefix, block) && block.length === this.config.delegationLength,
    );
    const s = this.subnets[si];
    if (!s) return { ok: false, reason: "outside" };
    const o = s.ordinalOf(Number((block.base - s.prefix.base) / prefixSpan(block)));
    if (o < 0) return { ok: false, reason: "excluded" };
    s.ensure(o + 1);
    const h = s.holders[o] ?? FREE;
    if (h === STATIC) return { ok: false, reason: "static" };
    if (h > 0) return { ok: false, reason: "committed", slot: h - 1 };
    // Offer holds, quarantines and reservations check the holder when they lapse, so they skip this block.
    if (h === OFFERED) s.offered--;
    else if (h === QUARANTINED) s.quarantined--;
    else if (h === RESERVED) s.reserved--;
    s.holders[o] = STATIC;
    s.statics++;
    if (o >= s.extent) s.extent = o + 1;
    return { ok: true, subnet: si, ordinal: o };
  }

  /** Returns a block held by `claimStatic` to the pool. */
  releaseStatic(subnet: number, ordinal: number): void {
    const s = this.subnets[subnet] as Subnet;
    if (s.holders[ordinal] !== STATIC) return;
    s.statics--;
    // Once its fresh turn has come only the free queue hands a block out; before it, the fresh walk finds it.
    if (s.handedOut(ordinal)) s.give(ordinal);
    else s.holders[ordinal] = FREE;
  }

  /** The uint32 IPv4 address of a block. */
  ipv4(subnet: number, ordinal: number): number {
    return (this.subnets[subnet] as Subnet).ipv4(ordinal);
  }

  /** The block as text: an IPv4 address for /32 pools, else `prefix/length`. */
  text(subnet: number, ordinal: number): string {
    return (this.subnets[subnet] as Subnet).text(ordinal, this.config.delegationLength);
  }

  /** A block's first address, as a number for the routing table (the block is `delegationLength` long). */
  blockBase(subnet: number, ordinal: number): bigint {
    const s = this.subnets[subnet] as Subnet;
    return s.prefix.base + (BigInt(s.blockOf(ordinal)) << BigInt(s.shift));
  }

  /** The subnet prefix a block came from. */
  subnetPrefix(subnet: number): Prefix {
    return (this.subnets[subnet] as Subnet).prefix;
  }

  /** Ordinal range [lo, hi] of a subnet's blocks overlapping `query`, or null. */
  ordinalRange(subnet: number, query: Prefix): [number, number] | null {
    const s = this.subnets[subnet] as Subnet;
    if (query.family !== s.prefix.family) return null;
    const lo = query.base > s.prefix.base ? query.base : s.prefix.base;
    const qLast = prefixLast(query);
    const sLast = prefixLast(s.prefix);
    const hi = qLast < sLast ? qLast : sLast;
    if (lo > hi) return null;
    const first = s.ordinalAtOrAfter(Number((lo - s.prefix.base) >> BigInt(s.shift)));
    const lastBlock = Number((hi - s.prefix.base) >> BigInt(s.shift));
    const last = s.ordinalAtOrAfter(lastBlock + 1) - 1;
    return first <= last ? [first, last] : null;
  }

  /**
   * Visits the session slots holding committed blocks of a subnet, from
   * ordinal `first` to `last`: the pool's holder table is the index from an
   * address to its session, so an address filter reads only its range.
   */
  committedBetween(subnet: number, range: [number, number], visit: (slot: number) => void): void {
    const s = this.subnets[subnet] as Subnet;
    const last = Math.min(range[1], s.extent - 1);
    for (let o = Math.max(0, range[0]); o <= last; o++) {
      const h = s.holders[o] ?? FREE;
      if (h > 0) visit(h - 1);
    }
  }

  /**
   * A subnet's holder table as it stands (slot + 1 per ordinal, FREE or a negative mark otherwise) and its materialised
   * length: read-only, for passes that would pay a call per block through committedBetween.
   */
  holderTable(subnet: number): { holders: Int32Array; extent: number } {
    const s = this.subnets[subnet] as Subnet;
    return { holders: s.holders, extent: Math.min(s.extent, s.holders.length) };
  }

  /** Ordinal range [lo, hi] of a subnet's blocks whose first address lies in [first, last], or null. */
  ordinalsStartingIn(subnet: number, first: bigint, last: bigint): [number, number] | null {
    const s = this.subnets[subnet] as Subnet;
    const sLast = prefixLast(s.prefix);
    if (last < s.prefix.base || first > sLast) return null;
    const size = 1n << BigInt(s.shift);
    const from = first > s.prefix.base ? (first - s.prefix.base + size - 1n) >> BigInt(s.shift) : 0n;
    const to = ((last < sLast ? last : sLast) - s.prefix.base) >> BigInt(s.shift);
    if (from > to) return null;
    const lo = s.ordinalAtOrAfter(Number(from));
    const hi = s.ordinalAtOrAfter(Number(to) + 1) - 1;
    return lo <= hi ? [lo, hi] : null;
  }

  /** The spec's AddressPool view. */
  view(): AddressPoolView {
    const subnets = this.subnets.map((s) => ({
      prefix: formatPrefix(s.prefix),
      announce: s.announce,
      size: s.size,
      used: s.used,
      free: s.size - s.used,
      offered: s.offered,
      quarantined: s.quarantined,
    }));
    const size = this.size;
    const used = this.used;
    return {
      name: this.config.name,
      family: this.config.family,
      vrf: this.config.vrf,
      delegationLength: this.config.delegationLength,
      description: this.config.description,
      size,
      used,
      free: size - used,
      offered: subnets.reduce((n, s) => n + s.offered, 0),
      quarantined: subnets.reduce((n, s) => n + s.quarantined, 0),
      utilisationPercent: percent(used, size),
      allocationFailures: this.allocationFailures,
      cgnTranslated: this.cgnTranslated,
      exclude: [...this.config.exclude],
      subnets,
    };
  }

  /**
   * Held blocks ordered by prefix, paged; total equals `used`. `staticHolder`
   * names the configured subscriber (and its live session) of a claimed block.
   */
  allocations(
    offset: number,
    limit: number,
    holder: (slot: number) => HolderInfo,
    staticHolder: (subnet: number, ordinal: number) => HolderInfo | null = () => null,
  ): { total: number; items: AddressPoolAllocation[] } {
    const items: AddressPoolAllocation[] = [];
    const vrf = this.config.vrf ?? "default";
    let seen = 0;
    for (const si of this.#byPrefix) {
      const s = this.subnets[si] as Subnet;
      if (seen + s.used <= offset) {
        seen += s.used;
        continue;
      }
      for (let o = 0; o < s.extent && items.length < limit; o++) {
        const h = s.holders[o] ?? FREE;
        if (h === FREE) continue;
        if (seen++ < offset) continue;
        const prefix = s.text(o, this.config.delegationLength);
        if (h > 0) {
          const info = holder(h - 1);
          items.push({
            prefix,
            kind: "dynamic",
            sessionId: info.sessionId,
            username: info.username,
            vrf: info.vrf,
            static: false,
          });
        } else if (h === STATIC) {
          const local = staticHolder(si, o);
          if (local)
            items.push({
              prefix,
              kind: "static",
              sessionId: local.sessionId,
              username: local.username,
              vrf: local.vrf,
              static: true,
            });
          else
            items.push({
              prefix,
              kind: "static",
              sessionId: 0,
              username: s.staticUsers.get(o) ?? "",
              vrf,
              static: true,
            });
        } else {
          const kind = h === OFFERED ? "offered" : h === QUARANTINED ? "quarantined" : "reserved";
          items.push({ prefix, kind, sessionId: 0, username: "", vrf, static: false });
        }
      }
      if (items.length >= limit) break;
    }
    return { total: this.used, items };
  }

  /** Every committed block as (subnet, ordinal, slot) triples, for consistency checks. */
  committedBlocks(visit: (subnet: number, ordinal: number, slot: number) => void): void {
    this.subnets.forEach((s, si) => {
      for (let o = 0; o < s.extent; o++) {
        const h = s.holders[o] ?? FREE;
        if (h > 0) visit(si, o, h - 1);
      }
    });
  }

  /**
   * Where each block of `old` (a pool of the same name, family, VRF and
   * delegation length) lands in this one: subnets are matched by prefix and
   * blocks by address, so a block of a removed subnet, or one a new exclude
   * covers, maps to null. Reads nothing but the two pools' shapes.
   */
  mapFrom(old: AddressPool): BlockMap {
    const to = old.subnets.map((os) =>
      this.subnets.findIndex((ns) => ns.prefix.base === os.prefix.base && ns.prefix.length === os.prefix.length),
    );
    return (subnet, ordinal) => {
      const k = to[subnet] ?? -1;
      const os = old.subnets[subnet];
      const ns = this.subnets[k];
      if (!os || !ns) return null;
      const o = ns.ordinalOf(os.blockOf(ordinal));
      return o < 0 ? null : { subnet: k, ordinal: o };
    };
  }

  /**
   * Takes over the state of `old` through `map` (from `mapFrom`): holders,
   * free queues and high-water marks of the kept subnets, pending offer
   * expiries, quarantines and reservations, and the failure counter. Blocks
   * that map to null are dropped with whatever held them (the caller has
   * disconnected the sessions among them). Blocks an exclude no longer covers
   * become free at once; a kept subnet hands out blocks in the order it would
   * have.
   */
  adopt(old: AddressPool, map: BlockMap): void {
    this.allocationFailures = old.allocationFailures;
    this.lastExhaustedLogMs = old.lastExhaustedLogMs;
    for (const os of old.subnets) {
      const ns = this.subnets.find((s) => s.prefix.base === os.prefix.base && s.prefix.length === os.prefix.length);
      if (!ns) continue;
      let extent = ns.extent;
      for (let o = 0; o < os.extent; o++) {
        const h = os.holders[o] ?? FREE;
        if (h === FREE) continue;
        const t = ns.ordinalOf(os.blockOf(o));
        if (t < 0) continue;
        ns.ensure(t + 1);
        ns.holders[t] = h;
        const user = os.staticUsers.get(o);
        if (h === STATIC && user !== undefined) ns.staticUsers.set(t, user);
        if (t >= extent) extent = t + 1;
      }
      // In order (stride 1): the first block the old subnet had not reached yet is where this one's scan goes on.
      // Spread: the same walk goes on where the size is the same; otherwise it starts again (it skips held blocks,
      // and the free ones already handed out are in the queue below).
      if (ns.stride === 1)
        ns.hwm = os.hwm >= os.size ? ns.size : Math.min(ns.size, ns.ordinalAtOrAfter(os.blockOf(os.hwm)));
      else ns.hwm = ns.size === os.size && ns.stride === os.stride ? os.hwm : 0;
      if (ns.stride === 1) ns.ensure(ns.hwm);
      ns.extent = Math.max(extent, ns.stride === 1 ? ns.hwm : 0);
      const queued = new Set<number>();
      const free = new IntQueue();
      for (const o of os.free.toArray()) {
        const t = ns.ordinalOf(os.blockOf(o));
        if (t < 0 || queued.has(t)) continue;
        queued.add(t);
        free.push(t);
      }
      // Once handed out, only the queue hands blocks out: a block freed by a dropped exclude joins it.
      for (let k = 0; k < ns.hwm; k++) {
        const t = ns.fresh(k);
        ns.ensure(t + 1);
        if (t >= ns.extent) ns.extent = t + 1;
        if (ns.holders[t] === FREE && !queued.has(t)) {
          queued.add(t);
          free.push(t);
        }
      }
      ns.free = free;
      ns.recount();
    }
    const remap = (flat: readonly number[], into: TimedQueue) => {
      for (let i = 0; i + 2 < flat.length; i += 3) {
        const to = map(flat[i + 1] ?? 0, flat[i + 2] ?? 0);
        if (to) into.push(flat[i] ?? 0, to.subnet, to.ordinal);
      }
    };
    remap(old.#offers.toArray(), this.#offers);
    remap(old.#quarantine.toArray(), this.#quarantine);
    for (let k = 0; k + 1 < old.#reserved.length; k += 2) {
      const to = map(old.#reserved[k] ?? 0, old.#reserved[k + 1] ?? 0);
      if (to) this.#reserved.push(to.subnet, to.ordinal);
    }
  }

  /** State for a snapshot. */
  exportState(): PoolState {
    return {
      allocationFailures: this.allocationFailures,
      lastExhaustedLogMs: Number.isFinite(this.lastExhaustedLogMs) ? this.lastExhaustedLogMs : -1e15,
      offers: this.#offers.toArray(),
      quarantine: this.#quarantine.toArray(),
      reservedList: [...this.#reserved],
      subnets: this.subnets.map((s) => ({
        hwm: s.hwm,
        stride: s.stride,
        extent: s.extent,
        counts: [s.committed, s.offered, s.quarantined, s.statics, s.reserved],
        free: s.free.toArray(),
        // A view: the snapshot copies it.
        holders: s.holders.subarray(0, s.extent),
      })),
    };
  }

  /** Restores snapshot state onto a pool built from the same profile. */
  importState(state: PoolState): void {
    this.allocationFailures = state.allocationFailures;
    this.lastExhaustedLogMs = state.lastExhaustedLogMs;
    this.#offers = TimedQueue.from(state.offers);
    this.#quarantine = TimedQueue.from(state.quarantine);
    this.#reserved = [...state.reservedList];
    state.subnets.forEach((st, i) => {
      const s = this.subnets[i];
      if (!s) return;
      // A walk in another order (a snapshot from before the spread, or of another size) starts again: it skips the
      // held blocks, and the free ones handed out before are in the queue.
      s.hwm = (st.stride ?? 1) === s.stride ? st.hwm : 0;
      s.extent = st.extent;
      [s.committed, s.offered, s.quarantined, s.statics, s.reserved] = st.counts;
      s.free = IntQueue.from(st.free);
      s.holders = new Int32Array(Math.max(64, st.holders.length));
      s.holders.set(st.holders);
    });
  }
}

/** used / size as a percentage with two decimals (0 for an empty pool). */
export function percent(used: number, size: number): number {
  return size > 0 ? Math.round((used / size) * 10_000) / 100 : 0;
}

/** A stride near the golden ratio of `size` that is coprime with it: k → stride × k mod size is then a permutation. */
function spreadingStride(size: number): number {
  if (size <= 2) return 1;
  let a = Math.max(1, Math.round(size * 0.6180339887));
  while (gcd(a, size) !== 1) a++;
  return a;
}

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}

/** The inverse of `a` modulo `m` (a and m coprime), by the extended Euclidean algorithm. */
function modInverse(a: number, m: number): number {
  if (m <= 1) return 0;
  let [r0, r1, t0, t1] = [m, a % m, 0, 1];
  while (r1 !== 0) {
    const q = Math.floor(r0 / r1);
    [r0, r1] = [r1, r0 - q * r1];
    [t0, t1] = [t1, t0 - q * t1];
  }
  return ((t0 % m) + m) % m;
}
