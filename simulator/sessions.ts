/**
 * The live session table as struct-of-arrays, indexed by slot, with a free
 * list of slots, a dense list of live slots (O(1) uniform pick for churn and
 * an O(live) traffic loop), an id-ordered index (session ids only grow, so
 * appending keeps it sorted: newest-first listing and O(log n) lookup by id),
 * and incremental counters so the summary never recounts.
 */

/** Number of encapsulations. */
const ENCAP_COUNT = 4;

/** The live session table. */
export class SessionStore {
  readonly capacity: number;
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
  leaseMs: Float64Array;
  activity: Float32Array;
  rxBps: Float32Array;
  txBps: Float32Array;
  rxBytes: Float64Array;
  txBytes: Float64Array;
  rxPackets: Float64Array;
  txPackets: Float64Array;
  liveIndex: Int32Array;
  /** Usernames by slot, cached at setup (derived from the subscriber, so not snapshotted). */
  usernames: string[];

  live: Int32Array;
  liveCount = 0;
  #freeSlots: Int32Array;
  #freeTop: number;
  /** Slots used at least once: arrays beyond this are untouched (snapshot size). */
  highWater = 0;
  orderIds: Uint32Array;
  orderSlots: Int32Array;
  orderLen = 0;

  byEncap = new Int32Array(ENCAP_COUNT);
  byPort: Int32Array;
  byVrf: Int32Array;
  walledGardenCount = 0;
  lnsCount = 0;

  constructor(capacity: number, ports: number, vrfs: number) {
    this.capacity = capacity;
    this.alive = new Uint8Array(capacity);
    this.id = new Uint32Array(capacity);
    this.sub = new Int32Array(capacity);
    this.encap = new Uint8Array(capacity);
    this.port = new Int16Array(capacity);
    this.svlan = new Uint16Array(capacity);
    this.cvlan = new Uint16Array(capacity);
    this.plan = new Uint8Array(capacity);
    this.vrf = new Uint8Array(capacity);
    this.realm = new Uint8Array(capacity);
    this.walledGarden = new Uint8Array(capacity);
    this.aaa = new Int16Array(capacity);
    this.v4Pool = new Int16Array(capacity);
    this.v4Subnet = new Uint8Array(capacity);
    this.v4Ord = new Int32Array(capacity);
    this.v4Addr = new Uint32Array(capacity);
    this.wanPool = new Int16Array(capacity);
    this.wanSubnet = new Uint8Array(capacity);
    this.wanOrd = new Int32Array(capacity);
    this.pdPool = new Int16Array(capacity);
    this.pdSubnet = new Uint8Array(capacity);
    this.pdOrd = new Int32Array(capacity);
    this.cgn = new Int32Array(capacity);
    this.upMs = new Float64Array(capacity);
    this.leaseMs = new Float64Array(capacity);
    this.activity = new Float32Array(capacity);
    this.rxBps = new Float32Array(capacity);
    this.txBps = new Float32Array(capacity);
    this.rxBytes = new Float64Array(capacity);
    this.txBytes = new Float64Array(capacity);
    this.rxPackets = new Float64Array(capacity);
    this.txPackets = new Float64Array(capacity);
    this.liveIndex = new Int32Array(capacity);
    this.usernames = new Array<string>(capacity).fill("");
    this.live = new Int32Array(capacity);
    this.#freeSlots = new Int32Array(capacity);
    for (let i = 0; i < capacity; i++) this.#freeSlots[i] = capacity - 1 - i;
    this.#freeTop = capacity;
    this.orderIds = new Uint32Array(capacity * 2 + 1024);
    this.orderSlots = new Int32Array(capacity * 2 + 1024);
    this.byPort = new Int32Array(ports);
    this.byVrf = new Int32Array(vrfs);
  }

  /** Live sessions. */
  get total(): number {
    return this.liveCount;
  }

  /** Whether a slot can be taken. */
  get full(): boolean {
    return this.#freeTop === 0;
  }

  /** Takes a free slot (the caller fills its columns, then calls `activate`). */
  takeSlot(): number {
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
    // A new session has carried no traffic yet.
    this.rxBps[slot] = 0;
    this.txBps[slot] = 0;
    this.rxBytes[slot] = 0;
    this.txBytes[slot] = 0;
    this.rxPackets[slot] = 0;
    this.txPackets[slot] = 0;
    this.alive[slot] = 1;
    this.id[slot] = id;
    this.liveIndex[slot] = this.liveCount;
    this.live[this.liveCount++] = slot;
    if (this.orderLen === this.orderIds.length) this.#compactOrder();
    this.orderIds[this.orderLen] = id;
    this.orderSlots[this.orderLen++] = slot;
    this.#count(slot, 1);
  }

  /** Removes a live slot and updates every counter; the caller has released its resources. */
  deactivate(slot: number): void {
    this.#count(slot, -1);
    this.alive[slot] = 0;
    const at = this.liveIndex[slot] ?? 0;
    const last = this.live[--this.liveCount] ?? 0;
    this.live[at] = last;
    this.liveIndex[last] = at;
    this.#freeSlots[this.#freeTop++] = slot;
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

  /** The free-slot stack, for a snapshot. */
  freeSlots(): Int32Array {
    return this.#freeSlots.slice(0, this.#freeTop);
  }

  /** Rebuilds the derived indexes (live list, order, counters) after the columns were restored. */
  rebuild(freeSlots: Int32Array, liveOrder: Int32Array): void {
    this.#freeSlots.set(freeSlots);
    this.#freeTop = freeSlots.length;
    this.liveCount = 0;
    this.byEncap.fill(0);
    this.byPort.fill(0);
    this.byVrf.fill(0);
    this.walledGardenCount = 0;
    this.lnsCount = 0;
    // The live list order decides which session churn picks, so it is restored exactly.
    for (const slot of liveOrder) {
      this.liveIndex[slot] = this.liveCount;
      this.live[this.liveCount++] = slot;
      this.#count(slot, 1);
    }
    const byId = [...liveOrder].sort((a, b) => (this.id[a] ?? 0) - (this.id[b] ?? 0));
    this.orderLen = 0;
    for (const slot of byId) {
      this.orderIds[this.orderLen] = this.id[slot] ?? 0;
      this.orderSlots[this.orderLen++] = slot;
    }
  }

  #count(slot: number, d: number): void {
    this.byEncap[this.encap[slot] ?? 0] = (this.byEncap[this.encap[slot] ?? 0] ?? 0) + d;
    const port = this.port[slot] ?? -1;
    if (port >= 0) this.byPort[port] = (this.byPort[port] ?? 0) + d;
    else this.lnsCount += d;
    this.byVrf[this.vrf[slot] ?? 0] = (this.byVrf[this.vrf[slot] ?? 0] ?? 0) + d;
    if (this.walledGarden[slot] === 1) this.walledGardenCount += d;
  }

  /** Makes room for VRFs learnt after construction (Model.addVrf). */
  growVrfs(vrfs: number): void {
    if (vrfs <= this.byVrf.length) return;
    const next = new Int32Array(vrfs);
    next.set(this.byVrf);
    this.byVrf = next;
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
  }
}
