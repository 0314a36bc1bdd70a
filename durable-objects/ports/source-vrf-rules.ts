/** Source VRF rules: the `sourceVrfRules` keyed list of the configuration. */
import { sourceVrfRuleList } from "../../src/schemas/source-vrf-rules.ts";
import type { ApplianceCore } from "../core.ts";
import type { PortsOf } from "./port-table.ts";
import { keyedList } from "./keyed-list.ts";

export function sourceVrfRulePorts(core: Pick<ApplianceCore, "config">) {
  const rules = keyedList(core, sourceVrfRuleList.path, "source-vrf-rule");
  return {
    list: rules.items,
    get: rules.item,
    create: rules.put("create"),
    replace: rules.put("replace"),
    remove: rules.remove,
  } satisfies PortsOf<"sourceVrfRules">;
}
