/**
 * Snapshots: the model's whole state as JSON-safe metadata plus typed-array
 * buffers, so a Durable Object can persist it and resume without replaying
 * hours of steps. Typed arrays anywhere in the state tree are lifted out into
 * `blobs` and replaced by `{ $blob: index, type }` markers. `encodeSnapshot`
 * packs everything into byte chunks no larger than a limit (a DO SQLite BLOB
 * holds about 2 MB); `decodeSnapshot` reverses it. Metrics history is not
 * included: the spec says it restarts with the control plane.
 *
 * Memory: a deployed Durable Object has 128 MB, and the state of a large
 * appliance is tens of MB, so neither direction holds a second copy of it:
 * `snapshotChunks` reads the model's own arrays (views) and hands out one
 * chunk at a time, and `decodeSnapshot` reads chunks one at a time into the
 * blobs, which `restoreModel` then adopts instead of copying.
 */
import { AlarmBook } from "./alarms.ts";
import { LogRing } from "./logs.ts";
import type { L2tpTableState } from "./l2tp.ts";
import type { LicenceTerms } from "./licence.ts";
import type { LicenceState } from "./vocabulary.ts";
import type { LocalTableState } from "./local-subscribers.ts";
import { NO_LEASE } from "./sessions.ts";
import { Model, type Daemon, type Tally } from "./model.ts";
import type { PoolDefinition } from "./pool-rules.ts";
import type { Profile } from "./profile.ts";
import { Random, mix32, type RandomState } from "./random.ts";
import type { Maintenance } from "./upgrade-plan.ts";

/** Snapshot format identifier. */
export const SNAPSHOT_FORMAT = "bngfleet-sim/1";

/** A JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A snapshot: JSON-safe metadata plus binary buffers. */
export interface GatewaySnapshot {
  format: typeof SNAPSHOT_FORMAT;
  meta: Json;
  blobs: ArrayBufferView[];
}

type Typed = Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array | Float32Array | Float64Array;
const TYPED = {
  Int8Array,
  Uint8Array,
  Int16Array,
  Uint16Array,
  Int32Array,
  Uint32Array,
  Float32Array,
  Float64Array,
} as const;
type TypedName = keyof typeof TYPED;

/** Buffers `decodeSnapshot` allocated and nothing else holds: `lower` adopts them once instead of copying. */
const owned = new WeakSet<ArrayBuffer>();

/** A fingerprint of a profile, so a snapshot is never restored onto a different one. */
export function profileFingerprint(profile: Profile): string {
  const text = JSON.stringify(profile);
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = mix32(h ^ text.charCodeAt(i));
  return `${profile.name}:${h.toString(16)}:${text.length}`;
}

/**
 * Captures the model's state. With `views`, the blobs are views of the model's
 * own arrays, valid only until the model next changes: for a caller that
 * encodes them at once (`snapshotChunks`), sparing a copy of the whole state.
 */
