/**
 * System upgrade, the wire contract: the staged package, an apply's result, the progress and the status, and the
 * section's operations (status, staging a package, applying it).
 */
import { z } from "zod";
import { operation } from "./contract.ts";
import { DateTime } from "./common.ts";
import { DRAIN_SECONDS, INSTALL_SECONDS, REBOOT_SECONDS } from "../../simulator/vocabulary.ts";

export const UpgradeStateEnum = z.enum(["idle", "staged", "applying", "draining", "rebooting", "failed"]).meta({
  description:
    "`idle`: nothing staged; `staged`: a package waits to be applied; `applying`: " +
    "its image is being installed; `draining`: subscribers are being drained; " +
    ("`rebooting`: the data plane is down; `failed`: the last apply failed (the " +
      "package stays staged) and nothing was staged since"),
});

export const StagedPackage = z
  .object({
    id: z
      .string()
      .meta({ description: "`pkg-` and the first 16 hex digits of `sha256`: the same bytes stage under the same id" }),
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
    completedUtc: DateTime.meta({
      description: "when the data plane was up on the new version, or when the failure was noticed",
    }),
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

/** The largest package the appliance stages (413 above it): it is kept in the object's SQLite. */
export const MAX_PACKAGE_BYTES = 512 * 1024;

const StageRequest = z
  .object({
    package: z
      .base64()
      .meta({ description: `the package file in standard base64 (at most ${MAX_PACKAGE_BYTES} bytes decoded)` }),
  })
  .meta({
    id: "UpgradeStageRequest",
    description: "the JSON form of the upload; the same bytes may be sent as application/octet-stream instead",
  });

export const StageResult = StagedPackage.extend({
  replaced: z
    .string()
    .nullable()
    .meta({ description: "the id of the package this one replaced in the standby slot; null when none was staged" }),
}).meta({ id: "UpgradeStageResult" });
export type StageResult = z.output<typeof StageResult>;

const ApplyRequest = z
  .object({
    id: z.string().min(1).max(64).meta({ description: "the staged package's id" }),
    drain: z.boolean().meta({
      description:
        `true: drain subscribers gracefully over ${DRAIN_SECONDS} s before the reboot; ` +
        `false: reboot as soon as the image is installed, dropping every session`,
    }),
  })
  .meta({ id: "ApplyRequest" });

export const ApplyResult = z
  .object({
    packageId: z.string(),
    fromVersion: z.string(),
    toVersion: z.string(),
    drain: z.boolean(),
    state: z.literal("applying"),
    requestedUtc: DateTime,
    installedUtc: DateTime,
    rebootUtc: DateTime,
    upUtc: DateTime,
    sessions: z.int().meta({ description: "sessions up when the apply was accepted" }),
  })
  .meta({ id: "UpgradeApplyResult", description: "the accepted plan; poll GET /system/upgrade for progress" });
export type ApplyResult = z.output<typeof ApplyResult>;

const FORMAT = `A package (\`.bngpkg\`) is the 8 bytes \`BNGPKG1\\n\`, then a manifest, one line of JSON ended by a \
newline: \`{"name":"bngfleet","version":"0.2.0","sha256":"<hex>","signature":"<base64>"}\` (\`notes\` optional), then \
the payload: every remaining byte, at least one. \`sha256\` is the payload's SHA-256 in lower-case hex. \`signature\` \
is the vendor's Ed25519 signature (standard base64) over the UTF-8 JSON array \
\`["bngfleet-package-v1",name,version,sha256,notes or null]\`, verified with the appliance's upgrade public key; an \
unsigned package, or one whose signature does not verify, is 422 at \`#/manifest/signature\`. At most \
${MAX_PACKAGE_BYTES} bytes in all. \`bngfleet upgrade-package 0.2.0 > bngfleet-0.2.0.bngpkg\` builds and signs one \
with the local fleet's development key.`;

/** The section's operations. */
export const upgrade = {
  status: operation({
    method: "GET",
    path: "/api/v1/system/upgrade",
    section: "SystemUpgrade",
    summary: "Upgrade status: running version, staged package, apply under way, results",
    description:
      `An apply runs on the simulated clock: \`applying\` (the image ` +
      `installs, ${INSTALL_SECONDS} s), \`draining\` (with \`drain: true\`: no new ` +
      `sessions, the live ones ended evenly over ${DRAIN_SECONDS} s with cause ` +
      `\`admin-reboot\`), ` +
      (`\`rebooting\` (${REBOOT_SECONDS} s: the data plane is down, sessions still up ` +
        `are dropped), then the new version runs and subscribers reconnect; the state ` +
        `returns to \`idle\` and the result heads \`history\`. `) +
      ("A restart of the appliance before the reboot fails the apply (`failed`, the old " +
        "version keeps running, the package stays staged); after it, the apply " +
        "completes. ") +
      ("Every step is in the log ring: `upgrade.started`, `upgrade.draining`, " +
        "`upgrade.drain`, `upgrade.rebooting`, `upgrade.complete`, `upgrade.failed`."),
    response: { description: "UpgradeStatus", schema: UpgradeStatus },
    examples: {
      response: {
        asOfUtc: "2026-11-26T20:35:10.000Z",
        runningVersion: "0.1.0",
        softwareVersion: "bngfleet 0.1.0",
        state: "idle",
        staged: null,
        applying: null,
        lastResult: null,
        history: [],
      },
    },
  }),
  stage: operation({
    method: "POST",
    path: "/api/v1/system/upgrade/stage",
    section: "SystemUpgrade",
    summary: "Stage a software package (apply is a separate action)",
    description:
      `${FORMAT} Send it as \`application/octet-stream\` (\`curl --data-binary @pkg -H ` +
      `'content-type: application/octet-stream'\`) or as JSON \`{"package": ` +
      `"<base64>"}\`. ` +
      ("Staging checks the package and keeps it in the appliance's standby slot, " +
        "replacing a package staged before; nothing runs until POST " +
        "/system/upgrade/apply. ") +
      ("413 above the size limit; 422 for a package that fails a check " +
        "(`errors[0].pointer` says where: `#/magic`, `#/manifest/<field>`, `#/payload`); " +
        "409 while an apply is under way. ") +
      ("`operator`, the spec's common rule for mutations outside /auth, /config, /vrfs, " +
        "/routing/config and /cgn. Audited (`audit.upgrade.stage`, refusals " +
        "`audit.upgrade.rejected`)."),
    body: StageRequest,
    octetStream: { maxBytes: MAX_PACKAGE_BYTES, description: "the package file, verbatim" },
    response: { description: "the staged package", schema: StageResult },
    errors: [409, 413, 422],
    examples: {
      body: { package: "Qk5HUEtHAAEAAAA=" },
      response: {
        id: "pkg-0.2.0-3f9a1c2e",
        name: "bngfleet-0.2.0.bngpkg",
        version: "0.2.0",
        size: 4096,
        sha256: "3f9a1c2e7b5d40c8a61e9f2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f",
        payloadSha256: "a1b2c3d4e5f60718293a4b5c6d7e8f90112233445566778899aabbccddeeff00",
        notes: "0.2.0: faster CGN port-block allocation",
        stagedUtc: "2026-11-26T20:41:07.000Z",
        stagedBy: "token:bootstrap",
        replaced: null,
      },
    },
  }),
  apply: operation({
    method: "POST",
    path: "/api/v1/system/upgrade/apply",
    section: "SystemUpgrade",
    summary: "Apply the staged package: install, optionally drain, reboot into it",
    description:
      "Accepted at once (200 with the plan's instants); the apply then runs on the " +
      "simulated clock (see GET /system/upgrade). 404 when `id` is not the staged package; " +
      ("409 when nothing is staged or an apply is already under way. The staged version " +
        "may equal the running one (a reinstall). `operator`, as staging; audited " +
        "(`audit.upgrade.apply`)."),
    body: ApplyRequest,
    response: { description: "the accepted apply", schema: ApplyResult },
    errors: [404, 409],
    examples: {
      body: { id: "pkg-0.2.0-3f9a1c2e", drain: true },
      response: {
        packageId: "pkg-0.2.0-3f9a1c2e",
        fromVersion: "0.1.0",
        toVersion: "0.2.0",
        drain: true,
        state: "applying",
        requestedUtc: "2026-11-26T20:41:07.000Z",
        installedUtc: "2026-11-26T20:41:37.000Z",
        rebootUtc: "2026-11-26T20:46:37.000Z",
        upUtc: "2026-11-26T20:48:07.000Z",
        sessions: 1999,
      },
      errors: { 409: "nothing is staged: stage a package with POST /api/v1/system/upgrade/stage first" },
    },
  }),
};
