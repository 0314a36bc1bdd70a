/**
 * A software upgrade as the data plane lives through it, on the simulated
 * clock: the image is written to the standby slot (`applying`), subscribers
 * are drained gracefully when asked (`draining`: no new sessions, the live
 * ones ended evenly, cause `admin-reboot`), the appliance reboots into the new
 * image (`rebooting`: the data plane is down, every remaining session is
 * dropped), then it is up again on the new version and subscribers reconnect.
 *
 * Every instant of the plan is fixed when the apply is accepted, on the
 * 10-second sub-step grid, so the phase at any instant is a pure function of
 * the plan and the clock: the Durable Object's status and the model agree
 * without passing messages.
 */
import { SUB_STEP_MS, isoTime } from "./clock.ts";
import { teardownSession } from "./lifecycle.ts";
import type { Model } from "./model.ts";
import { DRAIN_SECONDS, INSTALL_SECONDS, REBOOT_SECONDS } from "./vocabulary.ts";

/** What an upgrade is doing at an instant; `complete` once the new version is up. */
export type UpgradePhase = "applying" | "draining" | "rebooting" | "complete";

/** An accepted apply: what is installed and when each phase starts (epoch ms, on the sub-step grid). */
export interface UpgradePlan {
  packageId: string;
  fromVersion: string;
  version: string;
  drain: boolean;
  requestedMs: number;
  /** The image is installed; a drain (if any) starts here. */
  installedMs: number;
  /** The appliance reboots; sessions still up are dropped. */
  rebootMs: number;
  /** The data plane forwards again, on the new version. */
  upMs: number;
}

/** The plan with what the model has done so far (snapshotted with the model). */
export interface Maintenance {
  plan: UpgradePlan;
  /** Live sessions when the drain started; null before. */
  drainStartSessions: number | null;
  /** Sessions ended by the drain. */
  drained: number;
  /** Setup attempts refused while new sessions were not admitted. */
  refused: number;
  /** Sessions still up at the reboot, dropped by it; null before the reboot. */
  dropped: number | null;
  /** The completion has been logged. */
  completed: boolean;
}

/** The plan of an apply accepted at `nowMs` (a sub-step boundary). */
export function planUpgrade(
  request: { packageId: string; fromVersion: string; version: string; drain: boolean },
  nowMs: number,
): UpgradePlan {
  const requestedMs = Math.floor(nowMs / SUB_STEP_MS) * SUB_STEP_MS;
  const installedMs = requestedMs + INSTALL_SECONDS * 1000;
  const rebootMs = installedMs + (request.drain ? DRAIN_SECONDS * 1000 : 0);
  return { ...request, requestedMs, installedMs, rebootMs, upMs: rebootMs + REBOOT_SECONDS * 1000 };
}

/** The phase at an instant: what the appliance does from that instant on. */
export function upgradePhase(plan: UpgradePlan, nowMs: number): UpgradePhase {
  if (nowMs < plan.installedMs) return "applying";
  if (nowMs < plan.rebootMs) return "draining";
  if (nowMs < plan.upMs) return "rebooting";
  return "complete";
}

/** A maintenance record for a fresh plan. */
export function startMaintenance(plan: UpgradePlan): Maintenance {
  return { plan, drainStartSessions: null, drained: 0, refused: 0, dropped: null, completed: false };
}

/** How a sub-step runs under maintenance: normally, without admitting sessions, or not at all (rebooting). */
export type Gate = "open" | "closed" | "down";

/**
 * The gate of the sub-step that starts at the model's current instant, with
 * the drain's share of that step done: called first thing in a sub-step, with
 * `m.nowMs` already at the step's end. A drain ends sessions so that none
 * are left when the reboot comes: after step k of n, ⌊start × (n − k) / n⌋
 * remain at most (churn may end some first).
 */
export function maintenanceGate(m: Model): Gate {
  const maintenance = m.maintenance;
  if (!maintenance) return "open";
  const { plan } = maintenance;
  const stepStart = m.nowMs - SUB_STEP_MS;
  const phase = upgradePhase(plan, stepStart);
  if (phase === "applying") return "open";
  if (phase === "rebooting" || phase === "complete") {
    // Logged with the step that reaches the instant the data plane is up again (or the first one after a gap the clock
    // skipped).
    if (m.nowMs >= plan.upMs && !maintenance.completed) {
      maintenance.completed = true;
      m.logs.emit(m.nowMs, "upgrade.complete", {
        packageId: plan.packageId,
        version: plan.version,
        fromVersion: plan.fromVersion,
        downSeconds: (plan.upMs - plan.rebootMs) / 1000,
      });
    }
    return phase === "rebooting" ? "down" : "open";
  }
  if (maintenance.drainStartSessions === null) {
    maintenance.drainStartSessions = m.store.liveCount;
    m.logs.emit(m.nowMs, "upgrade.draining", {
      packageId: plan.packageId,
      version: plan.version,
      sessions: m.store.liveCount,
      drainSeconds: (plan.rebootMs - plan.installedMs) / 1000,
    });
  }
  return "closed";
}

/** Ends this step's share of the drain (a uniform sample of the live sessions), then logs the step. */
export function drainStep(m: Model, refused: number): void {
  const maintenance = m.maintenance;
  if (!maintenance || maintenance.drainStartSessions === null) return;
  const { plan } = maintenance;
  const steps = Math.max(1, Math.round((plan.rebootMs - plan.installedMs) / SUB_STEP_MS));
  const done = Math.min(steps, Math.round((m.nowMs - plan.installedMs) / SUB_STEP_MS));
  const allowed = Math.floor((maintenance.drainStartSessions * (steps - done)) / steps);
  const end = Math.max(0, m.store.liveCount - allowed);
  for (let k = 0; k < end; k++) {
    const slot = m.store.live[m.rng.int(m.store.liveCount)] ?? 0;
    teardownSession(m, slot, "admin-reboot");
  }
  maintenance.drained += end;
  maintenance.refused += refused;
  m.logs.emit(m.nowMs, "upgrade.drain", {
    packageId: plan.packageId,
    ended: end,
    remaining: m.store.liveCount,
    refused,
  });
}

/**
 * True when the model has reached its plan's reboot and has not rebooted yet (the Gateway then swaps in a fresh data
 * plane).
 */
export function rebootDue(m: Model): boolean {
  const maintenance = m.maintenance;
  return maintenance !== null && maintenance.dropped === null && m.nowMs >= maintenance.plan.rebootMs;
}

/** Logs the reboot and records what it dropped; the caller replaces the model. */
export function noteReboot(m: Model): void {
  const maintenance = m.maintenance;
  if (!maintenance) return;
  maintenance.dropped = m.store.liveCount;
  const { plan } = maintenance;
  m.logs.emit(m.nowMs, "upgrade.rebooting", {
    packageId: plan.packageId,
    version: plan.version,
    sessionsDropped: m.store.liveCount,
    upUtc: isoTime(plan.upMs),
  });
}