export function snapshotModel(m: Model, views = false): GatewaySnapshot {
  const s = m.store;
  const hw = s.highWater;
  const columns: Record<string, Typed> = {};
  const cols: [string, Typed][] = [
    ["alive", s.alive],
    ["id", s.id],
    ["sub", s.sub],
    ["encap", s.encap],
    ["port", s.port],
    ["svlan", s.svlan],
    ["cvlan", s.cvlan],
    ["plan", s.plan],
    ["vrf", s.vrf],
    ["realm", s.realm],
    ["walledGarden", s.walledGarden],
    ["aaa", s.aaa],
    ["v4Pool", s.v4Pool],
    ["v4Subnet", s.v4Subnet],
    ["v4Ord", s.v4Ord],
    ["v4Addr", s.v4Addr],
    ["wanPool", s.wanPool],
    ["wanSubnet", s.wanSubnet],
    ["wanOrd", s.wanOrd],
    ["pdPool", s.pdPool],
    ["pdSubnet", s.pdSubnet],
    ["pdOrd", s.pdOrd],
    ["cgn", s.cgn],
    ["upMs", s.upMs],
    ["leaseMs", s.leaseMs],
    ["leaseEnd", s.leaseEnd],
    ["endAt", s.endAt],
    ["endKind", s.endKind],
    ["quietUntil", s.quietUntil],
    ["acctAt", s.acctAt],
    ["activity", s.activity],
    ["rxBps", s.rxBps],
    ["txBps", s.txBps],
    ["rxBytes", s.rxBytes],
    ["txBytes", s.txBytes],
    ["rxPps", s.rxPps],
    ["txPps", s.txPps],
    ["rxPkts", s.rxPkts],
    ["txPkts", s.txPkts],
    ["rateTick", s.rateTick],
  ];
  // Views of the live columns: `lift` copies each once unless `views`, so a kept snapshot never aliases the model.
  for (const [name, arr] of cols) columns[name] = arr.subarray(0, hw);
  const state = {
    fingerprint: profileFingerprint(m.profile),
    seed: m.seed,
    rng: [...m.rng.state()],
    nowMs: m.nowMs,
    pendingMs: m.pendingMs,
    tick: m.tick,
    nextSessionId: m.nextSessionId,
    churnMultiplier: m.churnMultiplier,
    peakSessions: m.peakSessions,
    upSinceSample: m.upSinceSample,
    lossRing: m.lossRing,
    lossAt: m.lossAt,
    downSinceSample: m.downSinceSample,
    tally: { ...m.tally },
    sessionEvents: { ...m.sessionEvents },
    offlineCount: m.offlineCount,
    readyCount: m.readyCount,
    offline: m.offline,
    offlinePos: m.offlinePos,
    backAt: m.backAt,
    store: { highWater: hw, columns, live: s.live.slice(0, s.liveCount), free: s.freeSlots() },
    pools: m.pools.map((p) => p.exportState()),
    cgn: m.cgn.exportState(),
    radius: m.radius.exportState(),
    alarms: m.alarms.exportState(),
    captures: m.captures.exportState(),
    logs: m.logs.exportState(),
    // VRFs learnt after construction (local subscribers' configured VRFs), in index order.
    extraVrfs: m.vrfNames.slice(m.profile.vrfs.length),
    locals: m.locals.exportState(),
    // The running pools: configuration may have changed them since the profile's (pool-reconfigure.ts).
    poolConfigs: m.poolConfigs,
    l2tp: m.l2tp.exportState(hw),
    licence: { terms: m.licence, state: m.licenceState },
    daemonsDown: [...m.daemonsDown],
    bootedMs: m.bootedMs,
    portCounters: m.portCounters.exportState(),
    maintenance: m.maintenance as unknown as Json,
  };
  const blobs: ArrayBufferView[] = [];
  const meta = lift(state, blobs, views);
  return { format: SNAPSHOT_FORMAT, meta, blobs };
}

