/**
 * A software upgrade's plan, on the simulated clock: the image is written to the standby slot (`applying`), subscribers
 * are drained gracefully when asked (`draining`: no new sessions, the live
 * ones ended evenly, cause `admin-reboot`), the appliance reboots into the new
 * image (`rebooting`: the data plane is down, every remaining session is
 * dropped), then it is up again on the new version and subscribers reconnect.
 *
 * Every instant of the plan is fixed when the apply is accepted, on the
 * 10-second sub-step grid, so the phase at any instant is a pure function of
 * the plan and the clock: the Durable Object's status and the model agree
 * without passing messages.
 *
 * Pure, and apart from what the upgrade does to the model (upgrade.ts): the
 * model holds the Maintenance record, so this file may not import the model.
 */
import { SUB_STEP_MS } from "./clock.ts";
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
