/**
 * Carrier-grade NAT (spec CGN section). Each private-IPv4 subscriber gets a
 * binding: one public address (RFC 6888 REQ-2, "paired" pooling: every port
 * block of a subscriber on the same public address) and port blocks of
 * `chunkSize` ports from 1024-65535 (RFC 6888 REQ-3 keeps well-known ports
 * out), grown as the subscriber's flows grow, up to `portCap`. Released
 * blocks sit in quarantine for `quarantineSeconds` so a port is not reused
 * for another subscriber while remote peers may still address it (RFC 6888
 * §5 on port reuse). Bindings are struct-of-arrays indexed by bindingIndex.
 */
import { SUB_STEP_SECONDS, isoTime } from "./clock.ts";
import type { LogRing } from "./logs.ts";
import type { CgnGroupConfig, Profile } from "./profile.ts";
import { formatIpv4, ipv4Range, ipv4TextRanges, parsePrefix, type Prefix } from "./prefix.ts";
import type { Random } from "./random.ts";
import { TimedQueue } from "./queues.ts";
import type { CgnBindingRow, CgnBindingsPage, CgnBindingsQuery, CgnStatus } from "../src/schemas/cgn.ts";
import { BindingIndex } from "./cgn-index.ts";
import { pageOfBits, setBit } from "./bits.ts";

/** First port handed out (RFC 6888 REQ-3: no well-known ports). */
export const FIRST_PORT = 1024;
const PORTS = 65536 - FIRST_PORT;

const CHUNK_FREE = 0;
const CHUNK_QUARANTINED = -1;
const CHUNK_RESERVED = -2;

/** Why a binding could not be created. */
export type BindingRefusal = "max-bindings" | "no-free-chunk" | "setup-rate";

/** Filters and paging of the bindings list: the contract's query, each part optional for the model's own callers. */
export type BindingQuery = Partial<CgnBindingsQuery>;

/** Runtime state of one CGN group. */
class Group {
  readonly config: CgnGroupConfig;
  readonly publicIps: Uint32Array;
  readonly chunksPerIp: number;
  readonly totalChunks: number;
  readonly bypass: { first: number; last: number }[];
  readonly autoLearn: { vrf: number; ranges: { first: number; last: number }[]; span: number }[];
  owner: Int32Array;
  ipFree: Int32Array;
  cursor = 0;
  free: number;
  quarantined = 0;
  reserved = 0;
  active = 0;
  /**
   * Port blocks handed to bindings (first blocks and extensions) since the data plane booted; a scenario fill's
   * reservations are not allocations.
   */
  allocations = 0;
  setupsThisStep = 0;
  lastRefusalLogMs = -1e15;
  quarantine = new TimedQueue();
  reservedList: number[] = [];

  constructor(config: CgnGroupConfig, vrfIndex: (name: string) => number) {
    this.config = config;
    const ips: number[] = [];
    for (const text of config.publicSubnets) {
      const { first, last } = ipv4Range(parsePrefix(text) as Prefix);
      for (let a = first; a <= last; a++) ips.push(a);
    }
    this.publicIps = Uint32Array.from(ips);
    this.chunksPerIp = Math.floor(PORTS / config.chunkSize);
    this.totalChunks = this.publicIps.length * this.chunksPerIp;
    this.owner = new Int32Array(this.totalChunks);
    this.ipFree = new Int32Array(this.publicIps.length).fill(this.chunksPerIp);
    this.free = this.totalChunks;
    this.bypass = config.bypassPrefixes.map((t) => ipv4Range(parsePrefix(t) as Prefix));
    this.autoLearn = config.autoLearn.map((a) => {
      const ranges = a.prefixes.map((t) => ipv4Range(parsePrefix(t) as Prefix));
      return { vrf: vrfIndex(a.insideVrf), ranges, span: ranges.reduce((n, r) => n + (r.last - r.first + 1), 0) };
    });
  }

  /** Chunks held by bindings or reserved by a scenario fill. */
  get used(): number {
    return this.totalChunks - this.free - this.quarantined;
  }

  /** Takes a free chunk on a public address, or -1. */
  takeOnIp(ip: number): number {
    if ((this.ipFree[ip] ?? 0) <= 0) return -1;
    const base = ip * this.chunksPerIp;
    for (let k = 0; k < this.chunksPerIp; k++) {
      if (this.owner[base + k] === CHUNK_FREE) {
        this.ipFree[ip] = (this.ipFree[ip] ?? 0) - 1;
        this.free--;
        return base + k;
      }
    }
    return -1;
  }