/** Rebuilds a model from a snapshot taken with the same profile. */
export function restoreModel(
  profile: Profile,
  snapshot: GatewaySnapshot,
): { ok: true; model: Model } | { ok: false; reason: "bad-format" | "profile-mismatch" } {
  if (snapshot?.format !== SNAPSHOT_FORMAT || !Array.isArray(snapshot.blobs))
    return { ok: false, reason: "bad-format" };
  // The state tree is our own output; its shape is trusted once the format and fingerprint match.
  const st = lower(snapshot.meta, snapshot.blobs) as SnapshotState;
  if (typeof st !== "object" || st === null || typeof st.fingerprint !== "string")
    return { ok: false, reason: "bad-format" };
  if (st.fingerprint !== profileFingerprint(profile)) return { ok: false, reason: "profile-mismatch" };
  const logs = LogRing.fromState(st.logs);
  const m = new Model(profile, st.seed, st.nowMs, logs);
  m.rng = Random.fromState(st.rng);
  m.nowMs = st.nowMs;
  m.pendingMs = st.pendingMs;
  m.tick = st.tick;
  m.nextSessionId = st.nextSessionId;
  m.churnMultiplier = st.churnMultiplier;
  m.peakSessions = st.peakSessions;
  m.upSinceSample = st.upSinceSample;
  if (st.lossRing) m.lossRing.set(st.lossRing);
  m.lossAt = st.lossAt ?? 0;
  m.downSinceSample = st.downSinceSample;
  m.tally = { ...st.tally };
  // Snapshots written before these counters: they start from zero, as a counter reset.
  if (st.sessionEvents) m.sessionEvents = { ...st.sessionEvents };
  m.offlineCount = st.offlineCount;
  m.readyCount = st.readyCount;
  m.offline.set(st.offline);
  m.offlinePos.set(st.offlinePos);
  m.backAt.set(st.backAt);
  // The returns to come, filed again from the subscribers' `backAt` (those due have been taken).
  m.returns.clear();
  m.backAt.forEach((back, sub) => {
    if (back > 0) m.returns.add(sub, back * 1000);
  });
  // Learnt VRFs first: the session table's VRF column and counters index them.
  for (const name of st.extraVrfs ?? []) m.addVrf(name);
  // Then the running pools: the session columns, the local subscribers' holds and the pool states index them.
  if (st.poolConfigs) m.installPools(st.poolConfigs);
  const s = m.store;
  s.ensure(st.store.highWater);
  const target = s as unknown as Record<string, Typed>;
  for (const [name, arr] of Object.entries(st.store.columns)) target[name]?.set(arr);
  s.highWater = st.store.highWater;
  if (!st.store.columns.rateTick) {
    // Snapshots written before rates were whole and bytes counted as a rate changes: bytes are counted through
    // this sub-step, a rate is rounded so the per-port sums (made in `rebuild`) stay exact, and a PPP session's
    // lease was 0 rather than NO_LEASE.
    s.rateTick.fill(st.tick);
    for (let slot = 0; slot < s.highWater; slot++) {
      s.rxBps[slot] = Math.round(s.rxBps[slot] ?? 0);
      s.txBps[slot] = Math.round(s.txBps[slot] ?? 0);
      if (s.leaseMs[slot] === 0) s.leaseMs[slot] = NO_LEASE;
    }
  }
  if (!st.store.columns.rxPkts) {
    // Snapshots written before packets were counted as drawn (traffic.ts): their packet counters were the bytes at
    // the average sizes of that version (400 bytes up, 1,100 down); they go on from there, so none goes backwards.
    // Until a session's next draw its packet rate is its bit rate at those sizes, whole so the port sums stay exact.
    for (let slot = 0; slot < s.highWater; slot++) {
      s.rxPkts[slot] = (s.rxBytes[slot] ?? 0) / 400;
      s.txPkts[slot] = (s.txBytes[slot] ?? 0) / 1100;
      s.rxPps[slot] = Math.round((s.rxBps[slot] ?? 0) / 3200);
      s.txPps[slot] = Math.round((s.txBps[slot] ?? 0) / 8800);
    }
  }
  s.rebuild(st.store.free, st.store.live);
  for (const slot of st.store.live) if ((s.sub[slot] ?? -1) >= 0) m.slotOfSub[s.sub[slot] ?? 0] = slot;
  m.locals.importState(m, st.locals);
  m.pools.forEach((p, i) => {
    const ps = st.pools[i];
    if (ps) p.importState(ps);
  });
  m.cgn.importState(st.cgn);
  m.radius.importState(st.radius);
  (m.alarms as AlarmBook).importState(st.alarms);
  m.captures.importState(st.captures);
  if (st.licence) {
    m.licence = { ...st.licence.terms };
    m.licenceState = st.licence.state;
  }
  if (st.l2tp) m.l2tp.importState(st.l2tp, st.store.live);
  // Snapshots written before L2TP tunnels existed: the live sessions are put on tunnels as they stand.
  else for (const slot of st.store.live) m.l2tp.attach(m, slot);
  m.daemonsDown = new Set(st.daemonsDown ?? []);
  if (typeof st.bootedMs === "number") m.bootedMs = st.bootedMs;
  m.portCounters.importState(st.portCounters, m.profile.ports.length);
  m.maintenance = st.maintenance ?? null;
  return { ok: true, model: m };
}

