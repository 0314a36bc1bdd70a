/**
 * The live session table as struct-of-arrays, indexed by slot, with a free
 * list of slots, a dense list of live slots (O(1) uniform pick for churn and
 * an O(live) traffic loop), an id-ordered index (session ids only grow, so
 * appending keeps it sorted: newest-first listing and O(log n) lookup by id),
 * and incremental counters so the summary never recounts.
 */
import { SUB_STEP_SECONDS } from "./clock.ts";
import { LeaseTimers } from "./lease-timers.ts";
import { accessOverheadBytes } from "./frame-sizes.ts";
import { ENCAP_IPOE } from "./subscribers.ts";

/** A PPP session's `leaseMs`: it has no lease, so its renewal never falls due. */
export const NO_LEASE = Number.POSITIVE_INFINITY;

/** Number of encapsulations. */
const ENCAP_COUNT = 4;

/** Slots allocated before the first growth. */
const FIRST_ALLOCATION = 1024;

/** Growth factor of the columns: at most a fifth of the table unused, for a few more copies during bring-up. */
const GROWTH = 1.25;

/** Room above the expected population at the first growth: its fluctuations rarely need another. */
const EXPECTED_HEADROOM = 1.1;

/** The per-slot columns, grown together (snapshot.ts saves the first `highWater` of each but the live list's two). */
const COLUMNS = [
  "alive",
  "id",
  "sub",
  "encap",
  "port",
  "svlan",
  "cvlan",
  "plan",
  "vrf",
  "realm",
  "walledGarden",
  "aaa",
  "v4Pool",
  "v4Subnet",
  "v4Ord",
  "v4Addr",
  "wanPool",
  "wanSubnet",
  "wanOrd",
  "pdPool",
  "pdSubnet",
  "pdOrd",
  "cgn",
  "upMs",
  "leaseMs",
  "leaseEnd",
  "endAt",
  "endKind",
  "quietUntil",
  "acctAt",
  "activity",
  "rxBps",
  "txBps",
  "rxPps",
  "txPps",
  "rxBytes",
  "txBytes",
  "rxPkts",
  "txPkts",
  "rateTick",
  "liveIndex",
  "live",
  "orderPos",
] as const;

type Column = Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array | Float32Array | Float64Array;

/**
 * The live session table. Columns are allocated for the slots in use and
 * grown by a quarter when those run out, up to the licensed capacity: a table
 * allocated at the licence's size would hold a quarter more than the steady
 * state needs.
 */
