/**
 * Source VRF rules: traffic arriving in one VRF from given source subnets is
 * routed into another VRF, without NAT. The rules are the `sourceVrfRules`
 * keyed list of the configuration; writes go through its pipeline and
 * hot-apply.
 */
import type { ConfigItem } from "../config/types.ts";
import { readAt } from "../http/config-version.ts";
import { unwrap } from "../http/refusal.ts";
import { inWorker } from "../http/route.ts";
import { sourceVrfRuleList, sourceVrfRules } from "../schemas/source-vrf-rules.ts";
import { ConfigList } from "./keyed-list.ts";

const rules = new ConfigList(sourceVrfRuleList);

const rule = (item: ConfigItem) => ({ name: item.key, ...rules.rowValues(item) });

export const sourceVrfRuleRoutes = [
  inWorker(sourceVrfRules.list, async (ctx) => readAt(ctx, await ctx.port.sourceVrfRules.list()).items.map(rule)),
  inWorker(
    sourceVrfRules.create,
    rules.write(
      "create",
      (ctx) => String(ctx.body.name),
      (ctx) => ctx.port.sourceVrfRules.create,
    ),
  ),
  inWorker(sourceVrfRules.get, async (ctx) =>
    rule(readAt(ctx, unwrap(await ctx.port.sourceVrfRules.get(ctx.params.name))).item),
  ),
  inWorker(
    sourceVrfRules.replace,
    rules.write(
      "replace",
      (ctx) => ctx.params.name!,
      (ctx) => ctx.port.sourceVrfRules.replace,
    ),
  ),
  inWorker(
    sourceVrfRules.remove,
    rules.erase("name", (ctx) => ctx.port.sourceVrfRules.remove),
  ),
];
