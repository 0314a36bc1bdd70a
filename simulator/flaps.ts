/**
 * Occasional outages as a pure function of the seed, an entity's key and the
 * simulated clock, shared by the control-plane models (BGP sessions, IGP
 * adjacencies, IPsec SAs). Time is cut into slots; a slot holds at most one
 * outage, placed early enough that the outage and the recovery after it end
 * inside the slot, so outages never overlap and the latest one decides the
 * state. Nothing is stored: every reader at one instant sees the same thing.
 */
import { hashUnit, mix32 } from "./random.ts";

/** An outage: when it starts and how long the fault lasts. */
export interface Outage {
  startMs: number;
  lengthMs: number;
}

/** How often and how long an entity fails. */
export interface FlapPolicy {
  /** Length of a slot (at most one outage per slot). */
  slotMs: number;
  /** Chance that a slot holds an outage. */
  probability: number;
  minMs: number;
  maxMs: number;
  /** Room kept at the end of a slot after the longest outage, for detection and recovery. */
  tailMs: number;
  /** Tells apart the outages of models sharing a key. */
  salt: number;
}

/** How far back an outage is looked for (a year of hourly slots). */
const LOOKBACK_SLOTS = 24 * 366;

/** FNV-1a over the text's UTF-16 units: a stable 32-bit key for the hashes. */
export function textKey(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** A stable integer in [min, max] for (seed, key, salt). */
export function hashBetween(seed: number, key: number, salt: number, min: number, max: number): number {
  return min + Math.floor(hashUnit(seed, key, salt) * (max - min + 1));
}

function outageIn(seed: number, key: number, policy: FlapPolicy, slot: number): Outage | null {
  const slotSeed = mix32(seed ^ Math.imul(slot, 0x9e3779b1) ^ Math.imul(policy.salt, 0x85ebca6b));
  if (hashUnit(slotSeed, key, 1) >= policy.probability) return null;
  const window = Math.max(1, policy.slotMs - policy.maxMs - policy.tailMs);
  return {
    startMs: slot * policy.slotMs + Math.floor(hashUnit(slotSeed, key, 2) * window),
    lengthMs: policy.minMs + Math.floor(hashUnit(slotSeed, key, 3) * (policy.maxMs - policy.minMs)),
  };
}

/** The latest outage that has started by `nowMs` and not before `fromMs`, or null. */
export function latestOutage(
  seed: number,
  key: number,
  policy: FlapPolicy,
  fromMs: number,
  nowMs: number,
): Outage | null {
  if (nowMs < fromMs) return null;
  const first = Math.floor(fromMs / policy.slotMs);
  const last = Math.floor(nowMs / policy.slotMs);
  for (let slot = last; slot >= first && slot > last - LOOKBACK_SLOTS; slot--) {
    const outage = outageIn(seed, key, policy, slot);
    if (outage && outage.startMs >= fromMs && outage.startMs <= nowMs) return outage;
  }
  return null;
}

/** A state in force from an instant on. */
export interface Phase<S> {
  atMs: number;
  state: S;
}

/** The phase in force at `nowMs`: the last one begun (before the first, the first holds). */
export function phaseAt<S>(phases: readonly Phase<S>[], nowMs: number): Phase<S> {
  let current = phases[0]!;
  for (const phase of phases) if (phase.atMs <= nowMs) current = phase;
  return current;
}
