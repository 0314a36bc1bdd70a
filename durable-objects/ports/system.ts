/** System: health, status, the hardware inventory and the interface table, each read at one instant. */
import { system } from "../../src/schemas/system.ts";
import type { ApplianceCore } from "../core.ts";
import type { PortsOf } from "./port-table.ts";
import { serves } from "./serves.ts";

export function systemPorts(core: Pick<ApplianceCore, "health" | "systemStatus" | "dataPlane" | "interfaceTable">) {
  return {
    health: () => core.health(),
    status: serves(system.status, () => core.systemStatus()),
    inventory: serves(system.inventory, () => core.dataPlane().inventory()),
    interfaces: () => core.interfaceTable(),
  } satisfies PortsOf<"system">;
}