  /** A public address with a free chunk, round-robin, or -1. */
  pickIp(): number {
    const n = this.publicIps.length;
    for (let step = 0; step < n; step++) {
      const ip = (this.cursor + step) % n;
      if ((this.ipFree[ip] ?? 0) > 0) {
        this.cursor = (ip + 1) % n;
        return ip;
      }
    }
    return -1;
  }

  /** Marks a chunk free again. */
  toFree(chunk: number): void {
    this.owner[chunk] = CHUNK_FREE;
    const ip = Math.floor(chunk / this.chunksPerIp);
    this.ipFree[ip] = (this.ipFree[ip] ?? 0) + 1;
    this.free++;
  }
}

/** What happened to a port block, as CGN compliance logging records it. */
export type PortBlockEventKind = "allocated" | "released" | "identified";

/**
 * One compliance record (RFC 6888 REQ-12, RFC 7422's port-block logging):
 * who held which public port range when. The model only tells of it; where
 * records go (the object's logger driver) is not its business.
 */
export interface PortBlockRecord {
  kind: PortBlockEventKind;
  timeMs: number;
  bindingIndex: number;
  group: string;
  publicIp: string;
  portBlock: string;
  insideVrf: string;
  insideIp: string;
  sessionId: number;
  subscriberId: string | null;
}

/** Serialisable CGN state. */
export interface CgnState {
  counters: CgnStatus["nativeCounters"];
  totalFlows: number;
  highWater: number;
  eventsThisStep: number;
  freeSlots: Int32Array;
  identified: [number, string][];
  groups: {
    owner: Int32Array;
    ipFree: Int32Array;
    cursor: number;
    counts: [number, number, number, number, number];
    lastRefusalLogMs: number;
    /** Absent in snapshots written before it was counted. */
    allocations?: number;
    quarantine: number[];
    reservedList: number[];
  }[];
  arrays: Record<string, Uint8Array | Int32Array | Uint32Array | Float64Array>;
}

/** The CGN engine: groups, bindings and counters. */
export class Cgn {
  readonly groups: Group[];
  readonly maxChunks: number;
  readonly #config: Profile["cgn"];
  /**
   * Each group's block size and per-binding port cap, and the global flow limit, as numbers setFlows reads without a
   * property walk.
   */
  readonly #chunkSize: Int32Array;
  readonly #portCap: Int32Array;
  readonly #maxFlows: number;
  readonly #vrfNames: readonly string[];
  readonly #logs: LogRing;
  /** Group index per VRF index, -1 when the VRF is not translated. */
  readonly groupOfVrf: Int16Array;
  // Binding struct-of-arrays, indexed by bindingIndex.
  alive: Uint8Array;
  group: Uint8Array;
  vrf: Uint8Array;
  insideIp: Uint32Array;
  ipIndex: Int32Array;
  sessionId: Uint32Array;
  sessionSlot: Int32Array;
  autoLearned: Uint8Array;
  createdMs: Float64Array;
  expiresMs: Float64Array;
  flows: Int32Array;
  nChunks: Uint8Array;
  chunks: Int32Array;
  #freeSlots: Int32Array;
  #freeTop: number;
  /** Binding indices the arrays currently hold. */
  #allocated: number;
  highWater = 0;
  activeTotal = 0;
  autoLearnedTotal = 0;
  totalFlows = 0;
  counters = { autolearnMisses: 0, noMapping: 0, extensionWanted: 0, eventRingDrops: 0 };
  #eventsThisStep = 0;
  #identified = new Map<number, string>();
  #autoIndex = new Map<number, number>();
  /**
   * Told of every port block allocated, released or identified (the gateway's compliance fan-out); null = nobody
   * listens.
   */
  onPortBlock: ((kind: PortBlockEventKind, nowMs: number, b: number, chunk: number) => void) | null = null;
  /** What the bindings list's filters read (cgn-index.ts). */
  #index: BindingIndex;