export class SessionStore {
  readonly capacity: number;
  /** Slots the columns currently hold. */
  allocated: number;
  alive: Uint8Array;
  id: Uint32Array;
  sub: Int32Array;
  encap: Uint8Array;
  port: Int16Array;
  svlan: Uint16Array;
  cvlan: Uint16Array;
  plan: Uint8Array;
  vrf: Uint8Array;
  realm: Uint8Array;
  walledGarden: Uint8Array;
  /** RADIUS server id that authenticated the session (aaa.ts), -1 = local AAA. */
  aaa: Int16Array;
  v4Pool: Int16Array;
  v4Subnet: Uint8Array;
  v4Ord: Int32Array;
  v4Addr: Uint32Array;
  wanPool: Int16Array;
  wanSubnet: Uint8Array;
  wanOrd: Int32Array;
  pdPool: Int16Array;
  pdSubnet: Uint8Array;
  pdOrd: Int32Array;
  cgn: Int32Array;
  upMs: Float64Array;
  /**
   * When an IPoE client next acts on its lease (renews at T1, retries, rebinds at T2, or lets it expire), set by
   * `setLease`; NO_LEASE for a PPP session.
   */
  leaseMs: Float64Array;
  /** When an IPoE session's lease expires, epoch seconds (0 = no lease): the detail's `leaseExpiresUtc`. */
  leaseEnd: Uint32Array;
  /** The session's next lifetime event, epoch seconds, set by `setEnd` (lifetimes.ts): a candidate or a decided end. */
  endAt: Uint32Array;
  /** What `endAt` is: 0 a candidate of the hazard, else the cause of a decided end (lifetimes.ts END_CAUSES). */
  endKind: Uint8Array;
  /** Until when the subscriber's CPE is gone (off, rebooting, its line down), epoch seconds: no traffic, no renewal. */
  quietUntil: Uint32Array;
  /** When the session's next Accounting Interim-Update is due, epoch seconds (0 = none: not RADIUS-accounted). */
  acctAt: Uint32Array;
  activity: Float32Array;
  /** Current rates in whole bits per second, set by `setRates` only: whole numbers keep the per-port sums exact. */
  rxBps: Float64Array;
  txBps: Float64Array;
  /** Current packet rates, in 64ths of a packet per second (traffic.ts: full segments and ACKs behind the bytes). */
  rxPps: Float64Array;
  txPps: Float64Array;
  /** Bytes and packets carried through sub-step `rateTick`; the current rates apply after it (`rxBytesAt`). */
  rxBytes: Float64Array;
  txBytes: Float64Array;
  rxPkts: Float64Array;
  txPkts: Float64Array;
  rateTick: Int32Array;
  /** Per port, the sum of its live sessions' current rates (bits and packets per second). */
  readonly portRx: Float64Array;
  readonly portTx: Float64Array;
  readonly portRxPps: Float64Array;
  readonly portTxPps: Float64Array;
  /** Per port, the bytes per second its sessions' frames add to their IP packets (wire.ts: Ethernet, tags, PPPoE). */
  readonly portRxOverhead: Float64Array;
  readonly portTxOverhead: Float64Array;
  /** Per port, its live PPP sessions (PPPoE and LAC: LCP echo on the wire, wire.ts). */
  readonly pppByPort: Int32Array;
  /** Per encapsulation, the sums of every live session's rates, LNS-terminated ones included (the uplinks, wire.ts). */
  readonly encapRx = new Float64Array(ENCAP_COUNT);
  readonly encapTx = new Float64Array(ENCAP_COUNT);
  readonly encapRxPps = new Float64Array(ENCAP_COUNT);
  readonly encapTxPps = new Float64Array(ENCAP_COUNT);
  liveIndex: Int32Array;
  /**
   * Position of a live slot in the id-ordered index (`orderIds`/`orderSlots`), the bit it sets in the filter bitsets.
   */
  orderPos: Int32Array;

  live: Int32Array;
  liveCount = 0;
  /**
   * Counts every change of which sessions are live (activate, deactivate, rebuild): a page served since is out of date
   * (page-texts.ts).
   */
  revision = 0;
  #freeSlots: Int32Array;
  #freeTop: number;
  /** Slots used at least once: arrays beyond this are untouched (snapshot size). */
  highWater = 0;
  orderIds: Uint32Array;
  orderSlots: Int32Array;
  orderLen = 0;
  /** The renewals to come, by the sub-step they fall due in. */
  readonly #leases = new LeaseTimers();
  /** The lifetime events to come (`endAt`), likewise. */
  readonly #ends = new LeaseTimers();
  /** The Interim-Updates to come (`acctAt`), likewise. */
  readonly #interims = new LeaseTimers();
  /**
   * Slots activated since the traffic loop last took them (their first rates are drawn in the sub-step that sets them
   * up).
   */
  #fresh: number[] = [];
  /** A session came up with an id below the index's last (settleOrder). */
  #unordered = false;

  /**
   * Bitsets over id-order positions, kept by activate/deactivate: the live
   * sessions, and per encapsulation, port, VRF and walled garden. A list
   * filter ANDs the ones it names and counts or pages the result 32
   * sessions a word (session-filter.ts), instead of testing every session.
   */
  liveBits: Int32Array;
  encapBits: Int32Array[];
  portBits: Int32Array[];
  vrfBits: Int32Array[];
  walledGardenBits: Int32Array;
  /**
   * Per realm (a local subscriber's session is in realm 0's), for a username needle that lies in the realm's domain.
   */
  realmBits: Int32Array[];

