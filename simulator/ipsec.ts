/**
 * IPsec peers as a pure function of the configuration (`ipsec.enabled`,
 * `ipsec.peers`), when each connection was last (re)loaded, the seed and the
 * simulated clock: the shapes of the spec's IpsecStatus and IpsecPeerStatus.
 *
 * - Disabled: no daemon runs; every configured peer reads `DOWN`.
 * - Enabled: a connection is initiated when it is loaded (or when IPsec is
 *   enabled): `DOWN` for 1-3 s, `CONNECTING` for the exchanges (IKEv2 1-5 s,
 *   IKEv1 3-10 s), then `ESTABLISHED` with one installed child SA. The IKE SA
 *   is rekeyed every 90-100 % of `ikeLifetimeSeconds` and the child SA every
 *   90-100 % of `childLifetimeSeconds` (strongSwan's rekey_time with rand_time);
 *   `establishedSeconds`/`installedSeconds` count from the latest rekey, and
 *   the child's byte and packet counters, kept per child SA, grow with time at
 *   the peer's rate and start again at each rekey.
 * - About one hour in twenty the remote stops answering for 1-10 minutes
 *   (never in the first ten minutes up): once dead-peer detection gives up
 *   (after 120 s) the SA is deleted and the connection re-initiated,
 *   `CONNECTING` until the remote answers again. A shorter silence goes
 *   unnoticed.
 * - A connection deleted from the configuration while its SA is up keeps the
 *   SA, listed with `configured` false, until its IKE SA would next rekey (a
 *   deleted connection cannot be rekeyed) and at most `ORPHAN_MAX_MS`; then it
 *   is torn down.
 * - A daemon that cannot be queried (a scenario fault) reads `reachable`
 *   false, the configured peers `UNKNOWN`, nothing else.
 */
import { hashBetween, latestOutage, phaseAt, textKey, type FlapPolicy, type Phase } from "./flaps.ts";
import { formatIpv4, parseAddress } from "./prefix.ts";
import { hash32, hashUnit } from "./random.ts";
import type { IpsecPeerStatus, IpsecStatus } from "../src/schemas/ipsec.ts";

export type IpsecState = "ESTABLISHED" | "CONNECTING" | "DOWN" | "UNKNOWN";

/** A connection as configured, with when it was last loaded. */
export interface IpsecPeerConfig {
  name: string;
  remoteAddress: string;
  localId: string | null;
  remoteId: string | null;
  ikeVersion: 1 | 2;
  ikeProposal: string;
  espProposal: string;
  localTs: string[];
  remoteTs: string[];
  ikeLifetimeSeconds: number;
  childLifetimeSeconds: number;
  provisionedMs: number;
}

/** A connection deleted from the configuration while its SA was up. */
export interface IpsecOrphan {
  peer: IpsecPeerConfig;
  deletedMs: number;
}

export interface IpsecWorld {
  seed: number;
  nowMs: number;
  daemonUp: boolean;
  enabled: boolean;
  /** When IPsec was last enabled; null while disabled. */
  enabledSinceMs: number | null;
  /** This end's addresses per family: `ipsec.localAddress`, else the router id for IPv4. */
  localAddress: { v4: string | null; v6: string | null };
  peers: IpsecPeerConfig[];
  orphans: IpsecOrphan[];
}

export const IPSEC_FLAPS: FlapPolicy = {
  slotMs: 3_600_000,
  probability: 0.05,
  minMs: 60_000,
  maxMs: 600_000,
  tailMs: 600_000,
  salt: 53,
};
/** Dead-peer detection gives up after this much silence. */
export const DPD_TIMEOUT_MS = 120_000;
/** No flap this soon after a connection first comes up. */
export const IPSEC_SETTLE_MS = 600_000;
/** The longest a deleted connection's SA is kept. */
export const ORPHAN_MAX_MS = 300_000;

export const UNREACHABLE_ERROR = "vici: connection to the IKE daemon refused (daemon not running)";

