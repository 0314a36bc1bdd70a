/**
 * Source VRF rules: traffic arriving in one VRF from given source subnets is
 * routed into another VRF, without NAT. The rules are the `sourceVrfRules`
 * keyed list of the configuration; writes go through its pipeline and
 * hot-apply.
 */
import type { ConfigItem } from "../config/types.ts";
import { implement } from "../http/route.ts";
import { sourceVrfRuleList, sourceVrfRules } from "../schemas/source-vrf-rules.ts";
import { ConfigList } from "./keyed-list.ts";

const rules = new ConfigList(sourceVrfRuleList);
const operation = "source-vrf-rule";

const rule = (item: ConfigItem) => ({ name: item.key, ...rules.rowValues(item) });

export const sourceVrfRuleRoutes = [
  implement(sourceVrfRules.list, async (ctx) => (await rules.items(ctx)).map(rule)),
  implement(sourceVrfRules.create, rules.put("create", operation, (ctx) => String(ctx.body.name))),
  implement(sourceVrfRules.get, async (ctx) => rule(await rules.item(ctx, ctx.params.name))),
  implement(sourceVrfRules.replace, rules.put("replace", operation, (ctx) => ctx.params.name!)),
  implement(sourceVrfRules.remove, rules.remove(operation, "name")),
];