  byEncap = new Int32Array(ENCAP_COUNT);
  byPort: Int32Array;
  byVrf: Int32Array;
  walledGardenCount = 0;
  lnsCount = 0;

  /** The population the profile expects: the first growth goes straight to a tenth above it. */
  readonly #expected: number;

  constructor(capacity: number, ports: number, vrfs: number, realms = 1, expected = 0) {
    this.capacity = capacity;
    this.#expected = expected;
    const n = Math.min(capacity, FIRST_ALLOCATION);
    this.allocated = n;
    this.alive = new Uint8Array(n);
    this.id = new Uint32Array(n);
    this.sub = new Int32Array(n);
    this.encap = new Uint8Array(n);
    this.port = new Int16Array(n);
    this.svlan = new Uint16Array(n);
    this.cvlan = new Uint16Array(n);
    this.plan = new Uint8Array(n);
    this.vrf = new Uint8Array(n);
    this.realm = new Uint8Array(n);
    this.walledGarden = new Uint8Array(n);
    this.aaa = new Int16Array(n);
    this.v4Pool = new Int16Array(n);
    this.v4Subnet = new Uint8Array(n);
    this.v4Ord = new Int32Array(n);
    this.v4Addr = new Uint32Array(n);
    this.wanPool = new Int16Array(n);
    this.wanSubnet = new Uint8Array(n);
    this.wanOrd = new Int32Array(n);
    this.pdPool = new Int16Array(n);
    this.pdSubnet = new Uint8Array(n);
    this.pdOrd = new Int32Array(n);
    this.cgn = new Int32Array(n);
    this.upMs = new Float64Array(n);
    this.leaseMs = new Float64Array(n);
    this.leaseEnd = new Uint32Array(n);
    this.endAt = new Uint32Array(n);
    this.endKind = new Uint8Array(n);
    this.quietUntil = new Uint32Array(n);
    this.acctAt = new Uint32Array(n);
    this.activity = new Float32Array(n);
    this.rxBps = new Float64Array(n);
    this.txBps = new Float64Array(n);
    this.rxPps = new Float64Array(n);
    this.txPps = new Float64Array(n);
    this.rxBytes = new Float64Array(n);
    this.txBytes = new Float64Array(n);
    this.rxPkts = new Float64Array(n);
    this.txPkts = new Float64Array(n);
    this.rateTick = new Int32Array(n);
    this.portRx = new Float64Array(ports);
    this.portTx = new Float64Array(ports);
    this.portRxPps = new Float64Array(ports);
    this.portTxPps = new Float64Array(ports);
    this.portRxOverhead = new Float64Array(ports);
    this.portTxOverhead = new Float64Array(ports);
    this.pppByPort = new Int32Array(ports);
    this.liveIndex = new Int32Array(n);
    this.live = new Int32Array(n);
    this.orderPos = new Int32Array(n);
    // Lowest slot first: the stack holds n-1 … 0, and slots added by growth go beneath the freed ones.
    this.#freeSlots = new Int32Array(n);
    for (let i = 0; i < n; i++) this.#freeSlots[i] = n - 1 - i;
    this.#freeTop = n;
    this.orderIds = new Uint32Array(orderLength(n));
    this.orderSlots = new Int32Array(orderLength(n));
    const words = wordsFor(orderLength(n));
    this.liveBits = new Int32Array(words);
    this.encapBits = Array.from({ length: ENCAP_COUNT }, () => new Int32Array(words));
    this.portBits = Array.from({ length: ports }, () => new Int32Array(words));
    this.vrfBits = Array.from({ length: vrfs }, () => new Int32Array(words));
    this.walledGardenBits = new Int32Array(words);
    this.realmBits = Array.from({ length: realms }, () => new Int32Array(words));
    this.byPort = new Int32Array(ports);
    this.byVrf = new Int32Array(vrfs);
  }