interface SnapshotState {
  fingerprint: string;
  seed: number;
  rng: RandomState;
  nowMs: number;
  pendingMs: number;
  tick: number;
  nextSessionId: number;
  churnMultiplier: number;
  peakSessions: number;
  upSinceSample: number;
  /** Absent in snapshots written before the session-loss alarm: nothing lost. */
  lossRing?: Int32Array;
  lossAt?: number;
  downSinceSample: number;
  tally: Tally;
  sessionEvents?: Model["sessionEvents"];
  offlineCount: number;
  readyCount: number;
  offline: Int32Array;
  offlinePos: Int32Array;
  backAt: Uint32Array;
  store: { highWater: number; columns: Record<string, Typed>; live: Int32Array; free: Int32Array };
  pools: ReturnType<Model["pools"][number]["exportState"]>[];
  cgn: ReturnType<Model["cgn"]["exportState"]>;
  radius: ReturnType<Model["radius"]["exportState"]>;
  alarms: ReturnType<AlarmBook["exportState"]>;
  captures: ReturnType<Model["captures"]["exportState"]>;
  logs: ReturnType<LogRing["exportState"]>;
  /** Absent in snapshots written before local subscribers existed. */
  extraVrfs?: string[];
  locals?: LocalTableState;
  /** Absent in snapshots written before pools were configurable: the profile's. */
  poolConfigs?: PoolDefinition[];
  /** Absent in snapshots written before L2TP tunnels and licensing existed. */
  l2tp?: L2tpTableState;
  licence?: { terms: LicenceTerms; state: LicenceState };
  /** Absent in snapshots written before daemon faults existed: none. */
  daemonsDown?: Daemon[];
  /** Absent in snapshots written before the system endpoints: the restored instant, counters from zero, no upgrade. */
  bootedMs?: number;
  portCounters?: Float64Array;
  maintenance?: Maintenance | null;
}

/**
 * Replaces typed arrays by blob markers, copying each unless `views` (the state tree may hold views of the model's own
 * arrays).
 */
function lift(value: unknown, blobs: ArrayBufferView[], views: boolean): Json {
  if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
    const typed = value as Typed;
    blobs.push(views ? typed : typed.slice());
    return { $blob: blobs.length - 1, type: typed.constructor.name };
  }
  if (Array.isArray(value)) return value.map((v) => lift(v, blobs, views));
  if (value !== null && typeof value === "object") {
    const out: { [key: string]: Json } = {};
    for (const [k, v] of Object.entries(value)) out[k] = lift(v, blobs, views);
    return out;
  }
  if (typeof value === "number" && !Number.isFinite(value)) throw new Error(`non-finite number in snapshot state`);
  return value as Json;
}

/** Replaces blob markers by typed arrays (a buffer `decodeSnapshot` made is adopted, any other copied). */
function lower(value: Json, blobs: readonly ArrayBufferView[]): unknown {
  if (Array.isArray(value)) return value.map((v) => lower(v, blobs));
  if (value !== null && typeof value === "object") {
    const marker = value as { $blob?: unknown; type?: unknown };
    if (typeof marker.$blob === "number" && typeof marker.type === "string" && Object.hasOwn(TYPED, marker.type)) {
      const Ctor = TYPED[marker.type as TypedName];
      const blob = blobs[marker.$blob] ?? new Uint8Array(0);
      const whole = blob.byteOffset === 0 && blob.byteLength === blob.buffer.byteLength;
      if (whole && owned.delete(blob.buffer as ArrayBuffer)) return new Ctor(blob.buffer as ArrayBuffer);
      return new Ctor(bytesOf(blob).slice().buffer);
    }
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = lower(v, blobs);
    return out;
  }
  return value;
}

/** Default chunk size: comfortably under a Durable Object SQLite BLOB's ~2 MB. */
export const DEFAULT_CHUNK_BYTES = 1_900_000;