  constructor(config: Profile["cgn"], vrfNames: readonly string[], logs: LogRing) {
    this.#config = config;
    this.#vrfNames = vrfNames;
    this.#logs = logs;
    const vrfIndex = (name: string): number => vrfNames.indexOf(name);
    this.groups = config.groups.map((g) => new Group(g, vrfIndex));
    this.#chunkSize = Int32Array.from(config.groups, (g) => g.chunkSize);
    this.#portCap = Int32Array.from(config.groups, (g) => g.portCap);
    this.#maxFlows = config.maxFlows;
    this.maxChunks = Math.max(1, ...config.groups.map((g) => g.portCap / g.chunkSize));
    this.groupOfVrf = new Int16Array(vrfNames.length).fill(-1);
    config.groups.forEach((g, gi) => g.insideVrfs.forEach((v) => (this.groupOfVrf[vrfIndex(v)] = gi)));
    // Allocated for the bindings in use and grown by a quarter (sessions.ts does the same): maxBindings is a ceiling,
    // not the usual count.
    const cap = Math.min(config.maxBindings, 1024);
    this.#allocated = cap;
    this.alive = new Uint8Array(cap);
    this.group = new Uint8Array(cap);
    this.vrf = new Uint8Array(cap);
    this.insideIp = new Uint32Array(cap);
    this.ipIndex = new Int32Array(cap);
    this.sessionId = new Uint32Array(cap);
    this.sessionSlot = new Int32Array(cap).fill(-1);
    this.autoLearned = new Uint8Array(cap);
    this.createdMs = new Float64Array(cap);
    this.expiresMs = new Float64Array(cap);
    this.flows = new Int32Array(cap);
    this.nChunks = new Uint8Array(cap);
    this.chunks = new Int32Array(cap * this.maxChunks);
    this.#index = new BindingIndex(config.groups.length, vrfNames.length);
    this.#index.grow(cap);
    // Lowest bindingIndex first: the stack holds cap-1 … 0, and indices added by growth go beneath the freed ones.
    this.#freeSlots = new Int32Array(cap);
    for (let i = 0; i < cap; i++) this.#freeSlots[i] = cap - 1 - i;
    this.#freeTop = cap;
  }