  /** Every bitset, for growing or clearing them together. */
  #bitsets(): Int32Array[] {
    return [
      this.liveBits,
      ...this.encapBits,
      ...this.portBits,
      ...this.vrfBits,
      this.walledGardenBits,
      ...this.realmBits,
    ];
  }

  /** Sets (on) or clears a live slot's bits at its order position. */
  #mark(slot: number, on: boolean): void {
    const pos = this.orderPos[slot] ?? 0;
    const w = pos >>> 5;
    const bit = 1 << (pos & 31);
    // Set by set, without a list of them: this runs at every setup and teardown, and an array per call was a tenth of
    // bring-up's garbage.
    flip(this.liveBits, w, bit, on);
    flip(this.encapBits[this.encap[slot] ?? 0], w, bit, on);
    flip(this.vrfBits[this.vrf[slot] ?? 0], w, bit, on);
    flip(this.realmBits[this.realm[slot] ?? 0], w, bit, on);
    const port = this.port[slot] ?? -1;
    if (port >= 0) flip(this.portBits[port], w, bit, on);
    if (this.walledGarden[slot] === 1) flip(this.walledGardenBits, w, bit, on);
  }

  /** Marks every live slot again after the order positions moved (compaction, restore). */
  #reindex(): void {
    for (const bits of this.#bitsets()) bits.fill(0);
    for (let i = 0; i < this.orderLen; i++) {
      const slot = this.orderSlots[i] ?? -1;
      if (slot < 0 || this.alive[slot] !== 1 || this.id[slot] !== this.orderIds[i]) continue;
      this.orderPos[slot] = i;
      this.#mark(slot, true);
    }
  }

  /**
   * Grows every column to hold at least `n` slots (at most the capacity). The
   * new slots are free and handed out lowest first once the freed ones are
   * used, the order a table allocated at full size would use them in.
   */
  ensure(n: number): void {
    const want = Math.min(this.capacity, n);
    if (want <= this.allocated) return;
    const old = this.allocated;
    const self = this as unknown as Record<(typeof COLUMNS)[number], Column>;
    for (const name of COLUMNS) {
      const column = self[name];
      const next = new (column.constructor as new (length: number) => Column)(want);
      next.set(column);
      self[name] = next;
    }
    const free = new Int32Array(want);
    for (let i = 0; i < want - old; i++) free[i] = want - 1 - i;
    free.set(this.#freeSlots.subarray(0, this.#freeTop), want - old);
    this.#freeSlots = free;
    this.#freeTop += want - old;
    const ids = new Uint32Array(orderLength(want));
    const slots = new Int32Array(orderLength(want));
    ids.set(this.orderIds.subarray(0, this.orderLen));
    slots.set(this.orderSlots.subarray(0, this.orderLen));
    this.orderIds = ids;
    this.orderSlots = slots;
    const words = wordsFor(ids.length);
    const grow = (bits: Int32Array): Int32Array => {
      const next = new Int32Array(words);
      next.set(bits);
      return next;
    };
    this.liveBits = grow(this.liveBits);
    this.encapBits = this.encapBits.map(grow);
    this.portBits = this.portBits.map(grow);
    this.vrfBits = this.vrfBits.map(grow);
    this.walledGardenBits = grow(this.walledGardenBits);
    this.realmBits = this.realmBits.map(grow);
    this.allocated = want;
  }

  /** Live sessions. */
  get total(): number {
    return this.liveCount;
  }

  /** Whether a slot can be taken. */
  get full(): boolean {
    return this.#freeTop === 0 && this.allocated >= this.capacity;
  }

  /** Takes a free slot (the caller fills its columns, then calls `activate`). */
  takeSlot(): number {
    // Bring-up would otherwise copy every column some twenty times on the way to the steady state.
    if (this.#freeTop === 0)
      this.ensure(
        Math.max(
          Math.ceil(this.allocated * GROWTH),
          this.allocated < this.#expected ? Math.ceil(this.#expected * EXPECTED_HEADROOM) : 0,
        ),
      );
    const slot = this.#freeSlots[--this.#freeTop] ?? 0;
    if (slot >= this.highWater) this.highWater = slot + 1;
    return slot;
  }

  /** Gives back a slot taken for a setup that then failed. */
  returnSlot(slot: number): void {
    this.#freeSlots[this.#freeTop++] = slot;
  }

  /** Marks a filled slot live with a new id and updates every counter. */
  activate(slot: number, id: number): void {
    this.revision++;
    // A new session has carried no traffic yet; its rates are 0 since the slot's last `deactivate`.
    this.rxBytes[slot] = 0;
    this.txBytes[slot] = 0;
    this.rxPkts[slot] = 0;
    this.txPkts[slot] = 0;
    // No lifetime event, lease or absence yet: the setup files them (lifetimes.ts, leases.ts).
    this.endAt[slot] = 0;
    this.endKind[slot] = 0;
    this.quietUntil[slot] = 0;
    this.leaseEnd[slot] = 0;
    this.acctAt[slot] = 0;
    this.alive[slot] = 1;
    this.id[slot] = id;
    this.liveIndex[slot] = this.liveCount;
    this.live[this.liveCount++] = slot;
    if (this.orderLen === this.orderIds.length) this.#compactOrder();
    // An id taken earlier (a real RADIUS server's answer, external-aaa.ts) lands out of order: settleOrder sorts.
    if (this.orderLen > 0 && id < (this.orderIds[this.orderLen - 1] ?? 0)) this.#unordered = true;
    this.orderPos[slot] = this.orderLen;
    this.orderIds[this.orderLen] = id;
    this.orderSlots[this.orderLen++] = slot;
    this.#count(slot, 1);
    this.#mark(slot, true);
    this.#fresh.push(slot);
  }

  /** The slots activated since the last call, in activation order (one may have ended since). */
  takeFresh(): number[] {
    const fresh = this.#fresh;
    this.#fresh = [];
    return fresh;
  }

  /** Sets when a session's lease renewal falls due (NO_LEASE: it has no lease). */
  setLease(slot: number, leaseMs: number): void {
    this.leaseMs[slot] = leaseMs;
    if (leaseMs !== NO_LEASE) this.#leases.add(slot, leaseMs);
  }

  /** The live slots whose renewal falls due by `nowMs`, ascending. */
  dueLeases(nowMs: number): number[] {
    return this.#leases
      .take(nowMs)
      .filter((slot) => this.alive[slot] === 1 && (this.leaseMs[slot] ?? NO_LEASE) <= nowMs);
  }

  /** Files a session's next lifetime event: at `atSeconds`, a candidate (kind 0) or a decided end (lifetimes.ts). */
  setEnd(slot: number, atSeconds: number, kind: number): void {
    this.endAt[slot] = atSeconds;
    this.endKind[slot] = kind;
    this.#ends.add(slot, atSeconds * 1000);
  }

  /** The live slots whose lifetime event falls due by `nowMs`, ascending. */
  dueEnds(nowMs: number): number[] {
    return this.#ends.take(nowMs).filter((slot) => {
      const at = this.endAt[slot] ?? 0;
      return this.alive[slot] === 1 && at > 0 && at * 1000 <= nowMs;
    });
  }

  /** Files a session's next Interim-Update at `atSeconds`. */
  setInterim(slot: number, atSeconds: number): void {
    this.acctAt[slot] = atSeconds;
    this.#interims.add(slot, atSeconds * 1000);
  }

  /** The live slots whose Interim-Update falls due by `nowMs`, ascending. */
  dueInterims(nowMs: number): number[] {
    return this.#interims.take(nowMs).filter((slot) => {
      const at = this.acctAt[slot] ?? 0;
      return this.alive[slot] === 1 && at > 0 && at * 1000 <= nowMs;
    });
  }

  /** Removes a live slot and updates every counter; the caller has released its resources. */
  deactivate(slot: number): void {
    this.revision++;
    // Its rates leave the port's sum; its byte counters are not read again.
    const rxPps = this.rxPps[slot] ?? 0;
    const txPps = this.txPps[slot] ?? 0;
    this.#addToPort(slot, -(this.rxBps[slot] ?? 0), -(this.txBps[slot] ?? 0), -rxPps, -txPps);
    this.rxBps[slot] = 0;
    this.txBps[slot] = 0;
    this.rxPps[slot] = 0;
    this.txPps[slot] = 0;
    this.#count(slot, -1);
    this.#mark(slot, false);
    this.alive[slot] = 0;
    const at = this.liveIndex[slot] ?? 0;
    const last = this.live[--this.liveCount] ?? 0;
    this.live[at] = last;
    this.liveIndex[last] = at;
    this.#freeSlots[this.#freeTop++] = slot;
  }

  /**
   * A live session's new rates (whole bits and packets per second), drawn at
   * sub-step `tick`: they apply from that sub-step on, so the old rates are
   * counted into the byte and packet counters up to the one before it.
   */
  setRates(slot: number, rx: number, tx: number, rxPps: number, txPps: number, tick: number): void {
    const seconds = (tick - 1 - (this.rateTick[slot] ?? 0)) * SUB_STEP_SECONDS;
    const oldRx = this.rxBps[slot] ?? 0;
    const oldTx = this.txBps[slot] ?? 0;
    const oldRxPps = this.rxPps[slot] ?? 0;
    const oldTxPps = this.txPps[slot] ?? 0;
    if (seconds > 0) {
      this.rxBytes[slot] = (this.rxBytes[slot] ?? 0) + (oldRx / 8) * seconds;
      this.txBytes[slot] = (this.txBytes[slot] ?? 0) + (oldTx / 8) * seconds;
      this.rxPkts[slot] = (this.rxPkts[slot] ?? 0) + oldRxPps * seconds;
      this.txPkts[slot] = (this.txPkts[slot] ?? 0) + oldTxPps * seconds;
    }
    this.rateTick[slot] = tick - 1;
    this.rxBps[slot] = rx;
    this.txBps[slot] = tx;
    this.rxPps[slot] = rxPps;
    this.txPps[slot] = txPps;
    this.#addToPort(slot, rx - oldRx, tx - oldTx, rxPps - oldRxPps, txPps - oldTxPps);
  }

  /** Moves the sums of a slot's port (none for an LNS-terminated session) by a change of its rates. */
  #addToPort(slot: number, rx: number, tx: number, rxPps: number, txPps: number): void {
    const encap = this.encap[slot] ?? 0;
    this.encapRx[encap] = (this.encapRx[encap] ?? 0) + rx;
    this.encapTx[encap] = (this.encapTx[encap] ?? 0) + tx;
    this.encapRxPps[encap] = (this.encapRxPps[encap] ?? 0) + rxPps;
    this.encapTxPps[encap] = (this.encapTxPps[encap] ?? 0) + txPps;
    const port = this.port[slot] ?? -1;
    if (port < 0) return;
    this.portRx[port] = (this.portRx[port] ?? 0) + rx;
    this.portTx[port] = (this.portTx[port] ?? 0) + tx;
    this.portRxPps[port] = (this.portRxPps[port] ?? 0) + rxPps;
    this.portTxPps[port] = (this.portTxPps[port] ?? 0) + txPps;
    // Whole packets times whole bytes: the sums stay exact as sessions come and go.
    const frame = accessOverheadBytes(encap);
    this.portRxOverhead[port] = (this.portRxOverhead[port] ?? 0) + rxPps * frame;
    this.portTxOverhead[port] = (this.portTxOverhead[port] ?? 0) + txPps * frame;
  }

  /** A session's bytes received from the subscriber through sub-step `tick` (the model's latest). */
  rxBytesAt(slot: number, tick: number): number {
    return (
      (this.rxBytes[slot] ?? 0) + ((this.rxBps[slot] ?? 0) / 8) * SUB_STEP_SECONDS * (tick - (this.rateTick[slot] ?? 0))
    );
  }

  /** A session's packets received from the subscriber through sub-step `tick`. */
  rxPacketsAt(slot: number, tick: number): number {
    return (this.rxPkts[slot] ?? 0) + (this.rxPps[slot] ?? 0) * SUB_STEP_SECONDS * (tick - (this.rateTick[slot] ?? 0));
  }

  /** A session's packets sent to the subscriber through sub-step `tick`. */
  txPacketsAt(slot: number, tick: number): number {
    return (this.txPkts[slot] ?? 0) + (this.txPps[slot] ?? 0) * SUB_STEP_SECONDS * (tick - (this.rateTick[slot] ?? 0));
  }

  /** A session's bytes sent to the subscriber through sub-step `tick`. */
  txBytesAt(slot: number, tick: number): number {
    return (
      (this.txBytes[slot] ?? 0) + ((this.txBps[slot] ?? 0) / 8) * SUB_STEP_SECONDS * (tick - (this.rateTick[slot] ?? 0))
    );
  }

  /**
   * Sorts the id-ordered index again after sessions came up out of id order (their ids were taken when a real
   * RADIUS server was asked, and answers come back in any order); a no-op otherwise.
   */
  settleOrder(): void {
    if (!this.#unordered) return;
    this.#unordered = false;
    const n = this.orderLen;
    const positions = Array.from({ length: n }, (_, i) => i).sort(
      (a, b) => (this.orderIds[a] ?? 0) - (this.orderIds[b] ?? 0),
    );
    const ids = positions.map((i) => this.orderIds[i] ?? 0);
    const slots = positions.map((i) => this.orderSlots[i] ?? -1);
    this.orderIds.set(ids);
    this.orderSlots.set(slots);
    this.revision++;
    this.#reindex();
  }

  /** Slot of a live session id, or -1 (binary search on the id-ordered index). */
  slotOf(id: number): number {
    let lo = 0;
    let hi = this.orderLen - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = this.orderIds[mid] ?? 0;
      if (v < id) lo = mid + 1;
      else if (v > id) hi = mid - 1;
      else {
        const slot = this.orderSlots[mid] ?? -1;
        return slot >= 0 && this.alive[slot] === 1 && this.id[slot] === id ? slot : -1;
      }
    }
    return -1;
  }

  /** Visits live slots newest first; stop by returning false. */
  newestFirst(visit: (slot: number) => boolean | void): void {
    for (let i = this.orderLen - 1; i >= 0; i--) {
      const slot = this.orderSlots[i] ?? -1;
      if (slot < 0 || this.alive[slot] !== 1 || this.id[slot] !== this.orderIds[i]) continue;
      if (visit(slot) === false) return;
    }
  }

  /** The free-slot stack below the high-water mark, for a snapshot (the slots above it are free by definition). */
  freeSlots(): Int32Array {
    return this.#freeSlots.slice(0, this.#freeTop).filter((slot) => slot < this.highWater);
  }

  /**
   * Rebuilds the derived indexes (live list, order, counters) after the
   * columns were restored (the caller has called `ensure(highWater)`). The
   * free stack is the never-used slots above the high-water mark beneath the
   * snapshot's freed ones; a snapshot written before the table grew lists
   * those slots itself, and they are dropped here.
   */
  rebuild(freeSlots: Int32Array, liveOrder: Int32Array): void {
    this.revision++;
    const freed = freeSlots.filter((slot) => slot < this.highWater);
    const untouched = this.allocated - this.highWater;
    for (let i = 0; i < untouched; i++) this.#freeSlots[i] = this.allocated - 1 - i;
    this.#freeSlots.set(freed, untouched);
    this.#freeTop = untouched + freed.length;
    this.liveCount = 0;
    this.byEncap.fill(0);
    this.byPort.fill(0);
    this.byVrf.fill(0);
    this.walledGardenCount = 0;
    this.lnsCount = 0;
    this.portRx.fill(0);
    this.portTx.fill(0);
    this.portRxPps.fill(0);
    this.portTxPps.fill(0);
    this.portRxOverhead.fill(0);
    this.portTxOverhead.fill(0);
    this.pppByPort.fill(0);
    for (const sums of [this.encapRx, this.encapTx, this.encapRxPps, this.encapTxPps]) sums.fill(0);
    this.#leases.clear();
    this.#ends.clear();
    this.#interims.clear();
    this.#fresh = [];
    // The live list order decides which session churn picks, so it is restored exactly.
    for (const slot of liveOrder) {
      this.liveIndex[slot] = this.liveCount;
      this.live[this.liveCount++] = slot;
      this.#count(slot, 1);
      this.#addToPort(slot, this.rxBps[slot] ?? 0, this.txBps[slot] ?? 0, this.rxPps[slot] ?? 0, this.txPps[slot] ?? 0);
      if (this.leaseMs[slot] !== NO_LEASE) this.#leases.add(slot, this.leaseMs[slot] ?? 0);
      if ((this.endAt[slot] ?? 0) > 0) this.#ends.add(slot, (this.endAt[slot] ?? 0) * 1000);
      if ((this.acctAt[slot] ?? 0) > 0) this.#interims.add(slot, (this.acctAt[slot] ?? 0) * 1000);
    }
    const byId = [...liveOrder].sort((a, b) => (this.id[a] ?? 0) - (this.id[b] ?? 0));
    this.orderLen = 0;
    for (const slot of byId) {
      this.orderIds[this.orderLen] = this.id[slot] ?? 0;
      this.orderSlots[this.orderLen++] = slot;
    }
    this.#reindex();
  }

  #count(slot: number, d: number): void {
    this.byEncap[this.encap[slot] ?? 0] = (this.byEncap[this.encap[slot] ?? 0] ?? 0) + d;
    const port = this.port[slot] ?? -1;
    if (port >= 0) {
      this.byPort[port] = (this.byPort[port] ?? 0) + d;
      if (this.encap[slot] !== ENCAP_IPOE) this.pppByPort[port] = (this.pppByPort[port] ?? 0) + d;
    } else this.lnsCount += d;
    this.byVrf[this.vrf[slot] ?? 0] = (this.byVrf[this.vrf[slot] ?? 0] ?? 0) + d;
    if (this.walledGarden[slot] === 1) this.walledGardenCount += d;
  }

  /** Makes room for VRFs learnt after construction (Model.addVrf). */
  growVrfs(vrfs: number): void {
    if (vrfs <= this.byVrf.length) return;
    const next = new Int32Array(vrfs);
    next.set(this.byVrf);
    this.byVrf = next;
    while (this.vrfBits.length < vrfs) this.vrfBits.push(new Int32Array(this.liveBits.length));
  }

  /** Drops index entries of sessions that went down (they are skipped until then). */
  #compactOrder(): void {
    let w = 0;
    for (let r = 0; r < this.orderLen; r++) {
      const slot = this.orderSlots[r] ?? -1;
      const id = this.orderIds[r] ?? 0;
      if (slot >= 0 && this.alive[slot] === 1 && this.id[slot] === id) {
        this.orderIds[w] = id;
        this.orderSlots[w++] = slot;
      }
    }
    this.orderLen = w;
    this.#reindex();
  }
}

/** Sets (on) or clears one bit of a bitset, when there is one. */
function flip(bits: Int32Array | undefined, w: number, bit: number, on: boolean): void {
  if (bits) bits[w] = on ? (bits[w] ?? 0) | bit : (bits[w] ?? 0) & ~bit;
}

/** 32-bit words of a bitset over `n` positions. */
function wordsFor(n: number): number {
  return (n + 31) >>> 5;
}

/**
 * The id-ordered index's length for `n` slots: room for a quarter more
 * entries of ended sessions until the next compaction (an O(n) pass, so
 * every n/4 setups at least).
 */
function orderLength(n: number): number {
  return Math.ceil(n * 1.25) + 1024;
}