/** The bytes of a typed array or an ArrayBuffer, as a view (no copy). */
function bytesOf(data: ArrayBufferView | ArrayBuffer): Uint8Array {
  return data instanceof ArrayBuffer
    ? new Uint8Array(data)
    : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

/**
 * Packs a snapshot into byte chunks of at most `maxChunkBytes`, one at a time:
 * a 4-byte little-endian header length, the UTF-8 JSON header (format, meta,
 * blob sizes), then the blobs back to back. Each chunk is a fresh buffer
 * filled when it is asked for, so a caller that stores and drops each one
 * never holds more than one chunk besides the state.
 */
export function* snapshotChunks(snapshot: GatewaySnapshot, maxChunkBytes = DEFAULT_CHUNK_BYTES): Generator<Uint8Array> {
  const header = new TextEncoder().encode(
    JSON.stringify({ format: snapshot.format, meta: snapshot.meta, sizes: snapshot.blobs.map((b) => b.byteLength) }),
  );
  const length = new Uint8Array(4);
  new DataView(length.buffer).setUint32(0, header.length, true);
  const parts = [length, header, ...snapshot.blobs.map(bytesOf)];
  let left = parts.reduce((n, p) => n + p.length, 0);
  const size = Math.max(1024, Math.floor(maxChunkBytes));
  let part = 0;
  let from = 0;
  while (left > 0) {
    const chunk = new Uint8Array(Math.min(size, left));
    for (let into = 0; into < chunk.length; ) {
      const source = parts[part] as Uint8Array;
      const n = Math.min(source.length - from, chunk.length - into);
      chunk.set(source.subarray(from, from + n), into);
      into += n;
      from += n;
      if (from === source.length) {
        part++;
        from = 0;
      }
    }
    left -= chunk.length;
    yield chunk;
  }
}

/** All of `snapshotChunks` at once. */
export function encodeSnapshot(snapshot: GatewaySnapshot, maxChunkBytes = DEFAULT_CHUNK_BYTES): Uint8Array[] {
  return [...snapshotChunks(snapshot, maxChunkBytes)];
}

/**
 * Reassembles chunks written by `encodeSnapshot`, reading them in order and
 * one at a time (an iterator over stored rows need not hold them all): each
 * blob is allocated once and filled from the chunks it spans.
 */
export function decodeSnapshot(
  chunks: Iterable<Uint8Array | ArrayBuffer>,
): { ok: true; snapshot: GatewaySnapshot } | { ok: false; reason: "bad-format" } {
  const source = chunks[Symbol.iterator]();
  let current: Uint8Array = new Uint8Array(0);
  let at = 0;
  /** Fills `into` from the chunks; false when they end first. */
  const read = (into: Uint8Array): boolean => {
    for (let filled = 0; filled < into.length; ) {
      if (at === current.length) {
        const next = source.next();
        if (next.done) return false;
        current = bytesOf(next.value);
        at = 0;
        continue;
      }
      const n = Math.min(current.length - at, into.length - filled);
      into.set(current.subarray(at, at + n), filled);
      filled += n;
      at += n;
    }
    return true;
  };
  const length = new Uint8Array(4);
  if (!read(length)) return { ok: false, reason: "bad-format" };
  const headerBytes = new Uint8Array(new DataView(length.buffer).getUint32(0, true));
  if (!read(headerBytes)) return { ok: false, reason: "bad-format" };
  let header: { format?: unknown; meta?: Json; sizes?: unknown };
  try {
    header = JSON.parse(new TextDecoder().decode(headerBytes)) as typeof header;
  } catch {
    return { ok: false, reason: "bad-format" };
  }
  if (header.format !== SNAPSHOT_FORMAT || !Array.isArray(header.sizes) || header.meta === undefined)
    return { ok: false, reason: "bad-format" };
  const blobs: Uint8Array[] = [];
  for (const size of header.sizes) {
    if (typeof size !== "number" || !Number.isSafeInteger(size) || size < 0) return { ok: false, reason: "bad-format" };
    const blob = new Uint8Array(size);
    if (!read(blob)) return { ok: false, reason: "bad-format" };
    owned.add(blob.buffer);
    blobs.push(blob);
  }
  return { ok: true, snapshot: { format: SNAPSHOT_FORMAT, meta: header.meta, blobs } };
}
