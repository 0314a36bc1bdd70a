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
 * scenario action `fail-l2tp-peer`) leaves the handshake pending: the tunnel
 * is read in `wait-ctl` with no sessions while SCCRQ is retransmitted, and
 * every session for that peer fails its setup meanwhile (a session only ever
 * rides an established tunnel). Its established tunnels lose their sessions
 * and close, as a failed Hello would close them. A peer with more than
 * `maxSessionsPerTunnel` sessions gets a further tunnel. Tunnel and session
 * ids are 16-bit and non-zero (RFC 2661 §3.1), unique per appliance and per
 * tunnel respectively.
 */
import type { L2tpTunnel, L2tpTunnelDetail, L2tpTunnelSession } from "../src/schemas/l2tp.ts";
import { isoTime } from "./clock.ts";
import type { Model } from "./model.ts";
import type { Profile } from "./profile.ts";
import { cumulativeWeights, hash32, hashUnit, pickFromCumulative } from "./random.ts";
import { summaryRow } from "./session-queries.ts";

/** Tunnel direction: `downstream` = from a LAC, terminated here; `upstream` = to a wholesale LNS. */
export type L2tpDirection = L2tpTunnel["direction"];
/** The spec's tunnel states (`wait-ctl` is transient: see above). */
export type L2tpTunnelState = L2tpTunnel["state"];

/** Encapsulation indices (profile ENCAPS order). */
const ENCAP_PPPOE_LAC = 2;
const ENCAP_L2TP = 3;
const L2TP_PORT = 1701;
const MAX_ID = 65_535;
/**
 * How long an unanswered SCCRQ keeps a tunnel in `wait-ctl`: RFC 2661 §5.8's
 * recommended schedule (first timeout 1 s, doubling, capped at 8 s, five
 * retransmissions) sends at 0, 1, 3, 7, 15 and 23 s and gives up 8 s later.
 */
export const HANDSHAKE_GIVE_UP_MS = 31_000;
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
}

/** Serialisable tunnel state (snapshot). */
export interface L2tpTableState {
  nextTunnelId: number;
  opened: number;
  tunnels: Tunnel[];
  tunnelOf: Uint16Array;
  sid: Uint16Array;
  /** Peers a scenario made unreachable (indices into the settings' peers); absent in snapshots taken before it existed. */
  unreachable?: number[];
}

