/**
 * L2TP tunnels (RFC 2661). A `pppoe-lac` session is a PPPoE session this
 * appliance, as LAC, forwards to a wholesale LNS: it rides an upstream
 * tunnel. An `l2tp` session arrives from a remote LAC and is terminated here,
 * as LNS: it rides a downstream tunnel. Every such session rides exactly one
 * tunnel, so a direction's tunnel `sessions` always sum to its encapsulation's
 * count in the sessions summary.
 *
 * Peers come from the profile's `l2tp` section; a realm listing none for a
 * direction gets two derived ones. A session's peer is a pure function of
 * (seed, subscriber), so a subscriber that reconnects returns to its peer.
 * Tunnels open on demand and move through:
 *
 *   first session for a peer ─ SCCRQ/SCCRP/SCCCN (wait-ctl) ─→ established
 *   established ─ its last session goes down ─→ idle ─ a session ─→ established
 *   idle ─ idleTimeoutSeconds without a session ─→ closed (StopCCN) ─ closedRetentionSeconds ─→ gone
 *   unreachable peer: wait-ctl ─ no answer after HANDSHAKE_GIVE_UP_MS ─→ closed (no-response)
 *                     wait-ctl ─ the peer answers a retransmission ─→ idle (then as above)
 *
 * With a reachable peer the control handshake completes inside the sub-step
 * that brings the first session (a few round trips against a 10 s step), so
 * such a tunnel is never read in `wait-ctl`. A peer made unreachable (the
 * scenario action `fail-l2tp-peer`) is found out as a LAC or LNS finds it out:
 * each of its tunnels at its next Hello (every `helloIntervalSeconds`, 60 by
 * default, as Cisco's and Juniper's) once the retransmissions give up 31 s
 * later (RFC 2661 §5.8), closing with reason `hello-timeout` and its sessions
 * with it; a handshake that nobody answers stays `wait-ctl` and closes
 * `no-response` 31 s after its SCCRQ. Either locks the peer out for
 * `lockoutSeconds` (300, JunosE's default) and raises `l2tp.peer.unreachable`
 * until a tunnel with the peer is established again. As LAC, a session whose
 * LNS is locked out goes to the realm's other LNSs by weight, so the failed
 * LNS's subscribers, dialling again at once, come back on them (a setup
 * storm); a session ever only rides an established tunnel. As LNS nothing
 * can be done for a failed LAC's subscribers: they are back when it is
 * (`subscribersOf`). A peer with more than `maxSessionsPerTunnel` sessions
 * gets a further tunnel. Tunnel and session ids are 16-bit and non-zero (RFC
 * 2661 §3.1), unique per appliance and per tunnel respectively.
 */
import type { L2tpTunnel, L2tpTunnelDetail, L2tpTunnelSession } from "../src/schemas/l2tp.ts";
import { isoTime } from "./clock.ts";
import type { ModelCore } from "./model-core.ts";
import type { Profile } from "./profile.ts";
import { cumulativeWeights, hash32, hashUnit, pickFromCumulative } from "./random.ts";

/** Tunnel direction: `downstream` = from a LAC, terminated here; `upstream` = to a wholesale LNS. */
export type L2tpDirection = L2tpTunnel["direction"];
/** The spec's tunnel states (`wait-ctl` is transient: see above). */
export type L2tpTunnelState = L2tpTunnel["state"];

/** Encapsulation indices (profile ENCAPS order). */
const ENCAP_PPPOE_LAC = 2;
const ENCAP_L2TP = 3;
const L2TP_PORT = 1701;
/** `#pick`'s answer when every LNS of the realm is locked out. */
const NO_PEER = -2;
const MAX_ID = 65_535;
/**
 * How long an unanswered SCCRQ keeps a tunnel in `wait-ctl`: RFC 2661 §5.8's
 * recommended schedule (first timeout 1 s, doubling, capped at 8 s, five
 * retransmissions) sends at 0, 1, 3, 7, 15 and 23 s and gives up 8 s later.
 */
export const HANDSHAKE_GIVE_UP_MS = 31_000;
/** How an L2TP setup stands: it may ride a tunnel, it waits on its peer (tried again), or its LAC is down. */
export type Admission = "ok" | "waiting" | "lac-down";
/** Vendor Name AVPs the derived peers announce. */
const VENDORS = ["Cisco Systems, Inc.", "Juniper Networks, Inc.", "Nokia"];