/** strongSwan proposal keywords as `swanctl --list-sas` names the negotiated algorithms. */
export const PROPOSAL_NAMES: Record<string, string> = {
  aes128: "AES_CBC_128",
  aes192: "AES_CBC_192",
  aes256: "AES_CBC_256",
  aes128gcm16: "AES_GCM_16_128",
  aes256gcm16: "AES_GCM_16_256",
  chacha20poly1305: "CHACHA20_POLY1305",
  sha1: "HMAC_SHA1_96",
  sha256: "HMAC_SHA2_256_128",
  sha384: "HMAC_SHA2_384_192",
  sha512: "HMAC_SHA2_512_256",
  prfsha1: "PRF_HMAC_SHA1",
  prfsha256: "PRF_HMAC_SHA2_256",
  prfsha384: "PRF_HMAC_SHA2_384",
  prfsha512: "PRF_HMAC_SHA2_512",
  modp2048: "MODP_2048",
  modp3072: "MODP_3072",
  modp4096: "MODP_4096",
  ecp256: "ECP_256",
  ecp384: "ECP_384",
  ecp521: "ECP_521",
  curve25519: "CURVE_25519",
  x25519: "CURVE_25519",
  esn: "EXT_SEQ",
  noesn: "NO_EXT_SEQ",
};

/** The negotiated proposal as the daemon shows it: the first of the configured ones, each algorithm by its name. */
export function proposalName(proposal: string): string {
  const first = proposal.split(",")[0]!.trim();
  return first
    .split("-")
    .map((token) => PROPOSAL_NAMES[token] ?? token.toUpperCase())
    .join("/");
}

/** The remote's address: itself, or what its DNS name resolves to (a stable documentation address). */
export function remoteHostOf(seed: number, remote: string): string {
  const a = parseAddress(remote);
  if (a) return remote;
  return formatIpv4(
    ((198 << 24) | (51 << 16) | (100 << 8) | (1 + (hash32(seed, textKey(remote.toLowerCase()), 1) % 254))) >>> 0,
  );
}

interface Timeline {
  phases: Phase<IpsecState>[];
  /** When the current SA was established (null while it is not). */
  establishedMs: number | null;
}

function timeline(seed: number, peer: IpsecPeerConfig, startMs: number, nowMs: number): Timeline {
  const key = textKey(peer.name);
  const negotiate = (fromMs: number, firstState: IpsecState): Phase<IpsecState>[] => {
    const g = key ^ Math.floor(fromMs / 1000);
    const connectMs = fromMs + (firstState === "DOWN" ? hashBetween(seed, g, 1, 1_000, 3_000) : 0);
    const exchangeMs =
      peer.ikeVersion === 2 ? hashBetween(seed, g, 2, 1_000, 5_000) : hashBetween(seed, g, 2, 3_000, 10_000);
    return [
      { atMs: fromMs, state: firstState },
      { atMs: connectMs, state: "CONNECTING" },
      { atMs: connectMs + exchangeMs, state: "ESTABLISHED" },
    ];
  };
  let phases = negotiate(startMs, "DOWN");
  const upMs = phases[2]!.atMs;
  const outage = latestOutage(seed, key, IPSEC_FLAPS, upMs + IPSEC_SETTLE_MS, nowMs);
  if (outage && outage.lengthMs > DPD_TIMEOUT_MS) {
    const deadMs = outage.startMs + DPD_TIMEOUT_MS;
    const back = outage.startMs + outage.lengthMs;
    // dpd_action=restart: the SA is deleted and the connection initiated again, retrying until the remote answers.
    phases = [
      { atMs: upMs, state: "ESTABLISHED" },
      { atMs: deadMs, state: "CONNECTING" },
      { atMs: back + hashBetween(seed, key ^ back, 3, 1_000, 5_000), state: "ESTABLISHED" },
    ];
  }
  const current = phaseAt(phases, nowMs);
  return { phases, establishedMs: current.state === "ESTABLISHED" ? current.atMs : null };
}