/** The profile's L2TP settings with defaults, and two derived peers per realm and direction the profile leaves without. */
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
        for (const p of own) peers.push({ direction: d.direction, realm: p.realm, ip: p.ip, port: p.port, hostname: p.hostname, vendor: p.vendor, vrf: p.vrf, weight: p.weight });
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

  constructor(profile: Profile, seed: number, capacity: number) {
    this.settings = l2tpSettings(profile);
    this.#seed = seed >>> 0;
    this.#choices = (["upstream", "downstream"] as const).map((direction) =>
      profile.identities.realms.map((realm) => {
        const peers = this.settings.peers.flatMap((p, i) => (p.direction === direction && p.realm === realm.domain ? [i] : []));
        return { peers, cumulative: cumulativeWeights(peers.map((i) => this.settings.peers[i]?.weight ?? 0)) };
      }),
    );
    this.#byPeer = this.settings.peers.map(() => []);
    this.tunnelOf = new Uint16Array(capacity);
    this.sid = new Uint16Array(capacity);
    this.#nextTunnelId = 1 + (hash32(this.#seed, 0, 22) % MAX_ID);
  }

  /**
   * Whether a new session of this encapsulation, realm and subscriber can be
   * tunnelled: false when its peer is unreachable, which leaves (or starts) a
   * handshake pending in `wait-ctl`. Other encapsulations always pass.
   */
  admit(m: Model, encap: number, realm: number, sub: number): boolean {
    const direction = encap === ENCAP_PPPOE_LAC ? 0 : encap === ENCAP_L2TP ? 1 : -1;
    if (direction < 0) return true;
    const peer = this.#pick(direction, realm, sub);
    if (peer < 0 || !this.#unreachable.has(peer)) return true;
    const pending = (this.#byPeer[peer] ?? []).some((id) => this.#tunnels.get(id)?.state === "wait-ctl");
    if (!pending) this.#open(m, peer, "wait-ctl");
    return false;
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
   * Makes a peer unreachable. Returns the slots of the sessions riding its
   * tunnels: the caller tears them down, then calls `closeUnreachable`.
   */
  fail(peer: number): number[] {
    this.#unreachable.add(peer);
    const own = new Set(this.#byPeer[peer] ?? []);
    const slots: number[] = [];
    for (let slot = 0; slot < this.tunnelOf.length; slot++) if (own.has(this.tunnelOf[slot] ?? 0)) slots.push(slot);
    return slots;
  }

  /** Closes the unreachable peer's established and idle tunnels (their Hello goes unanswered). */
  closeUnreachable(m: Model, peer: number): number {
    let closed = 0;
    for (const id of this.#byPeer[peer] ?? []) {
      const t = this.#tunnels.get(id);
      if (t && (t.state === "established" || t.state === "idle")) {
        this.#close(m, t, "peer-unreachable");
        closed++;
      }
    }
    return closed;
  }

  /** Makes a peer reachable again: a pending handshake completes at the next retransmission (the next sub-step). */
  revive(peer: number): void {
    this.#unreachable.delete(peer);
  }

  /** Puts a session that has just come up on its peer's tunnel (opening one if needed); other encapsulations are ignored. */
  attach(m: Model, slot: number): void {
    const encap = m.store.encap[slot];
    const direction = encap === ENCAP_PPPOE_LAC ? 0 : encap === ENCAP_L2TP ? 1 : -1;
    if (direction < 0) return;
    const peer = this.#pick(direction, m.store.realm[slot] ?? 0, m.store.sub[slot] ?? 0);
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
  detach(m: Model, slot: number): void {
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
   * tunnel is then idle until a session comes) or gives up; idle tunnels past
   * the idle timeout close; closed ones past the retention are forgotten.
   */
  tick(m: Model): void {
    const now = m.nowMs;
    for (const t of this.#tunnels.values()) {
      if (t.state === "wait-ctl") {
        if (!this.#unreachable.has(t.peer)) {
          t.state = "idle";
          t.lastActivityMs = now;
          this.#logUp(m, t);
        } else if (now - t.createdMs >= HANDSHAKE_GIVE_UP_MS) this.#close(m, t, "no-response");
      } else if (t.state === "idle" && now - t.lastActivityMs >= this.settings.idleTimeoutSeconds * 1000) this.#close(m, t, "idle-timeout");
      else if (t.state === "closed" && now - t.closedMs >= this.settings.closedRetentionSeconds * 1000) this.#forget(t);
    }
  }

  /** The spec's tunnel list: downstream first, then by local tunnel id. */
  list(): L2tpTunnel[] {
    return [...this.#tunnels.values()]
      .map((t) => this.#row(t))
      .sort((a, b) => (a.direction === b.direction ? a.localTunnelId - b.localTunnelId : a.direction === "downstream" ? -1 : 1));
  }

  /** One tunnel in detail with the sessions it carries (newest first), or null for an unknown id. */
  detail(m: Model, localTunnelId: number): L2tpTunnelDetail | null {
    const t = this.#tunnels.get(localTunnelId);
    if (!t) return null;
    const peer = this.settings.peers[t.peer];
    const sessionList: L2tpTunnelSession[] = [];
    if (t.sessions > 0) {
      m.store.newestFirst((slot) => {
        if (this.tunnelOf[slot] !== t.localId) return;
        const row = summaryRow(m, slot);
        const sid = this.sid[slot] ?? 0;
        sessionList.push({
          id: row.id,
          username: row.username,
          // A tunnel carries one encapsulation: LAC sessions upstream, LNS sessions downstream.
          encap: peer?.direction === "upstream" ? "pppoe-lac" : "l2tp",
          ipv4: row.ipv4,
          ipv6: row.ipv6,
          localSessionId: sid,
          peerSessionId: peerSessionId(sid, t.peerId),
          uptimeSeconds: row.uptimeSeconds,
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
      uptimeSeconds: t.state === "closed" || t.state === "wait-ctl" ? null : Math.max(0, Math.round((m.nowMs - t.createdMs) / 1000)),
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
    };
  }

  /** Restores snapshot state; the per-tunnel session id sets are rebuilt from the live slots. */
  importState(state: L2tpTableState, live: Iterable<number>): void {
    this.#nextTunnelId = state.nextTunnelId;
    this.#opened = state.opened;
    this.#unreachable.clear();
    for (const peer of state.unreachable ?? []) this.#unreachable.add(peer);
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

  #pick(direction: number, realm: number, sub: number): number {
    const choice = this.#choices[direction]?.[realm];
    if (!choice || choice.peers.length === 0) {
      // Not reachable with a validated profile (every realm serving the encapsulation has peers): any peer of the direction.
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
      if (!t || t.state === "closed" || t.state === "wait-ctl" || t.sessions >= this.settings.maxSessionsPerTunnel) continue;
      if (t.state === "established") return t;
      idle ??= t;
    }
    return idle;
  }

  #open(m: Model, peer: number, state: "established" | "wait-ctl" = "established"): Tunnel {
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

  #logUp(m: Model, t: Tunnel): void {
    const p = this.settings.peers[t.peer];
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

  #close(m: Model, t: Tunnel, reason: string): void {
    t.state = "closed";
    t.closedMs = m.nowMs;
    const p = this.settings.peers[t.peer];
    m.logs.emit(m.nowMs, "l2tp.tunnel.down", {
      direction: p?.direction ?? null,
      localTunnelId: t.localId,
      peerIp: p?.ip ?? null,
      reason,
      uptimeSeconds: Math.max(0, Math.round((m.nowMs - t.createdMs) / 1000)),
    });
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
