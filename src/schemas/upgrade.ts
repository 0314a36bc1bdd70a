/** System upgrade's wire shapes: the staged package, an apply's result, the progress and the status. */
import { z } from "zod";
import { DateTime } from "./common.ts";
import { DRAIN_SECONDS, INSTALL_SECONDS, REBOOT_SECONDS } from "../../simulator/vocabulary.ts";

export const UpgradeStateEnum = z
  .enum(["idle", "staged", "applying", "draining", "rebooting", "failed"])
  .meta({
    description:
      "`idle`: nothing staged; `staged`: a package waits to be applied; `applying`: its image is being installed; `draining`: subscribers are being drained; " +
      "`rebooting`: the data plane is down; `failed`: the last apply failed (the package stays staged) and nothing was staged since",
  });

export const StagedPackage = z
  .object({
    id: z.string().meta({ description: "`pkg-` and the first 16 hex digits of `sha256`: the same bytes stage under the same id" }),
    name: z.string().meta({ description: "always `bngfleet`" }),
    version: z.string().meta({ description: "the manifest's version" }),
    size: z.int().meta({ description: "bytes of the whole package" }),
    sha256: z.string().meta({ description: "SHA-256 of the whole package, as `sha256sum` prints it" }),
    payloadSha256: z.string().meta({ description: "the manifest's `sha256`, which the payload matched" }),
    notes: z.string().nullable(),
    stagedUtc: DateTime,
    stagedBy: z.string().meta({ description: "the acting principal (`token:<name>` or `user:<name>`)" }),
  })
  .meta({ id: "StagedPackage" });

export const UpgradeResult = z
  .object({
    packageId: z.string(),
    fromVersion: z.string(),
    toVersion: z.string(),
    drain: z.boolean(),
    outcome: z.enum(["succeeded", "failed"]),
    reason: z.string().nullable().meta({ description: "why it failed; null on success" }),
    requestedUtc: DateTime,
    completedUtc: DateTime.meta({ description: "when the data plane was up on the new version, or when the failure was noticed" }),
    requestedBy: z.string(),
    sessionsDrained: z.int().meta({ description: "sessions ended gracefully by the drain (cause `admin-reboot`)" }),
    sessionsDropped: z.int().meta({ description: "sessions still up at the reboot, dropped by it" }),
  })
  .meta({ id: "UpgradeResult" });

export const UpgradeProgress = z
  .object({
    packageId: z.string(),
    fromVersion: z.string(),
    toVersion: z.string(),
    drain: z.boolean(),
    phase: z.enum(["applying", "draining", "rebooting"]),
    requestedUtc: DateTime,
    requestedBy: z.string(),
    installedUtc: DateTime.meta({ description: "the image is installed; the drain (if any) starts" }),
    rebootUtc: DateTime.meta({ description: "the appliance reboots; sessions still up are dropped" }),
    upUtc: DateTime.meta({ description: "the data plane forwards again, on `toVersion`" }),
    sessions: z.int().meta({ description: "sessions up now" }),
    sessionsAtDrainStart: z.int().nullable(),
    sessionsDrained: z.int(),
    setupsRefused: z.int().meta({ description: "setup attempts refused while draining" }),
  })
  .meta({ id: "UpgradeProgress" });

export const UpgradeStatus = z
  .object({
    asOfUtc: DateTime.meta({ description: "simulated now" }),
    runningVersion: z.string().meta({ description: "the version running now, e.g. `0.1.0`" }),
    softwareVersion: z.string().meta({ description: "as health and status report it, e.g. `bngfleet 0.1.0`" }),
    state: UpgradeStateEnum,
    staged: StagedPackage.nullable(),
    applying: UpgradeProgress.nullable().meta({ description: "the apply under way; null when none" }),
    lastResult: UpgradeResult.nullable(),
    history: z.array(UpgradeResult).meta({ description: "finished applies, newest first, at most 20" }),
  })
  .meta({ id: "UpgradeStatus" });

export type StagedPackage = z.output<typeof StagedPackage>;
export type UpgradeResult = z.output<typeof UpgradeResult>;
export type UpgradeProgress = z.output<typeof UpgradeProgress>;
export type UpgradeStatus = z.output<typeof UpgradeStatus>;
export type UpgradeState = z.output<typeof UpgradeStateEnum>;
