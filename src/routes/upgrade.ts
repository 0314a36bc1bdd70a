/**
 * SystemUpgrade (spec "System upgrade and diagnostics"): status, staging a
 * package ("stages package bytes only; apply is a separate action") and
 * applying it (ApplyRequest `id`, `drain`). Stage and apply follow the
 * spec's common rule: `operator` (`/system` is not a super-user prefix).
 * Both are local to this appliance and audited in the log ring.
 */
import { inWorker } from "../http/route.ts";
import { StatusError } from "../http/problem.ts";
import { unwrap } from "../http/refusal.ts";
import { fromBase64 } from "../upgrade/package.ts";
import { MAX_PACKAGE_BYTES, upgrade, type StageResult } from "../schemas/upgrade.ts";

const MAX_BASE64 = Math.ceil(MAX_PACKAGE_BYTES / 3) * 4;

export const upgradeRoutes = [
  inWorker(upgrade.stage, async (ctx): Promise<StageResult> => {
    // Sizes are judged here, so an oversized package never crosses into the object.
    if (!ctx.bytes && ctx.body.package.length > MAX_BASE64)
      throw new StatusError(413, `packages are at most ${MAX_PACKAGE_BYTES} bytes`);
    const bytes = ctx.bytes ?? fromBase64(ctx.body.package);
    if (bytes.length > MAX_PACKAGE_BYTES) throw new StatusError(413, `packages are at most ${MAX_PACKAGE_BYTES} bytes`);
    const result = unwrap(await ctx.port.upgrade.stage(bytes));
    return { ...result.staged, replaced: result.replaced };
  }),
];
