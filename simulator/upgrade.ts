/**
 * A software upgrade as the data plane lives through it (upgrade-plan.ts
 * gives the phases and their instants): a drain ends the live sessions evenly
 * (cause `admin-reboot`) while no new ones are admitted, the reboot drops
 * every session still up, and the completion is logged once the new version
 * is up.
 */
import { SUB_STEP_MS, isoTime } from "./clock.ts";
import { teardownSession } from "./lifecycle.ts";
import type { Model } from "./model.ts";
import { upgradePhase } from "./upgrade-plan.ts";

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
