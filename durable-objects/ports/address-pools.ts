/** Address pools: their utilisation, and one pool's allocations page by page. */
import { addressPools } from "../../src/schemas/address-pools.ts";
import type { ApplianceCore } from "../core.ts";
import type { PortsOf } from "./port-table.ts";
import { answerIn, serves } from "./serves.ts";

export function addressPoolPorts(core: Pick<ApplianceCore, "dataPlane">) {
  const dataPlane = () => core.dataPlane();
  return {
    list: serves(addressPools.list, () => dataPlane().model.pools.list()),
    allocations: serves(addressPools.allocations, (_, { params, query }) =>
      answerIn(dataPlane().poolAllocations(params.name, query.offset, query.limit), "page"),
    ),
  } satisfies PortsOf<"addressPools">;
}