/** A peer as the model runs it. */
export interface L2tpPeer {
  direction: L2tpDirection;
  realm: string;
  ip: string;
  port: number;
  hostname: string;
  vendor: string | null;
  vrf: string | null;
  weight: number;
}

/** The effective L2TP settings: the profile's section (or its defaults) with derived peers filled in. */
export interface L2tpSettings {
  localAddress: string;
  idleTimeoutSeconds: number;
  closedRetentionSeconds: number;
  maxSessionsPerTunnel: number;
  helloIntervalSeconds: number;
  lockoutSeconds: number;
  peers: L2tpPeer[];
}

interface Tunnel {
  localId: number;
  peerId: number;
  /** Index into the settings' peers. */
  peer: number;
  state: L2tpTunnelState;
  createdMs: number;
  /** Last session setup or teardown on the tunnel. */
  lastActivityMs: number;
  closedMs: number;
  sessions: number;
  nextSid: number;
  /** When the unanswered Hello gives up on an unreachable peer (0: the peer answers, or nothing is due). */
  deadAtMs?: number;
}

/**
 * A session as its tunnel knows it: its slot, encapsulation and L2TP session ids (RFC 2661 §3.1). Its other columns
 * (username, addresses, uptime) are the session table's, which views.ts adds: the session queries read the whole
 * model, which holds this table.
 */
interface TunnelSession {
  slot: number;
  encap: L2tpTunnelSession["encap"];
  localSessionId: number;
  peerSessionId: number;
}

/** A tunnel in detail, with the sessions it carries as it knows them. */
type TunnelDetail = Omit<L2tpTunnelDetail, "sessionList"> & { sessionList: TunnelSession[] };

/** Serialisable tunnel state (snapshot). */
export interface L2tpTableState {
  nextTunnelId: number;
  opened: number;
  tunnels: Tunnel[];
  tunnelOf: Uint16Array;
  sid: Uint16Array;
  /**
   * Peers a scenario made unreachable (indices into the settings' peers); absent in snapshots taken before it existed.
   */
  unreachable?: number[];
  /** Until when each peer is locked out (ms; 0 = not), by peer index. */
  lockedUntil?: number[];
}

/**
 * The profile's L2TP settings with defaults, and two derived peers per realm and direction the profile leaves without.
 */
export function l2tpSettings(profile: Profile): L2tpSettings {
  const s = profile.l2tp;
  const peers: L2tpPeer[] = [];
  const configured = (list: "lnsPeers" | "lacPeers") => s?.[list] ?? [];
  const directions = [
    { direction: "upstream", encap: "pppoe-lac", list: "lnsPeers", role: "lns", net: "198.51.100" },
    { direction: "downstream", encap: "l2tp", list: "lacPeers", role: "lac", net: "203.0.113" },
  ] as const;
  for (const d of directions) {
    let derived = 0;
    profile.identities.realms.forEach((realm, r) => {
      if (!realm.encaps.includes(d.encap)) return;
      const own = configured(d.list).filter((p) => p.realm === realm.domain);
      if (own.length > 0) {
        for (const p of own)
          peers.push({
            direction: d.direction,
            realm: p.realm,
            ip: p.ip,
            port: p.port,
            hostname: p.hostname,
            vendor: p.vendor,
            vrf: p.vrf,
            weight: p.weight,
          });
        return;
      }
      for (let k = 1; k <= 2; k++) {
        // Documentation ranges (RFC 5737): upstream LNSs in 198.51.100.0/24, downstream LACs in 203.0.113.0/24.
        const host = 10 + (derived++ % 240);
        peers.push({
          direction: d.direction,
          realm: realm.domain,
          ip: `${d.net}.${host}`,
          port: L2TP_PORT,
          hostname: `${d.role}-${k}.${realm.domain}`,
          vendor: VENDORS[(r + k) % VENDORS.length] ?? null,
          vrf: null,
          weight: 1,
        });
      }
    });
  }
  return {
    localAddress: s?.localAddress ?? "192.0.2.1",
    idleTimeoutSeconds: s?.idleTimeoutSeconds ?? 300,
    closedRetentionSeconds: s?.closedRetentionSeconds ?? 60,
    maxSessionsPerTunnel: s?.maxSessionsPerTunnel ?? 2000,
    helloIntervalSeconds: s?.helloIntervalSeconds ?? 60,
    lockoutSeconds: s?.lockoutSeconds ?? 300,
    peers,
  };
}