/** Rekey intervals: 90-100 % of the lifetime, stable per connection. */
function rekeyIntervals(seed: number, peer: IpsecPeerConfig): { ikeMs: number; childMs: number } {
  const key = textKey(peer.name);
  const interval = (lifetime: number, salt: number) =>
    Math.max(60_000, Math.floor(lifetime * 1000 * (0.9 + 0.1 * hashUnit(seed, key, salt))));
  return { ikeMs: interval(peer.ikeLifetimeSeconds, 10), childMs: interval(peer.childLifetimeSeconds, 11) };
}

function localHostOf(w: IpsecWorld, remoteHost: string): string | null {
  return remoteHost.includes(":") ? w.localAddress.v6 : w.localAddress.v4;
}

const trafficSelectors = (configured: string[], host: string) =>
  configured.length > 0 ? [...configured] : [`${host}/${host.includes(":") ? 128 : 32}`];

/** A connection's SA at `nowMs` (null fields and no children unless ESTABLISHED). */
function saStatus(
  w: IpsecWorld,
  peer: IpsecPeerConfig,
  startMs: number,
  configured: boolean,
): IpsecPeerStatus & { error: string | null } {
  const remoteHost = remoteHostOf(w.seed, peer.remoteAddress);
  const localHost = localHostOf(w, remoteHost);
  const base = {
    name: peer.name,
    configured,
    configuredRemote: peer.remoteAddress,
    localId: peer.localId ?? localHost,
    remoteId: peer.remoteId ?? remoteHost,
    ikeVersion: `IKEv${peer.ikeVersion}`,
  };
  const idle = {
    localHost: null,
    remoteHost: null,
    proposal: null,
    establishedSeconds: null,
    rekeyInSeconds: null,
    children: [],
  };
  if (localHost === null) {
    // No address of the remote's family to negotiate from: the connection is loaded but cannot be initiated.
    return {
      ...base,
      ...idle,
      state: "DOWN",
      error: `connection '${peer.name}': no local IPv6 address to reach ${remoteHost} from (set ipsec.localAddress)`,
    };
  }
  const t = timeline(w.seed, peer, startMs, w.nowMs);
  const current = phaseAt(t.phases, w.nowMs);
  if (current.state !== "ESTABLISHED" || t.establishedMs === null) {
    return {
      ...base,
      ...idle,
      ...(current.state === "CONNECTING" ? { localHost, remoteHost } : {}),
      state: current.state,
      error: null,
    };
  }
  const { ikeMs, childMs } = rekeyIntervals(w.seed, peer);
  const upMs = w.nowMs - t.establishedMs;
  const ikeAgeMs = upMs % ikeMs;
  const childAgeMs = upMs % childMs;
  const key = textKey(peer.name);
  // Traffic through the tunnel: 64 kbit/s to 20 Mbit/s in, a third to all of that out.
  const inBytesPerSecond = (64_000 + hashUnit(w.seed, key, 20) * 20_000_000) / 8;
  const outBytesPerSecond = inBytesPerSecond * (0.33 + 0.67 * hashUnit(w.seed, key, 21));
  const seconds = Math.floor(childAgeMs / 1000);
  const inBytes = Math.floor(inBytesPerSecond * seconds);
  const outBytes = Math.floor(outBytesPerSecond * seconds);
  return {
    ...base,
    state: "ESTABLISHED",
    localHost,
    remoteHost,
    proposal: proposalName(peer.ikeProposal),
    establishedSeconds: Math.floor(ikeAgeMs / 1000),
    rekeyInSeconds: Math.max(1, Math.ceil((ikeMs - ikeAgeMs) / 1000)),
    children: [
      {
        name: peer.name,
        state: "INSTALLED",
        mode: "TUNNEL",
        espProposal: proposalName(peer.espProposal),
        installedSeconds: seconds,
        rekeyInSeconds: Math.max(1, Math.ceil((childMs - childAgeMs) / 1000)),
        expiresInSeconds: Math.max(1, Math.ceil((peer.childLifetimeSeconds * 1000 - childAgeMs) / 1000)),
        inBytes,
        inPackets: Math.floor(inBytes / 620),
        outBytes,
        outPackets: Math.floor(outBytes / 410),
        localTs: trafficSelectors(peer.localTs, localHost),
        remoteTs: trafficSelectors(peer.remoteTs, remoteHost),
      },
    ],
    error: null,
  };
}

