/** VRFs: the `vrfs` keyed list of the configuration, beside the sessions each VRF holds. */
import { vrfList } from "../../src/schemas/vrfs.ts";
import type { ApplianceCore } from "../core.ts";
import type { PortsOf } from "./port-table.ts";
import { keyedList } from "./keyed-list.ts";

export function vrfPorts(core: Pick<ApplianceCore, "config" | "dataPlane">) {
  const items = keyedList(core, vrfList.path, "vrf");
  return {
    // The sessions each VRF holds, read at the same instant as the list.
    list: () => ({ ...items.items(), byVrf: core.dataPlane().model.sessions.summary().byVrf }),
    create: items.put("create"),
    replace: items.put("replace"),
    remove: items.remove,
  } satisfies PortsOf<"vrfs">;
}