  /** Grows the binding arrays to hold at least `n` bindings (at most maxBindings); new indices are free. */
  #ensure(n: number): void {
    const want = Math.min(this.#config.maxBindings, n);
    const old = this.#allocated;
    if (want <= old) return;
    const grow = <T extends Uint8Array | Uint32Array | Int32Array | Float64Array>(a: T, length: number): T => {
      const next = new (a.constructor as new (length: number) => T)(length);
      next.set(a);
      return next;
    };
    this.alive = grow(this.alive, want);
    this.group = grow(this.group, want);
    this.vrf = grow(this.vrf, want);
    this.insideIp = grow(this.insideIp, want);
    this.ipIndex = grow(this.ipIndex, want);
    this.sessionId = grow(this.sessionId, want);
    this.sessionSlot = grow(this.sessionSlot, want);
    this.sessionSlot.fill(-1, old);
    this.autoLearned = grow(this.autoLearned, want);
    this.createdMs = grow(this.createdMs, want);
    this.expiresMs = grow(this.expiresMs, want);
    this.flows = grow(this.flows, want);
    this.nChunks = grow(this.nChunks, want);
    this.chunks = grow(this.chunks, want * this.maxChunks);
    const free = new Int32Array(want);
    for (let i = 0; i < want - old; i++) free[i] = want - 1 - i;
    free.set(this.#freeSlots.subarray(0, this.#freeTop), want - old);
    this.#freeSlots = free;
    this.#freeTop += want - old;
    this.#allocated = want;
    this.#index.grow(want);
  }

  /** Whether an inside address of a VRF is translated: the VRF is bound to a group and the address is not bypassed. */
  groupFor(vrf: number, insideIp: number): number {
    const g = this.groupOfVrf[vrf] ?? -1;
    if (g < 0) return -1;
    for (const r of (this.groups[g] as Group).bypass) if (insideIp >= r.first && insideIp <= r.last) return -1;
    return g;
  }

  /** Starts a sub-step: resets per-step setup and event budgets. */
  beginStep(): void {
    for (const g of this.groups) g.setupsThisStep = 0;
    this.#eventsThisStep = 0;
  }

  /** Ends a sub-step: events beyond the logger ring's drain rate are dropped (nativeCounters.eventRingDrops). */
  endStep(): void {
    const capacity = this.#config.eventRingPerSecond * SUB_STEP_SECONDS;
    if (this.#eventsThisStep > capacity) this.counters.eventRingDrops += this.#eventsThisStep - capacity;
    this.#eventsThisStep = 0;
  }

  /** Creates a binding with one port block on a public address. */
  create(
    nowMs: number,
    gi: number,
    vrf: number,
    insideIp: number,
    sessionId: number,
    sessionSlot: number,
    autoLearned: boolean,
  ): { ok: true; binding: number } | { ok: false; reason: BindingRefusal } {
    const g = this.groups[gi] as Group;
    let refusal: BindingRefusal | null = null;
    let ip = -1;
    if (this.#freeTop === 0) this.#ensure(Math.ceil(this.#allocated * 1.25));
    if (this.activeTotal >= this.#config.maxBindings || this.#freeTop === 0) refusal = "max-bindings";
    else if (g.setupsThisStep >= g.config.setupsPerSec * SUB_STEP_SECONDS) refusal = "setup-rate";
    else if ((ip = g.pickIp()) < 0) refusal = "no-free-chunk";
    if (refusal !== null) {
      if (nowMs - g.lastRefusalLogMs >= 60_000) {
        g.lastRefusalLogMs = nowMs;
        this.#logs.emit(nowMs, "cgn.binding-refused", { group: g.config.name, reason: refusal });
      }
      return { ok: false, reason: refusal };
    }
    const chunk = g.takeOnIp(ip);
    const b = this.#freeSlots[--this.#freeTop] ?? 0;
    g.owner[chunk] = b + 1;
    g.allocations++;
    g.setupsThisStep++;
    g.active++;
    this.activeTotal++;
    this.#eventsThisStep++;
    if (b >= this.highWater) this.highWater = b + 1;
    this.alive[b] = 1;
    this.group[b] = gi;
    this.vrf[b] = vrf;
    this.insideIp[b] = insideIp;
    this.ipIndex[b] = ip;
    this.sessionId[b] = sessionId;
    this.sessionSlot[b] = sessionSlot;
    this.autoLearned[b] = autoLearned ? 1 : 0;
    this.createdMs[b] = nowMs;
    this.expiresMs[b] = 0;
    this.flows[b] = 0;
    this.nChunks[b] = 1;
    this.chunks[b * this.maxChunks] = chunk;
    this.#index.add(b, gi, vrf, insideIp);
    if (autoLearned) {
      this.autoLearnedTotal++;
      this.#autoIndex.set(autoKey(vrf, insideIp), b);
    }
    this.onPortBlock?.("allocated", nowMs, b, chunk);
    return { ok: true, binding: b };
  }

  /** Removes a binding; its port blocks go to quarantine. */
  release(nowMs: number, b: number): void {
    if (this.alive[b] !== 1) return;
    const g = this.groups[this.group[b] ?? 0] as Group;
    const n = this.nChunks[b] ?? 0;
    for (let k = 0; k < n; k++) {
      const chunk = this.chunks[b * this.maxChunks + k] ?? 0;
      this.onPortBlock?.("released", nowMs, b, chunk);
      this.#quarantineChunk(nowMs, g, chunk);
    }
    this.totalFlows -= this.flows[b] ?? 0;
    this.flows[b] = 0;
    this.nChunks[b] = 0;
    this.alive[b] = 0;
    this.sessionSlot[b] = -1;
    this.#index.remove(b, this.group[b] ?? 0, this.vrf[b] ?? 0, this.insideIp[b] ?? 0);
    g.active--;
    this.activeTotal--;
    if (this.autoLearned[b] === 1) {
      this.autoLearnedTotal--;
      this.#autoIndex.delete(autoKey(this.vrf[b] ?? 0, this.insideIp[b] ?? 0));
    }
    this.#identified.delete(b);
    this.#freeSlots[this.#freeTop++] = b;
  }

  /**
   * Sets a binding's concurrent flows, growing or shrinking its port blocks.
   * Flows beyond `portCap`, beyond the global `maxFlows`, or beyond the blocks
   * its public address can still give count as `noMapping`.
   */
  setFlows(nowMs: number, b: number, wanted: number): void {
    const gi = this.group[b] ?? 0;
    const old = this.flows[b] ?? 0;
    if (wanted <= (this.#portCap[gi] ?? 0) && (wanted <= old || this.totalFlows + (wanted - old) <= this.#maxFlows)) {
      // Flows within every limit that keep the block count within its hysteresis change only the counts: the
      // traffic loop asks once per binding per step, and almost every answer is this one.
      const needed = Math.max(1, Math.ceil(wanted / (this.#chunkSize[gi] ?? 1)));
      const n = this.nChunks[b] ?? 1;
      if (needed <= n && needed >= n - 1) {
        this.flows[b] = wanted;
        this.totalFlows += wanted - old;
        return;
      }
    }
    this.#resize(nowMs, b, wanted);
  }

  /** setFlows' general case: a cap clips the flows, or the binding gains a block or gives one back. */
  #resize(nowMs: number, b: number, wanted: number): void {
    const g = this.groups[this.group[b] ?? 0] as Group;
    const old = this.flows[b] ?? 0;
    const chunkSize = g.config.chunkSize;
    let f = wanted;
    if (f > g.config.portCap) {
      this.counters.noMapping += f - g.config.portCap;
      f = g.config.portCap;
    }
    if (f > old && this.totalFlows + (f - old) > this.#config.maxFlows) {
      const allowed = Math.max(old, this.#config.maxFlows - this.totalFlows + old);
      this.counters.noMapping += f - allowed;
      f = allowed;
    }
    const needed = Math.max(1, Math.ceil(f / chunkSize));
    let n = this.nChunks[b] ?? 1;
    const base = b * this.maxChunks;
    if (needed > n) {
      const ip = this.ipIndex[b] ?? 0;
      while (n < needed) {
        const chunk = g.takeOnIp(ip);
        if (chunk < 0) {
          // Paired pooling forbids spilling onto another address: the extension is wanted but refused.
          this.counters.extensionWanted++;
          this.counters.noMapping += f - n * chunkSize;
          f = n * chunkSize;
          break;
        }
        g.owner[chunk] = b + 1;
        g.allocations++;
        this.chunks[base + n] = chunk;
        n++;
        this.#eventsThisStep++;
        this.onPortBlock?.("allocated", nowMs, b, chunk);
      }
    } else if (needed < n - 1) {
      // Hysteresis of one block: shrink only when two blocks are idle, so a binding at a block boundary does not churn.
      n--;
      this.onPortBlock?.("released", nowMs, b, this.chunks[base + n] ?? 0);
      this.#quarantineChunk(nowMs, g, this.chunks[base + n] ?? 0);
    }
    this.nChunks[b] = n;
    this.flows[b] = f;
    this.totalFlows += f - old;
  }

  /** Per sub-step work: quarantine expiry, auto-learned sources arriving and timing out. */
  tick(nowMs: number, rng: Random): void {
    for (const g of this.groups) {
      g.quarantine.drain(nowMs, (chunk) => {
        if (g.owner[chunk] !== CHUNK_QUARANTINED) return;
        g.quarantined--;
        g.toFree(chunk);
      });
    }
    if (this.#autoIndex.size > 0) {
      const expired: number[] = [];
      for (const b of this.#autoIndex.values()) if ((this.expiresMs[b] ?? 0) <= nowMs) expired.push(b);
      expired.sort((x, y) => x - y);
      for (const b of expired) this.release(nowMs, b);
    }
    this.groups.forEach((g, gi) => {
      if (g.autoLearn.length === 0) return;
      const arrivals = rng.poisson(g.config.autoLearnSourcesPerSecond * SUB_STEP_SECONDS);
      for (let k = 0; k < arrivals; k++) {
        const entry = g.autoLearn[rng.int(g.autoLearn.length)];
        if (!entry) continue;
        let x = rng.int(entry.span);
        let ip = 0;
        for (const r of entry.ranges) {
          const n = r.last - r.first + 1;
          if (x < n) {
            ip = r.first + x;
            break;
          }
          x -= n;
        }
        // A source stays active for an exponential time (mean ten minutes), then idles out after bindingTimeoutSeconds.
        const activeMs = -Math.log(1 - rng.float()) * 600_000;
        const expires = nowMs + activeMs + g.config.bindingTimeoutSeconds * 1000;
        const existing = this.#autoIndex.get(autoKey(entry.vrf, ip));
        if (existing !== undefined) {
          this.expiresMs[existing] = Math.max(this.expiresMs[existing] ?? 0, expires);
          continue;
        }
        const created = this.create(nowMs, gi, entry.vrf, ip, 0, -1, true);
        if (!created.ok) {
          this.counters.autolearnMisses++;
          continue;
        }
        this.expiresMs[created.binding] = expires;
        this.setFlows(nowMs, created.binding, 8 + rng.int(48));
      }
    });
  }

  /**
   * Identifies an auto-learned binding (spec: only auto-learned bindings can be identified); one Identify event per
   * port block.
   */
  identify(
    nowMs: number,
    b: number,
    subscriberId: string,
    usernameOf: (slot: number) => string,
  ): { ok: true; binding: CgnBindingRow } | { ok: false; reason: "unknown-binding" | "not-auto-learned" } {
    if (!Number.isInteger(b) || b < 0 || b >= this.highWater || this.alive[b] !== 1)
      return { ok: false, reason: "unknown-binding" };
    if (this.autoLearned[b] !== 1) return { ok: false, reason: "not-auto-learned" };
    this.#identified.set(b, subscriberId);
    for (let k = 0; k < (this.nChunks[b] ?? 0); k++)
      this.onPortBlock?.("identified", nowMs, b, this.chunks[b * this.maxChunks + k] ?? 0);
    const row = this.row(b, usernameOf);
    for (const portBlock of row.portBlocks) {
      this.#logs.emit(nowMs, "cgn.identify", {
        bindingIndex: b,
        group: row.group,
        insideVrf: row.insideVrf,
        insideIp: row.insideIp,
        publicIp: row.publicIp,
        portBlock,
        subscriberId,
      });
    }
    return { ok: true, binding: row };
  }

  /** A port block of a binding as its compliance record tells it (read before a release clears the binding). */
  portBlockRecord(
    kind: PortBlockEventKind,
    nowMs: number,
    b: number,
    chunk: number,
    usernameOf: (slot: number) => string,
  ): PortBlockRecord {
    const g = this.groups[this.group[b] ?? 0] as Group;
    const slot = this.sessionSlot[b] ?? -1;
    return {
      kind,
      timeMs: nowMs,
      bindingIndex: b,
      group: g.config.name,
      publicIp: formatIpv4(g.publicIps[this.ipIndex[b] ?? 0] ?? 0),
      portBlock: blockText(g, chunk),
      insideVrf: this.#vrfNames[this.vrf[b] ?? 0] ?? "default",
      insideIp: formatIpv4(this.insideIp[b] ?? 0),
      sessionId: this.sessionId[b] ?? 0,
      subscriberId: slot >= 0 ? usernameOf(slot) : (this.#identified.get(b) ?? null),
    };
  }

  /** One binding as the spec's CgnBindingRow. */
  row(b: number, usernameOf: (slot: number) => string): CgnBindingRow {
    const g = this.groups[this.group[b] ?? 0] as Group;
    const blocks: string[] = [];
    const n = this.nChunks[b] ?? 0;
    for (let k = 0; k < n; k++) blocks.push(blockText(g, this.chunks[b * this.maxChunks + k] ?? 0));
    const slot = this.sessionSlot[b] ?? -1;
    return {
      bindingIndex: b,
      group: g.config.name,
      insideVrf: this.#vrfNames[this.vrf[b] ?? 0] ?? "default",
      insideIp: formatIpv4(this.insideIp[b] ?? 0),
      publicIp: formatIpv4(g.publicIps[this.ipIndex[b] ?? 0] ?? 0),
      sessionId: this.sessionId[b] ?? 0,
      subscriberId: slot >= 0 ? usernameOf(slot) : (this.#identified.get(b) ?? null),
      autoLearned: this.autoLearned[b] === 1,
      portBlocks: blocks,
      chunkSize: g.config.chunkSize,
      portCap: g.config.portCap,
      createdUtc: isoTime(this.createdMs[b] ?? 0),
    };
  }

  /** The spec's bindings list: filters AND-combined, ordered by bindingIndex. */
  bindings(query: BindingQuery, offset: number, limit: number, usernameOf: (slot: number) => string): CgnBindingsPage {
    const groupName = query.group?.toLowerCase();
    const gi =
      groupName === undefined || groupName === ""
        ? -1
        : this.groups.findIndex((g) => g.config.name.toLowerCase() === groupName);
    const vrfName = query.vrf?.toLowerCase();
    const vi =
      vrfName === undefined || vrfName === "" ? -1 : this.#vrfNames.findIndex((v) => v.toLowerCase() === vrfName);
    const ranges = ipv4Ranges(query.ip);
    const running = this.groups.length > 0;
    const empty = { running, total: 0, offset, limit, items: [] };
    if ((gi < 0 && groupName) || (vi < 0 && vrfName) || ranges === false) return empty;
    const index = this.#index;
    // The live bindings, narrowed by each filter's bitmap: a count and the first page of set bits.
    let bits = index.live;
    const narrow = (by: Uint32Array) => {
      if (bits === index.live) bits = index.live.slice();
      for (let w = 0; w < bits.length; w++) bits[w] = (bits[w] ?? 0) & (by[w] ?? 0);
    };
    if (gi >= 0) narrow(index.group(gi));
    if (vi >= 0) narrow(index.vrf(vi));
    if (ranges !== null) narrow(this.#matchingIp(ranges));
    const { total, indices } = pageOfBits(bits, offset, limit);
    const items = indices.map((b) => this.row(b, usernameOf));
    return { running, total, offset, limit, items };
  }

  /**
   * The bindings whose inside or public address lies in `ranges`: inside from the index, public from the port blocks'
   * owners.
   */
  #matchingIp(ranges: readonly { first: number; last: number }[]): Uint32Array {
    const bits = new Uint32Array(this.#index.live.length);
    this.#index.markInside(ranges, this.insideIp, bits);
    for (const g of this.groups) {
      g.publicIps.forEach((address, ip) => {
        if (!ranges.some((r) => address >= r.first && address <= r.last)) return;
        // A group's blocks are laid out by public address: an owner above zero is its binding + 1.
        for (let chunk = ip * g.chunksPerIp, end = chunk + g.chunksPerIp; chunk < end; chunk++) {
          const owner = g.owner[chunk] ?? 0;
          if (owner > 0) setBit(bits, owner - 1);
        }
      });
    }
    return bits;
  }

  /** The spec's CgnStatus. */
  status(): CgnStatus {
    const running = this.groups.length > 0;
    return {
      enabled: running,
      running,
      maxBindings: this.#config.maxBindings,
      maxFlows: this.#config.maxFlows,
      activeBindings: this.activeTotal,
      autoLearnedBindings: this.autoLearnedTotal,
      groups: this.groups.map((g) => ({
        name: g.config.name,
        description: g.config.description,
        outsideVrf: g.config.outsideVrf,
        publicSubnets: [...g.config.publicSubnets],
        chunkSize: g.config.chunkSize,
        portCap: g.config.portCap,
        setupsPerSec: g.config.setupsPerSec,
        bindingTimeoutSeconds: g.config.bindingTimeoutSeconds,
        quarantineSeconds: g.config.quarantineSeconds,
        bypassPrefixes: [...g.config.bypassPrefixes],
        autoLearn: g.config.autoLearn.map((a) => ({ insideVrf: a.insideVrf, prefixes: [...a.prefixes] })),
        timeouts: { ...g.config.timeouts },
        activeBindings: g.active,
        portBlockAllocations: g.allocations,
        utilisation: {
          totalChunks: g.totalChunks,
          freeChunks: g.free,
          usedChunks: g.used,
          quarantinedChunks: g.quarantined,
        },
      })),
      nativeCounters: { ...this.counters },
      // The drivers are the object's (durable-objects/syslog.ts ships the records onPortBlock tells of): it fills in
      // their losses.
      eventsLostByDriver: running ? { syslog: 0 } : null,
    };
  }

  /** Scenario fill: reserves `percent` of a group's free chunks. */
  fill(gi: number, percent: number): number {
    const g = this.groups[gi] as Group;
    const want = Math.floor((g.free * percent) / 100);
    let got = 0;
    for (let ip = 0; ip < g.publicIps.length && got < want; ip++) {
      while (got < want) {
        const chunk = g.takeOnIp(ip);
        if (chunk < 0) break;
        g.owner[chunk] = CHUNK_RESERVED;
        g.reserved++;
        g.reservedList.push(chunk);
        got++;
      }
    }
    return got;
  }

  /** Scenario drain: releases a group's reserved chunks. */
  drain(gi: number): number {
    const g = this.groups[gi] as Group;
    const n = g.reservedList.length;
    for (const chunk of g.reservedList) g.toFree(chunk);
    g.reserved = 0;
    g.reservedList = [];
    return n;
  }

  /** Index of a group by name (case-insensitive), or -1. */
  findGroup(name: string): number {
    const n = name.toLowerCase();
    return this.groups.findIndex((g) => g.config.name.toLowerCase() === n);
  }

  /** State for a snapshot. */
  exportState(): CgnState {
    const hw = this.highWater;
    return {
      counters: { ...this.counters },
      totalFlows: this.totalFlows,
      highWater: hw,
      eventsThisStep: this.#eventsThisStep,
      // Below the high-water mark only: the indices above it are free by definition.
      freeSlots: this.#freeSlots.slice(0, this.#freeTop).filter((b) => b < hw),
      identified: [...this.#identified],
      groups: this.groups.map((g) => ({
        owner: g.owner.slice(),
        ipFree: g.ipFree.slice(),
        cursor: g.cursor,
        counts: [g.free, g.quarantined, g.reserved, g.active, g.setupsThisStep],
        lastRefusalLogMs: g.lastRefusalLogMs,
        allocations: g.allocations,
        quarantine: g.quarantine.toArray(),
        reservedList: [...g.reservedList],
      })),
      // Views: the snapshot copies every typed array.
      arrays: {
        alive: this.alive.subarray(0, hw),
        group: this.group.subarray(0, hw),
        vrf: this.vrf.subarray(0, hw),
        insideIp: this.insideIp.subarray(0, hw),
        ipIndex: this.ipIndex.subarray(0, hw),
        sessionId: this.sessionId.subarray(0, hw),
        sessionSlot: this.sessionSlot.subarray(0, hw),
        autoLearned: this.autoLearned.subarray(0, hw),
        createdMs: this.createdMs.subarray(0, hw),
        expiresMs: this.expiresMs.subarray(0, hw),
        flows: this.flows.subarray(0, hw),
        nChunks: this.nChunks.subarray(0, hw),
        chunks: this.chunks.subarray(0, hw * this.maxChunks),
      },
    };
  }

  /** Restores snapshot state onto an engine built from the same profile. */
  importState(s: CgnState): void {
    this.counters = { ...s.counters };
    this.totalFlows = s.totalFlows;
    this.highWater = s.highWater;
    this.#eventsThisStep = s.eventsThisStep;
    // A snapshot written before the arrays grew lists the never-used indices above the high-water mark too: they are
    // implied.
    this.#ensure(s.highWater);
    const freed = s.freeSlots.filter((b) => b < s.highWater);
    const untouched = this.#allocated - s.highWater;
    for (let i = 0; i < untouched; i++) this.#freeSlots[i] = this.#allocated - 1 - i;
    this.#freeSlots.set(freed, untouched);
    this.#freeTop = untouched + freed.length;
    this.#identified = new Map(s.identified);
    s.groups.forEach((st, i) => {
      const g = this.groups[i];
      if (!g) return;
      g.owner = Int32Array.from(st.owner);
      g.ipFree = Int32Array.from(st.ipFree);
      g.cursor = st.cursor;
      [g.free, g.quarantined, g.reserved, g.active, g.setupsThisStep] = st.counts;
      g.lastRefusalLogMs = st.lastRefusalLogMs;
      g.allocations = st.allocations ?? 0;
      g.quarantine = TimedQueue.from(st.quarantine);
      g.reservedList = [...st.reservedList];
    });
    const a = s.arrays;
    const copy = (dst: { set(src: ArrayLike<number>): void }, name: string): void => {
      const src = a[name];
      if (src) dst.set(src);
    };
    copy(this.alive, "alive");
    copy(this.group, "group");
    copy(this.vrf, "vrf");
    copy(this.insideIp, "insideIp");
    copy(this.ipIndex, "ipIndex");
    copy(this.sessionId, "sessionId");
    copy(this.sessionSlot, "sessionSlot");
    copy(this.autoLearned, "autoLearned");
    copy(this.createdMs, "createdMs");
    copy(this.expiresMs, "expiresMs");
    copy(this.flows, "flows");
    copy(this.nChunks, "nChunks");
    copy(this.chunks, "chunks");
    this.activeTotal = 0;
    this.autoLearnedTotal = 0;
    this.#autoIndex.clear();
    this.#index = new BindingIndex(this.groups.length, this.#vrfNames.length);
    this.#index.grow(this.#allocated);
    for (let b = 0; b < this.highWater; b++) {
      if (this.alive[b] !== 1) continue;
      this.activeTotal++;
      this.#index.add(b, this.group[b] ?? 0, this.vrf[b] ?? 0, this.insideIp[b] ?? 0);
      if (this.autoLearned[b] === 1) {
        this.autoLearnedTotal++;
        this.#autoIndex.set(autoKey(this.vrf[b] ?? 0, this.insideIp[b] ?? 0), b);
      }
    }
  }

  #quarantineChunk(nowMs: number, g: Group, chunk: number): void {
    this.#eventsThisStep++;
    if (g.config.quarantineSeconds === 0) {
      g.toFree(chunk);
      return;
    }
    g.owner[chunk] = CHUNK_QUARANTINED;
    g.quarantined++;
    // Chunk quarantine is checked once per sub-step; rounding up keeps the quarantine at least quarantineSeconds.
    const until = nowMs + Math.ceil(g.config.quarantineSeconds / SUB_STEP_SECONDS) * SUB_STEP_SECONDS * 1000;
    g.quarantine.push(until, chunk, 0);
  }
}

/** A chunk's port range as the bindings list writes it, `start-end`. */
function blockText(g: Group, chunk: number): string {
  const start = FIRST_PORT + (chunk % g.chunksPerIp) * g.config.chunkSize;
  return `${start}-${start + g.config.chunkSize - 1}`;
}

/** Key of an auto-learned source: VRF index and inside address. */
function autoKey(vrf: number, ip: number): number {
  return vrf * 4294967296 + ip;
}

/**
 * The `ip` filter on IPv4 addresses as ranges: a CIDR or bare address
 * matches by containment; any other text matches as a textual prefix of the
 * dotted quad (so `ip=100.64.1.` works as an operator expects). Null = no
 * filter; false = a filter nothing can match (e.g. an IPv6 prefix).
 */
export function ipv4Ranges(ip: string | null | undefined): { first: number; last: number }[] | null | false {
  if (ip === undefined || ip === null || ip.trim() === "") return null;
  const text = ip.trim().toLowerCase();
  const prefix = parsePrefix(text, false);
  if (prefix !== null) return prefix.family === 4 ? [ipv4Range(prefix)] : false;
  return ipv4TextRanges(text) ?? false;
}