/** When a connection's negotiation starts: when it was loaded, or when IPsec was enabled if later. */
const startOf = (w: IpsecWorld, peer: IpsecPeerConfig) =>
  Math.max(peer.provisionedMs, w.enabledSinceMs ?? peer.provisionedMs);

/**
 * When a deleted connection's SA is torn down: its next IKE rekey, at most
 * ORPHAN_MAX_MS after the deletion; null when it was not up at the deletion
 * (nothing to keep).
 */
export function orphanTeardownMs(
  w: Pick<IpsecWorld, "seed" | "enabledSinceMs" | "localAddress">,
  orphan: IpsecOrphan,
): number | null {
  const world = { ...w, nowMs: orphan.deletedMs, daemonUp: true, enabled: true, peers: [], orphans: [] };
  const at = saStatus(world, orphan.peer, startOf(world, orphan.peer), false);
  if (at.state !== "ESTABLISHED" || at.rekeyInSeconds === null) return null;
  return Math.min(orphan.deletedMs + at.rekeyInSeconds * 1000, orphan.deletedMs + ORPHAN_MAX_MS);
}

const strip = ({ error: _error, ...status }: IpsecPeerStatus & { error: string | null }): IpsecPeerStatus => status;

/**
 * The spec's IpsecStatus: configured peers in configuration order, then SAs of deleted connections not yet torn down.
 */
export function ipsecStatus(w: IpsecWorld): IpsecStatus {
  if (!w.daemonUp) {
    const peers = w.peers.map((p) => ({
      name: p.name,
      configured: true,
      state: "UNKNOWN" as const,
      configuredRemote: p.remoteAddress,
      localHost: null,
      remoteHost: null,
      localId: p.localId,
      remoteId: p.remoteId,
      ikeVersion: `IKEv${p.ikeVersion}`,
      proposal: null,
      establishedSeconds: null,
      rekeyInSeconds: null,
      children: [],
    }));
    return { enabled: w.enabled, reachable: false, lastError: UNREACHABLE_ERROR, establishedCount: 0, peers };
  }
  if (!w.enabled) {
    const peers = w.peers.map((p) => ({
      ...strip(saStatus(w, p, p.provisionedMs, true)),
      state: "DOWN" as const,
      localHost: null,
      remoteHost: null,
      proposal: null,
      establishedSeconds: null,
      rekeyInSeconds: null,
      children: [],
    }));
    return { enabled: false, reachable: true, lastError: null, establishedCount: 0, peers };
  }
  const statuses = w.peers.map((p) => saStatus(w, p, startOf(w, p), true));
  const configuredNames = new Set(w.peers.map((p) => p.name));
  for (const orphan of w.orphans) {
    if (configuredNames.has(orphan.peer.name)) continue;
    const teardown = orphanTeardownMs(w, orphan);
    if (teardown === null || w.nowMs >= teardown || w.nowMs < orphan.deletedMs) continue;
    const status = saStatus(w, orphan.peer, startOf(w, orphan.peer), false);
    // The SA lives on as it was; it is not re-initiated if the remote goes silent meanwhile.
    if (status.state === "ESTABLISHED") statuses.push(status);
  }
  const lastError = statuses.find((s) => s.error !== null)?.error ?? null;
  const peers = statuses.map(strip);
  return {
    enabled: true,
    reachable: true,
    lastError,
    establishedCount: peers.filter((p) => p.state === "ESTABLISHED").length,
    peers,
  };
}

/** One peer by connection name: a configured one, or a deleted connection's SA still up; null when neither exists. */
export function ipsecPeer(w: IpsecWorld, name: string): IpsecPeerStatus | null {
  return ipsecStatus(w).peers.find((p) => p.name === name) ?? null;
}
