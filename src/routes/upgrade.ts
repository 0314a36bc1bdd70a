/**
 * SystemUpgrade (spec "System upgrade and diagnostics"): status, staging a
 * package ("stages package bytes only; apply is a separate action") and
 * applying it (ApplyRequest `id`, `drain`). Stage and apply follow the
 * spec's common rule: `operator` (`/system` is not a super-user prefix).
 * Both are local to this appliance and audited in the log ring.
 */
import { z } from "zod";
import { route } from "../http/route.ts";
import { StatusError } from "../http/problem.ts";
import { DateTime } from "../schemas/common.ts";
import { unwrap } from "../http/refusal.ts";
import { actorName } from "../schemas/principal.ts";
import { MAX_PACKAGE_BYTES, fromBase64 } from "../upgrade/package.ts";
import { DRAIN_SECONDS, INSTALL_SECONDS, REBOOT_SECONDS } from "../../simulator/vocabulary.ts";
import { StagedPackage, UpgradeStatus } from "../schemas/upgrade.ts";

const MAX_BASE64 = Math.ceil(MAX_PACKAGE_BYTES / 3) * 4;

const StageRequest = z
  .object({
    package: z.base64().meta({ description: `the package file in standard base64 (at most ${MAX_PACKAGE_BYTES} bytes decoded)` }),
  })
  .meta({ id: "UpgradeStageRequest", description: "the JSON form of the upload; the same bytes may be sent as application/octet-stream instead" });

export const StageResult = StagedPackage.extend({
  replaced: z.string().nullable().meta({ description: "the id of the package this one replaced in the standby slot; null when none was staged" }),
}).meta({ id: "UpgradeStageResult" });

const ApplyRequest = z
  .object({
    id: z.string().min(1).max(64).meta({ description: "the staged package's id" }),
    drain: z.boolean().meta({ description: `true: drain subscribers gracefully over ${DRAIN_SECONDS} s before the reboot; false: reboot as soon as the image is installed, dropping every session` }),
  })
  .meta({ id: "ApplyRequest" });

const ApplyResult = z
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

const FORMAT = `A package (\`.bngpkg\`) is the 8 bytes \`BNGPKG1\\n\`, then a manifest, one line of JSON ended by a newline: \`{"name":"bngfleet","version":"0.2.0","sha256":"<hex>","signature":"<base64>"}\` \
(\`notes\` optional), then the payload: every remaining byte, at least one. \`sha256\` is the payload's SHA-256 in lower-case hex. \
\`signature\` is the vendor's Ed25519 signature (standard base64) over the UTF-8 JSON array \`["bngfleet-package-v1",name,version,sha256,notes or null]\`, \
verified with the appliance's upgrade public key; an unsigned package, or one whose signature does not verify, is 422 at \`#/manifest/signature\`. At most ${MAX_PACKAGE_BYTES} bytes in all. \
\`npm run -s upgrade-package -- 0.2.0 > bngfleet-0.2.0.bngpkg\` builds and signs one with the local fleet's development key.`;

export const upgradeRoutes = [
  route({
    method: "GET",
    path: "/api/v1/system/upgrade",
    section: "SystemUpgrade",
    summary: "Upgrade status: running version, staged package, apply under way, results",
    description:
      `An apply runs on the simulated clock: \`applying\` (the image installs, ${INSTALL_SECONDS} s), \`draining\` (with \`drain: true\`: no new sessions, the live ones ended evenly over ${DRAIN_SECONDS} s with cause \`admin-reboot\`), ` +
      `\`rebooting\` (${REBOOT_SECONDS} s: the data plane is down, sessions still up are dropped), then the new version runs and subscribers reconnect; the state returns to \`idle\` and the result heads \`history\`. ` +
      "A restart of the appliance before the reboot fails the apply (`failed`, the old version keeps running, the package stays staged); after it, the apply completes. " +
      "Every step is in the log ring: `upgrade.started`, `upgrade.draining`, `upgrade.drain`, `upgrade.rebooting`, `upgrade.complete`, `upgrade.failed`.",
    response: { description: "UpgradeStatus", schema: UpgradeStatus },
    handle: async (ctx): Promise<z.infer<typeof UpgradeStatus>> => ctx.appliance.stub.upgrade().status(),
  }),
  route({
    method: "POST",
    path: "/api/v1/system/upgrade/stage",
    section: "SystemUpgrade",
    summary: "Stage a software package (apply is a separate action)",
    description:
      `${FORMAT} Send it as \`application/octet-stream\` (\`curl --data-binary @pkg -H 'content-type: application/octet-stream'\`) or as JSON \`{"package": "<base64>"}\`. ` +
      "Staging checks the package and keeps it in the appliance's standby slot, replacing a package staged before; nothing runs until POST /system/upgrade/apply. " +
      "413 above the size limit; 422 for a package that fails a check (`errors[0].pointer` says where: `#/magic`, `#/manifest/<field>`, `#/payload`); 409 while an apply is under way. " +
      "`operator`, the spec's common rule for mutations outside /auth, /config, /vrfs, /routing/config and /cgn. Audited (`audit.upgrade.stage`, refusals `audit.upgrade.rejected`).",
    body: StageRequest,
    octetStream: { maxBytes: MAX_PACKAGE_BYTES, description: "the package file, verbatim" },
    response: { description: "the staged package", schema: StageResult },
    errors: [409, 413, 422],
    handle: async (ctx): Promise<z.infer<typeof StageResult>> => {
      if (!ctx.bytes && ctx.body.package.length > MAX_BASE64) throw new StatusError(413, `packages are at most ${MAX_PACKAGE_BYTES} bytes`);
      const bytes = ctx.bytes ?? fromBase64(ctx.body.package);
      if (bytes.length > MAX_PACKAGE_BYTES) throw new StatusError(413, `packages are at most ${MAX_PACKAGE_BYTES} bytes`);
      const result = unwrap(await ctx.appliance.stub.upgrade().stage(bytes, actorName(ctx.principal!)));
      return { ...result.staged, replaced: result.replaced };
    },
  }),
  route({
    method: "POST",
    path: "/api/v1/system/upgrade/apply",
    section: "SystemUpgrade",
    summary: "Apply the staged package: install, optionally drain, reboot into it",
    description:
      "Accepted at once (200 with the plan's instants); the apply then runs on the simulated clock (see GET /system/upgrade). 404 when `id` is not the staged package; " +
      "409 when nothing is staged or an apply is already under way. The staged version may equal the running one (a reinstall). `operator`, as staging; audited (`audit.upgrade.apply`).",
    body: ApplyRequest,
    response: { description: "the accepted apply", schema: ApplyResult },
    errors: [404, 409],
    handle: async (ctx): Promise<z.infer<typeof ApplyResult>> => unwrap(await ctx.appliance.stub.upgrade().apply(ctx.body.id, ctx.body.drain, actorName(ctx.principal!))).result,
  }),
];
