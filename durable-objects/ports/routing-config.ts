/** Routing configuration: BGP, static routes and the IGP as configured, replaced as a section or a list at a time. */
import { commitMeta } from "../../src/schemas/commit.ts";
import type { Caller } from "../../src/schemas/operation.ts";
import type { EditValue } from "../../src/config/edit.ts";
import { IGP_INTERFACES_LIST, NEIGHBORS_LIST, STATIC_ROUTES_LIST } from "../../src/config/routing.ts";
import type { ApplianceCore } from "../core.ts";
import type { PortsOf } from "./port-table.ts";
import { keyedList } from "./keyed-list.ts";

/** A keyed list's items as a whole-list replacement carries them. */
type ListItems = { key: string; fields: Record<string, EditValue> }[];

export function routingConfigPorts(core: Pick<ApplianceCore, "config">) {
  const config = () => core.config();
  const neighbors = keyedList(core, NEIGHBORS_LIST, "bgp-neighbor");
  return {
    // The routing section as configured, read at one instant (the effective router id is derived from it in the
    // Worker).
    get: () => ({
      neighbors: config().items(NEIGHBORS_LIST),
      staticRoutes: config().items(STATIC_ROUTES_LIST),
      interfaces: config().items(IGP_INTERFACES_LIST),
      localAs: config().field("bgp.localAs"),
      routerId: config().field("routing.routerId"),
      protocol: config().field("igp.protocol"),
      version: config().activeVersion().version,
    }),
    update: (
      caller: Caller,
      fields: Record<string, EditValue>,
      lists: Record<string, ListItems>,
      comment: string | null | undefined,
    ) => config().replaceSection(fields, lists, commitMeta(caller, "routing", comment)),
    createNeighbor: neighbors.put("create"),
    replaceNeighbor: neighbors.put("replace"),
    removeNeighbor: neighbors.remove,
    replaceStaticRoutes: (caller: Caller, routes: ListItems, comment: string | null | undefined) =>
      config().replaceSection({}, { [STATIC_ROUTES_LIST]: routes }, commitMeta(caller, "static-routes", comment)),
  } satisfies PortsOf<"routingConfig">;
}
