/**
 * Live state of GRE customer circuits: a pure function of the appliance's
 * seed, the circuit's id, when it was last provisioned and the simulated
 * clock. Nothing is stored but the provisioning instant, so every reader at
 * one instant sees the same state, and a restart changes nothing.
 *
 * The model, per circuit:
 * - (re)provisioning: the tunnel is `provisioning` for 20-60 s, then comes up
 *   (BFD with it); BGP, when a peer ASN is configured, reaches Established
 *   5-30 s later, or goes Idle at once if the peer advertises more prefixes
 *   than `maximumPrefix` (the session is torn down, as routers do);
 * - flaps: simulated time is cut into hours; in about one hour in seven the
 *   tunnel drops for 20-180 s somewhere in that hour. With BFD, BGP drops with
 *   the tunnel; without it, BGP only notices when its 90 s hold timer
 *   expires, so a short outage leaves the session (and its prefixes) up.
 *   A circuit is not flapped in its first ten minutes after coming up, so a
 *   bring-up reads cleanly.
 */
import { hash32, hashUnit, mix32 } from "./random.ts";
import type { GreCircuitStatus } from "../src/schemas/gre-circuits.ts";

type GreBfdState = GreCircuitStatus["bfdState"];
type GreBgpState = GreCircuitStatus["bgpState"];

/** The configured attributes the live state depends on. */
export interface GreCircuitModel {
  id: string;
  vrf: string;
  bfd: boolean;
  peerAsn: number | null;
  maximumPrefix: number | null;
}

/** Length of a flap slot. */
export const FLAP_SLOT_MS = 3_600_000;
/** Chance that a slot holds a flap. */
export const FLAP_PROBABILITY = 0.15;
/** BGP hold time (RFC 4271 §10 suggests 90 s): without BFD an outage is noticed only this late. */
export const BGP_HOLD_MS = 90_000;
/** No flap this soon after the tunnel first comes up. */
export const SETTLE_MS = 600_000;
/** How far back a flap is looked for before the last change is taken to be the bring-up. */
const LOOKBACK_SLOTS = 24 * 366;

const MAX_FLAP_MS = 180_000;
/** A flap, its hold-timer expiry and BGP's return all fit in its slot, so flaps never overlap. */
const FLAP_WINDOW_MS = FLAP_SLOT_MS - MAX_FLAP_MS - BGP_HOLD_MS - 60_000;

const SALT = { provisioning: 1, bgpDelay: 2, prefixes: 3, flap: 4, flapOffset: 5, flapLength: 6 } as const;

