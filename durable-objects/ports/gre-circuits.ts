/** GRE circuits: the circuits and listeners as configured (keyed lists), and the circuits' live state. */
import { greCircuitList, greCircuits, greListenerList } from "../../src/schemas/gre-circuits.ts";
import type { ApplianceCore } from "../core.ts";
import type { PortsOf } from "./port-table.ts";
import { keyedList } from "./keyed-list.ts";
import { serves } from "./serves.ts";

export function greCircuitPorts(core: Pick<ApplianceCore, "config" | "gre">) {
  const circuits = keyedList(core, greCircuitList.path, "gre-circuit");
  const listeners = keyedList(core, greListenerList.path, "gre-listener");
  return {
    list: circuits.items,
    listeners: () => ({ listeners: listeners.items().items, ...circuits.items() }),
    status: serves(greCircuits.status, (_, { query }) => core.gre().status(query.vrf)),
    putListener: listeners.put("upsert"),
    removeListener: listeners.remove,
    create: circuits.put("create"),
    replace: circuits.put("replace"),
    remove: circuits.remove,
  } satisfies PortsOf<"greCircuits">;
}