/** The tunnel table and each live session's tunnel and session ids. */
export class L2tpTable {
  readonly settings: L2tpSettings;
  readonly #seed: number;
  /** Per direction (0 upstream, 1 downstream) and realm index: peer indices and their cumulative weights. */
  readonly #choices: { peers: number[]; cumulative: Float64Array }[][];
  readonly #tunnels = new Map<number, Tunnel>();
  /** Local tunnel ids per peer, in opening order. */
  #byPeer: number[][];
  /** Session ids in use per tunnel (derived from the slot columns, so not snapshotted). */
  readonly #sids = new Map<number, Set<number>>();
  /** Per slot: the local tunnel id its session rides (0 = none) and its local session id. */
  tunnelOf: Uint16Array;
  sid: Uint16Array;
  #nextTunnelId: number;
  /** Tunnels opened since start: seeds each new tunnel's peer tunnel id. */
  #opened = 0;
  /** Peers that answer nothing (scenario `fail-l2tp-peer`). */
  readonly #unreachable = new Set<number>();
  /** Until when each peer is locked out after a tunnel with it failed (ms; 0 = not). */
  #lockedUntil: number[];

  constructor(profile: Profile, seed: number, capacity: number) {
    this.settings = l2tpSettings(profile);
    this.#seed = seed >>> 0;
    this.#choices = (["upstream", "downstream"] as const).map((direction) =>
      profile.identities.realms.map((realm) => {
        const peers = this.settings.peers.flatMap((p, i) =>
          p.direction === direction && p.realm === realm.domain ? [i] : [],
        );
        return { peers, cumulative: cumulativeWeights(peers.map((i) => this.settings.peers[i]?.weight ?? 0)) };
      }),
    );
    this.#byPeer = this.settings.peers.map(() => []);
    this.#lockedUntil = this.settings.peers.map(() => 0);
    this.tunnelOf = new Uint16Array(capacity);
    this.sid = new Uint16Array(capacity);
    this.#nextTunnelId = 1 + (hash32(this.#seed, 0, 22) % MAX_ID);
  }

  /**
   * Whether a new session of this encapsulation, realm and subscriber can ride
   * a tunnel (other encapsulations always can). As LAC: its LNS (the realm's
   * other ones while it is locked out) must answer; one that does not leaves
   * (or starts) a handshake pending in `wait-ctl`, and the setup waits. As
   * LNS: a failed LAC brings nobody.
   */
  admit(m: ModelCore, encap: number, realm: number, sub: number): Admission {
    const direction = encap === ENCAP_PPPOE_LAC ? 0 : encap === ENCAP_L2TP ? 1 : -1;
    if (direction < 0) return "ok";
    const peer = this.#pick(direction, realm, sub, m.nowMs);
    if (peer === NO_PEER) return "waiting";
    if (peer < 0 || !this.#unreachable.has(peer)) return "ok";
    if (direction === 1) return "lac-down";
    // Not found out yet: an established tunnel's Hello is still due (its ICRQ goes unanswered), or a handshake starts.
    const tunnels = (this.#byPeer[peer] ?? []).map((id) => this.#tunnels.get(id)?.state);
    const pending = tunnels.some((state) => state === "wait-ctl" || state === "established" || state === "idle");
    if (!pending) this.#open(m, peer, "wait-ctl");
    return "waiting";
  }

  /** The LAC a subscriber of an `l2tp` session arrives from (its access: no other LAC carries it). */
  lacOf(realm: number, sub: number): number {
    return this.#preferred(1, realm, sub);
  }

  /** The peer with this address or host name (case-insensitive), or -1. */
  findPeer(text: string): number {
    const wanted = text.trim().toLowerCase();
    return this.settings.peers.findIndex((p) => p.ip === wanted || p.hostname.toLowerCase() === wanted);
  }

  /** The peer's address and host name, for a log line. */
  peerLabel(peer: number): string {
    const p = this.settings.peers[peer];
    return p ? `${p.hostname} (${p.ip})` : String(peer);
  }

  /**
   * Makes a peer unreachable: each of its tunnels finds it out at its next
   * Hello, which gives up 31 s later. Returns the sessions riding it now.
   */
  fail(m: ModelCore, peer: number): number {
    this.#unreachable.add(peer);
    const hello = this.settings.helloIntervalSeconds * 1000;
    let riding = 0;
    for (const id of this.#byPeer[peer] ?? []) {
      const t = this.#tunnels.get(id);
      if (!t || (t.state !== "established" && t.state !== "idle")) continue;
      // Hellos go out every interval from the tunnel's opening: the next one after now.
      const phase = (((m.nowMs - t.createdMs) % hello) + hello) % hello;
      t.deadAtMs = m.nowMs + (hello - phase) + HANDSHAKE_GIVE_UP_MS;
      riding += t.sessions;
    }
    return riding;
  }

  /** Makes a peer reachable again: a pending handshake completes at the next retransmission (the next sub-step). */
  revive(peer: number): void {
    this.#unreachable.delete(peer);
    for (const id of this.#byPeer[peer] ?? []) {
      const t = this.#tunnels.get(id);
      if (t) t.deadAtMs = 0;
    }
  }

  /** Whether a peer is locked out at an instant (a tunnel with it failed within `lockoutSeconds`). */
  lockedOut(peer: number, nowMs: number): boolean {
    return (this.#lockedUntil[peer] ?? 0) > nowMs;
  }

  /**
   * Puts a session that has just come up on its peer's tunnel (opening one if needed); other encapsulations are
   * ignored.
   */
  attach(m: ModelCore, slot: number): void {
    const encap = m.store.encap[slot];
    const direction = encap === ENCAP_PPPOE_LAC ? 0 : encap === ENCAP_L2TP ? 1 : -1;
    if (direction < 0) return;
    const peer = this.#pick(direction, m.store.realm[slot] ?? 0, m.store.sub[slot] ?? 0, m.nowMs);
    if (peer < 0) return;
    const t = this.#usable(peer) ?? this.#open(m, peer);
    const used = this.#sids.get(t.localId) ?? new Set<number>();
    this.#sids.set(t.localId, used);
    let sid = t.nextSid;
    for (let i = 0; i < MAX_ID && used.has(sid); i++) sid = (sid % MAX_ID) + 1;
    t.nextSid = (sid % MAX_ID) + 1;
    used.add(sid);
    this.tunnelOf[slot] = t.localId;
    this.sid[slot] = sid;
    t.sessions++;
    t.state = "established";
    t.lastActivityMs = m.nowMs;
  }

  /** Takes a session that is going down off its tunnel; the tunnel goes idle with its last session. */
  detach(m: ModelCore, slot: number): void {
    const id = this.tunnelOf[slot] ?? 0;
    if (id === 0) return;
    this.tunnelOf[slot] = 0;
    const t = this.#tunnels.get(id);
    if (!t) return;
    this.#sids.get(id)?.delete(this.sid[slot] ?? 0);
    t.sessions = Math.max(0, t.sessions - 1);
    t.lastActivityMs = m.nowMs;
    if (t.sessions === 0 && t.state === "established") t.state = "idle";
  }

  /**
   * One sub-step: a pending handshake completes once its peer answers (the
   * tunnel is then idle until a session comes) or gives up; a tunnel whose
   * Hello went unanswered closes; idle tunnels past the idle timeout close;
   * closed ones past the retention are forgotten. Returns the sessions of the
   * tunnels that failed, for the caller to end.
   */
  tick(m: ModelCore): number[] {
    const now = m.nowMs;
    const failed: number[] = [];
    for (const t of this.#tunnels.values()) {
      if (t.state === "wait-ctl") {
        if (!this.#unreachable.has(t.peer)) {
          t.state = "idle";
          t.lastActivityMs = now;
          this.#logUp(m, t);
        } else if (now - t.createdMs >= HANDSHAKE_GIVE_UP_MS) this.#fail(m, t, "no-response");
      } else if (t.state !== "closed" && (t.deadAtMs ?? 0) > 0 && (t.deadAtMs ?? 0) <= now) {
        failed.push(t.localId);
        this.#fail(m, t, "hello-timeout");
      } else if (t.state === "idle" && now - t.lastActivityMs >= this.settings.idleTimeoutSeconds * 1000)
        this.#close(m, t, "idle-timeout");
      else if (t.state === "closed" && now - t.closedMs >= this.settings.closedRetentionSeconds * 1000) this.#forget(t);
    }
    this.#probe(m);
    if (failed.length === 0) return [];
    const ids = new Set(failed);
    const slots: number[] = [];
    for (let slot = 0; slot < this.tunnelOf.length; slot++) if (ids.has(this.tunnelOf[slot] ?? 0)) slots.push(slot);
    return slots;
  }

  /**
   * As LAC, an LNS whose lockout ends is tried with a handshake of its own, so that one back is known to be back
   * (and its alarm cleared) without waiting for a subscriber of it to dial: JunosE's lockout test.
   */
  #probe(m: ModelCore): void {
    this.#lockedUntil.forEach((until, peer) => {
      if (until === 0 || until > m.nowMs) return;
      this.#lockedUntil[peer] = 0;
      if (this.settings.peers[peer]?.direction !== "upstream") return;
      const open = (this.#byPeer[peer] ?? []).some((id) => this.#tunnels.get(id)?.state !== "closed");
      if (!open) this.#open(m, peer, "wait-ctl");
    });
  }

  /** The subscribers of a LAC (downstream peer) among `subs`: those its revival brings back. */
  subscribersOf(m: ModelCore, peer: number, subs: Iterable<number>): number[] {
    const out: number[] = [];
    const a = m.scratch;
    for (const sub of subs) {
      m.subscribers.describe(sub, a);
      if (a.encap === ENCAP_L2TP && this.lacOf(a.realm, sub) === peer) out.push(sub);
    }
    return out;
  }

  /** A tunnel found dead: closed, its peer locked out and alarmed until a tunnel with it is up again. */
  #fail(m: ModelCore, t: Tunnel, reason: "no-response" | "hello-timeout"): void {
    t.deadAtMs = 0;
    this.#close(m, t, reason);
    this.#lockedUntil[t.peer] = m.nowMs + this.settings.lockoutSeconds * 1000;
    const p = this.settings.peers[t.peer];
    const name = p?.hostname ?? String(t.peer);
    m.alarms.observe(m.nowMs, "l2tp.peer.unreachable", name, true, false, () => ({
      text: `L2TP ${p?.direction === "upstream" ? "LNS" : "LAC"} ${name} (${p?.ip ?? ""}) does not answer: ${reason}`,
      context: { peer: name, peerIp: p?.ip ?? "", direction: p?.direction ?? "", reason },
    }));
  }

  /** The spec's tunnel list: downstream first, then by local tunnel id. */
  list(): L2tpTunnel[] {
    return [...this.#tunnels.values()]
      .map((t) => this.#row(t))
      .sort((a, b) =>
        a.direction === b.direction ? a.localTunnelId - b.localTunnelId : a.direction === "downstream" ? -1 : 1,
      );
  }

  /** One tunnel in detail with the sessions it carries (newest first), or null for an unknown id. */
  detail(m: ModelCore, localTunnelId: number): TunnelDetail | null {
    const t = this.#tunnels.get(localTunnelId);
    if (!t) return null;
    const peer = this.settings.peers[t.peer];
    const sessionList: TunnelSession[] = [];
    if (t.sessions > 0) {
      m.store.newestFirst((slot) => {
        if (this.tunnelOf[slot] !== t.localId) return;
        const sid = this.sid[slot] ?? 0;
        sessionList.push({
          slot,
          // A tunnel carries one encapsulation: LAC sessions upstream, LNS sessions downstream.
          encap: peer?.direction === "upstream" ? "pppoe-lac" : "l2tp",
          localSessionId: sid,
          peerSessionId: peerSessionId(sid, t.peerId),
        });
      });
    }
    return {
      ...this.#row(t),
      found: true,
      peerPort: peer?.port ?? null,
      localEndpoint: `${this.settings.localAddress}:${L2TP_PORT}`,
      vrfName: peer?.vrf ?? null,
      createdUtc: isoTime(t.createdMs),
      // Not up yet (handshake pending) or no longer up: no uptime.
      uptimeSeconds:
        t.state === "closed" || t.state === "wait-ctl" ? null : Math.max(0, Math.round((m.nowMs - t.createdMs) / 1000)),
      lastActivityUtc: isoTime(t.lastActivityMs),
      sessionList,
    };
  }

  /** Tunnel state for a snapshot (the slot columns up to the store's high-water mark). */
  exportState(highWater: number): L2tpTableState {
    return {
      nextTunnelId: this.#nextTunnelId,
      opened: this.#opened,
      tunnels: [...this.#tunnels.values()].map((t) => ({ ...t })),
      tunnelOf: this.tunnelOf.slice(0, highWater),
      sid: this.sid.slice(0, highWater),
      unreachable: [...this.#unreachable],
      lockedUntil: [...this.#lockedUntil],
    };
  }

  /** Restores snapshot state; the per-tunnel session id sets are rebuilt from the live slots. */
  importState(state: L2tpTableState, live: Iterable<number>): void {
    this.#nextTunnelId = state.nextTunnelId;
    this.#opened = state.opened;
    this.#unreachable.clear();
    for (const peer of state.unreachable ?? []) this.#unreachable.add(peer);
    this.#lockedUntil = this.settings.peers.map((_, i) => state.lockedUntil?.[i] ?? 0);
    this.#tunnels.clear();
    this.#byPeer = this.settings.peers.map(() => []);
    // Exported in opening order (the map's insertion order), which is the order each peer's tunnels are tried in.
    for (const t of state.tunnels) {
      this.#tunnels.set(t.localId, { ...t });
      this.#byPeer[t.peer]?.push(t.localId);
    }
    this.tunnelOf.fill(0);
    this.sid.fill(0);
    this.tunnelOf.set(state.tunnelOf);
    this.sid.set(state.sid);
    this.#sids.clear();
    const alive = new Set(live);
    for (let slot = 0; slot < state.tunnelOf.length; slot++) {
      const id = this.tunnelOf[slot] ?? 0;
      if (id === 0) continue;
      if (!alive.has(slot)) {
        this.tunnelOf[slot] = 0;
        continue;
      }
      const used = this.#sids.get(id) ?? new Set<number>();
      used.add(this.sid[slot] ?? 0);
      this.#sids.set(id, used);
    }
  }

  /**
   * The peer a new session of the subscriber rides at an instant: its own
   * (by weight, a pure function of the seed and the subscriber, so it returns
   * to it), or as LAC, while that one is locked out, the realm's other
   * unlocked LNSs by weight; NO_PEER when every one is locked out.
   */
  #pick(direction: number, realm: number, sub: number, nowMs: number): number {
    const own = this.#preferred(direction, realm, sub);
    if (own < 0 || direction === 1 || !this.lockedOut(own, nowMs)) return own;
    const choice = this.#choices[direction]?.[realm];
    const others = (choice?.peers ?? []).filter((p) => p !== own && !this.lockedOut(p, nowMs));
    if (others.length === 0) return NO_PEER;
    const cumulative = cumulativeWeights(others.map((i) => this.settings.peers[i]?.weight ?? 0));
    const total = cumulative[cumulative.length - 1] ?? 0;
    return others[pickFromCumulative(cumulative, hashUnit(this.#seed, sub >>> 0, 25) * total)] ?? NO_PEER;
  }

  /** The subscriber's own peer for a direction (by weight), whatever its state. */
  #preferred(direction: number, realm: number, sub: number): number {
    const choice = this.#choices[direction]?.[realm];
    if (!choice || choice.peers.length === 0) {
      // Not reachable with a validated profile (every realm serving the encapsulation has peers): any peer of the
      // direction.
      const any = this.settings.peers.findIndex((p) => p.direction === (direction === 0 ? "upstream" : "downstream"));
      return any;
    }
    const total = choice.cumulative[choice.cumulative.length - 1] ?? 0;
    return choice.peers[pickFromCumulative(choice.cumulative, hashUnit(this.#seed, sub >>> 0, 21) * total)] ?? -1;
  }

  /** The peer's tunnel to put a new session on: an established one with room (oldest first), else an idle one. */
  #usable(peer: number): Tunnel | undefined {
    let idle: Tunnel | undefined;
    for (const id of this.#byPeer[peer] ?? []) {
      const t = this.#tunnels.get(id);
      if (!t || t.state === "closed" || t.state === "wait-ctl" || t.sessions >= this.settings.maxSessionsPerTunnel)
        continue;
      if (t.state === "established") return t;
      idle ??= t;
    }
    return idle;
  }

  #open(m: ModelCore, peer: number, state: "established" | "wait-ctl" = "established"): Tunnel {
    let localId = this.#freeTunnelId();
    if (localId === 0) {
      // Every 16-bit id in use: make room by forgetting closed tunnels first.
      for (const t of [...this.#tunnels.values()]) if (t.state === "closed") this.#forget(t);
      localId = this.#freeTunnelId();
    }
    if (localId === 0) {
      // Not reachable with a validated profile (at most 30,000 full tunnels): overfill the peer's least loaded tunnel.
      const own = (this.#byPeer[peer] ?? []).map((id) => this.#tunnels.get(id)).filter((t) => t !== undefined);
      const fallback = own.sort((a, b) => a.sessions - b.sessions)[0] ?? [...this.#tunnels.values()][0];
      if (fallback) return fallback;
    }
    const peerId = 1 + (hash32(this.#seed, this.#opened++, 23) % MAX_ID);
    const t: Tunnel = {
      localId,
      peerId,
      peer,
      state,
      createdMs: m.nowMs,
      lastActivityMs: m.nowMs,
      closedMs: 0,
      sessions: 0,
      nextSid: 1 + (hash32(this.#seed, localId, 24) % MAX_ID),
    };
    this.#tunnels.set(localId, t);
    this.#byPeer[peer]?.push(localId);
    if (state === "established") this.#logUp(m, t);
    return t;
  }

  #logUp(m: ModelCore, t: Tunnel): void {
    const p = this.settings.peers[t.peer];
    // The peer answers: whatever its failure raised is over.
    const name = p?.hostname ?? String(t.peer);
    m.alarms.observe(m.nowMs, "l2tp.peer.unreachable", name, false, true, () => ({ text: "", context: {} }));
    m.logs.emit(m.nowMs, "l2tp.tunnel.up", {
      direction: p?.direction ?? null,
      localTunnelId: t.localId,
      peerTunnelId: t.peerId,
      peerIp: p?.ip ?? null,
      peerHostname: p?.hostname ?? null,
      realm: p?.realm ?? null,
    });
  }

  #freeTunnelId(): number {
    let id = this.#nextTunnelId;
    for (let i = 0; i < MAX_ID; i++) {
      if (!this.#tunnels.has(id)) {
        this.#nextTunnelId = (id % MAX_ID) + 1;
        return id;
      }
      id = (id % MAX_ID) + 1;
    }
    return 0;
  }

  #close(m: ModelCore, t: Tunnel, reason: string): void {
    t.state = "closed";
    t.closedMs = m.nowMs;
    const p = this.settings.peers[t.peer];
    // A tunnel lost to a silent peer is a fault (warning, as the control-plane watcher logs a fall); idling is not.
    const fault = reason === "no-response" || reason === "hello-timeout";
    m.logs.emit(
      m.nowMs,
      "l2tp.tunnel.down",
      {
        direction: p?.direction ?? null,
        localTunnelId: t.localId,
        peerIp: p?.ip ?? null,
        reason,
        uptimeSeconds: Math.max(0, Math.round((m.nowMs - t.createdMs) / 1000)),
      },
      fault ? "warning" : undefined,
    );
  }

  #forget(t: Tunnel): void {
    this.#tunnels.delete(t.localId);
    this.#sids.delete(t.localId);
    const own = this.#byPeer[t.peer];
    if (own) this.#byPeer[t.peer] = own.filter((id) => id !== t.localId);
  }

  #row(t: Tunnel): L2tpTunnel {
    const p = this.settings.peers[t.peer];
    return {
      direction: p?.direction ?? "upstream",
      localTunnelId: t.localId,
      // Our SCCRQ not yet answered: the peer has assigned no tunnel id (RFC 2661 §3.1 uses 0 until it does).
      peerTunnelId: t.state === "wait-ctl" && p?.direction === "upstream" ? 0 : t.peerId,
      peerIp: p?.ip ?? null,
      peerHostname: p?.hostname ?? null,
      peerVendor: p?.vendor ?? null,
      state: t.state,
      sessions: t.sessions,
    };
  }
}

/**
 * The peer's session id for a local one: a bijection on 1..65535 keyed by
 * the tunnel (7919 is prime to 65535 = 3·5·17·257), so peer ids are unique
 * within a tunnel as the peer would keep them.
 */
function peerSessionId(localSid: number, peerTunnelId: number): number {
  return 1 + ((((localSid - 1 + peerTunnelId) % MAX_ID) * 7919) % MAX_ID);
}