/** FNV-1a over the id's UTF-16 units: a stable 32-bit key for the hashes. */
function idKey(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

interface Timing {
  key: number;
  /** When the tunnel comes up after provisioning. */
  upMs: number;
  /** BGP's delay to Established once the tunnel is up. */
  bgpDelayMs: number;
  /** Prefixes the peer advertises (2-41). */
  advertised: number;
}

function timing(seed: number, id: string, provisionedMs: number): Timing {
  const key = idKey(id);
  return {
    key,
    upMs: provisionedMs + 20_000 + Math.floor(hashUnit(seed, key, SALT.provisioning) * 40_000),
    bgpDelayMs: 5_000 + Math.floor(hashUnit(seed, key, SALT.bgpDelay) * 25_000),
    advertised: 2 + (hash32(seed, key, SALT.prefixes) % 40),
  };
}

/** The flap of slot `slot`, if it holds one: start and length. */
function flapIn(seed: number, key: number, slot: number): { startMs: number; lengthMs: number } | null {
  const slotSeed = mix32(seed ^ Math.imul(slot, 0x9e3779b1));
  if (hashUnit(slotSeed, key, SALT.flap) >= FLAP_PROBABILITY) return null;
  return {
    startMs: slot * FLAP_SLOT_MS + Math.floor(hashUnit(slotSeed, key, SALT.flapOffset) * FLAP_WINDOW_MS),
    lengthMs: 20_000 + Math.floor(hashUnit(slotSeed, key, SALT.flapLength) * (MAX_FLAP_MS - 20_000)),
  };
}

/** The latest flap that has started by `nowMs` and after the circuit settled, or null. */
function latestFlap(
  seed: number,
  t: Timing,
  settledMs: number,
  nowMs: number,
): { startMs: number; lengthMs: number } | null {
  const first = Math.floor(settledMs / FLAP_SLOT_MS);
  const last = Math.floor(nowMs / FLAP_SLOT_MS);
  for (let slot = last; slot >= first && slot > last - LOOKBACK_SLOTS; slot--) {
    const flap = flapIn(seed, t.key, slot);
    if (flap && flap.startMs >= settledMs && flap.startMs <= nowMs) return flap;
  }
  return null;
}

type Phase = Omit<GreCircuitStatus, "id" | "vrf" | "lastChangeUtc"> & { atMs: number };

/** The live state of one circuit at `nowMs`, provisioned (or last re-provisioned) at `provisionedMs`. */
export function greCircuitStatus(
  seed: number,
  circuit: GreCircuitModel,
  provisionedMs: number,
  nowMs: number,
  routingUp = true,
): GreCircuitStatus {
  const t = timing(seed, circuit.id, provisionedMs);
  const bgp = circuit.peerAsn !== null;
  const bfdUp: GreBfdState = circuit.bfd ? "up" : "disabled";
  const bfdDown: GreBfdState = circuit.bfd ? "down" : "disabled";
  const overLimit = bgp && circuit.maximumPrefix !== null && t.advertised > circuit.maximumPrefix;
  // The state the circuit settles in once up: BGP Established, Idle after a max-prefix teardown, or not run.
  const steadyBgp: GreBgpState = !bgp ? "disabled" : overLimit ? "Idle" : "Established";
  const steady = (atMs: number): Phase => ({
    atMs,
    circuitState: steadyBgp === "Idle" ? "down" : "up",
    tunnelState: "up",
    bfdState: bfdUp,
    bgpState: steadyBgp,
    prefixesReceived: steadyBgp === "Established" ? t.advertised : 0,
  });
  const connecting = (atMs: number): Phase => ({
    atMs,
    circuitState: "down",
    tunnelState: "up",
    bfdState: bfdUp,
    bgpState: "Active",
    prefixesReceived: 0,
  });

  const phases: Phase[] = [
    {
      atMs: provisionedMs,
      circuitState: "provisioning",
      tunnelState: "provisioning",
      bfdState: bfdDown,
      bgpState: bgp ? "Idle" : "disabled",
      prefixesReceived: 0,
    },
  ];
  if (bgp && !overLimit) phases.push(connecting(t.upMs), steady(t.upMs + t.bgpDelayMs));
  else phases.push(steady(t.upMs));

  const settledMs = t.upMs + t.bgpDelayMs + SETTLE_MS;
  const flap = nowMs >= settledMs ? latestFlap(seed, t, settledMs, nowMs) : null;
  if (flap) {
    const endMs = flap.startMs + flap.lengthMs;
    const before = steady(flap.startMs);
    // BFD tears BGP down with the tunnel; without it, BGP waits for its hold timer.
    const bgpDropMs =
      before.bgpState !== "Established"
        ? null
        : circuit.bfd
          ? flap.startMs
          : flap.startMs + BGP_HOLD_MS < endMs
            ? flap.startMs + BGP_HOLD_MS
            : null;
    phases.length = 0;
    phases.push({
      ...before,
      circuitState: "down",
      tunnelState: "down",
      bfdState: bfdDown,
      ...(bgpDropMs === flap.startMs ? { bgpState: "Active", prefixesReceived: 0 } : {}),
    });
    if (bgpDropMs !== null && bgpDropMs > flap.startMs)
      phases.push({ ...phases[0]!, atMs: bgpDropMs, bgpState: "Active", prefixesReceived: 0 });
    if (bgpDropMs === null) phases.push(steady(endMs));
    else phases.push(connecting(endMs), steady(endMs + t.bgpDelayMs));
  }

  // The phase in force is the last one begun; before the first (a clock behind the provisioning instant) the first
  // holds.
  let current = phases[0]!;
  for (const phase of phases) if (phase.atMs <= nowMs) current = phase;
  const { atMs, ...state } = current;
  // The circuit's BGP session lives in the routing daemon: with the daemon failed (scenario fail-daemon routing)
  // there is no session, so no route from the customer and no circuit up, whatever the tunnel does.
  if (!routingUp && bgp)
    Object.assign(state, {
      bgpState: "Idle",
      prefixesReceived: 0,
      circuitState: state.circuitState === "provisioning" ? "provisioning" : "down",
    });
  return { id: circuit.id, vrf: circuit.vrf, ...state, lastChangeUtc: new Date(atMs).toISOString() };
}
