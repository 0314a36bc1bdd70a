/**
 * Per-session packet captures (spec "Packet capture record" and the capture
 * state table): at most one per session, stopped by the operator, by
 * `maxPackets` (counted from the session's simulated packet rate) or
 * `maxDurationSeconds` (null or 0 = unlimited), or when the session goes
 * down. Limits are checked once per 10 s sub-step. The destination
 * allowlist and auditing belong to the caller.
 */
import { SUB_STEP_SECONDS, isoTime } from "./clock.ts";
import type { CaptureRecord, CaptureRow } from "../src/schemas/captures.ts";
import type { LogRing } from "./logs.ts";
import { parseAddress } from "./prefix.ts";

/** Why a capture stopped. */
export type CaptureStopReason = "operator" | "max-packets" | "max-duration" | "session-down";

interface Active {
  sessionId: number;
  slot: number;
  destinationIp: string;
  maxPackets: number | null;
  maxDurationSeconds: number | null;
  startedMs: number;
  packets: number;
}

/** Serialisable capture state. */
export type CaptureState = Active[];

/** Active captures keyed by session id. */
export class Captures {
  #active = new Map<number, Active>();
  readonly #logs: LogRing;

  constructor(logs: LogRing) {
    this.#logs = logs;
  }

  /** Number of active captures. */
  get size(): number {
    return this.#active.size;
  }

  /** Whether a session is being captured. */
  has(sessionId: number): boolean {
    return this.#active.has(sessionId);
  }

  /** Starts a capture on a live session (the caller resolved `slot`, -1 when the session is unknown). */
  start(
    nowMs: number,
    sessionId: number,
    slot: number,
    destinationIp: string,
    maxPackets: number | null,
    maxDurationSeconds: number | null,
  ):
    | { ok: true; capture: CaptureRecord }
    | { ok: false; reason: "unknown-session" | "already-capturing" | "invalid-destination" | "invalid-limit" } {
    if (slot < 0) return { ok: false, reason: "unknown-session" };
    if (this.#active.has(sessionId)) return { ok: false, reason: "already-capturing" };
    if (parseAddress(destinationIp.trim()) === null) return { ok: false, reason: "invalid-destination" };
    const bad = (v: number | null): boolean => v !== null && (!Number.isInteger(v) || v < 0 || v > 2 ** 31 - 1);
    if (bad(maxPackets) || bad(maxDurationSeconds)) return { ok: false, reason: "invalid-limit" };
    const capture: Active = {
      sessionId,
      slot,
      destinationIp: destinationIp.trim(),
      maxPackets,
      maxDurationSeconds,
      startedMs: nowMs,
      packets: 0,
    };
    this.#active.set(sessionId, capture);
    this.#logs.emit(nowMs, "capture.start", {
      sessionId,
      destinationIp: capture.destinationIp,
      maxPackets,
      maxDurationSeconds,
    });
    return { ok: true, capture: record(capture) };
  }

  /** Stops a session's capture. */
  stop(
    nowMs: number,
    sessionId: number,
    reason: CaptureStopReason,
  ): { ok: true; status: "stopped"; sessionId: number } | { ok: false; reason: "not-capturing" } {
    const c = this.#active.get(sessionId);
    if (!c) return { ok: false, reason: "not-capturing" };
    this.#active.delete(sessionId);
    this.#logs.emit(nowMs, "capture.stop", {
      sessionId,
      reason,
      packets: Math.floor(c.packets),
      durationSeconds: Math.round((nowMs - c.startedMs) / 1000),
    });
    return { ok: true, status: "stopped", sessionId };
  }

  /** Advances every capture by one sub-step of its session's packet rate and applies the limits. */
  tick(nowMs: number, packetsPerSecond: (slot: number) => number): void {
    if (this.#active.size === 0) return;
    const done: [number, CaptureStopReason][] = [];
    for (const c of this.#active.values()) {
      c.packets += packetsPerSecond(c.slot) * SUB_STEP_SECONDS;
      if (c.maxPackets && c.packets >= c.maxPackets) {
        c.packets = c.maxPackets;
        done.push([c.sessionId, "max-packets"]);
      } else if (c.maxDurationSeconds && nowMs - c.startedMs >= c.maxDurationSeconds * 1000) {
        done.push([c.sessionId, "max-duration"]);
      }
    }
    for (const [id, reason] of done) this.stop(nowMs, id, reason);
  }

  /** The capture of a session, if any. */
  get(sessionId: number): CaptureRecord | null {
    const c = this.#active.get(sessionId);
    return c ? record(c) : null;
  }

  /** One row per mirrored session, by session id. */
  list(nowMs: number): CaptureRow[] {
    return [...this.#active.values()]
      .sort((a, b) => a.sessionId - b.sessionId)
      .map((c) => ({
        ...record(c),
        packetsMirrored: Math.floor(c.packets),
        elapsedSeconds: Math.round((nowMs - c.startedMs) / 1000),
      }));
  }

  /** State for a snapshot. */
  exportState(): CaptureState {
    return [...this.#active.values()].map((c) => ({ ...c }));
  }

  /** Restores snapshot state. */
  importState(state: CaptureState): void {
    this.#active = new Map(state.map((c) => [c.sessionId, { ...c }]));
  }

  /** Drops every capture without events (reseed). */
  reset(): void {
    this.#active.clear();
  }
}

function record(c: Active): CaptureRecord {
  return {
    sessionId: c.sessionId,
    destinationIp: c.destinationIp,
    maxPackets: c.maxPackets,
    maxDurationSeconds: c.maxDurationSeconds,
    startedUtc: isoTime(c.startedMs),
  };
}
