/** Address pools: their utilisation, and one pool's allocations page by page. */
import { addressPools } from "../../src/schemas/address-pools.ts";
import type { ApplianceCore } from "../core.ts";
import type { PortsOf } from "./port-table.ts";
import { refusalFor } from "./reasons.ts";
import { serves } from "./serves.ts";

export function addressPoolPorts(core: Pick<ApplianceCore, "dataPlane">) {
  const dataPlane = () => core.dataPlane();
  return {
    list: serves(addressPools.list, () => dataPlane().model.pools.list()),
    allocations: serves(addressPools.allocations, (_, { params, query }) => {
      const found = dataPlane().model.pools.allocations(params.name, { offset: query.offset, limit: query.limit });
      return found.ok ? found.page : refusalFor(found, { pool: params.name });
    }),
  } satisfies PortsOf<"addressPools">;
}
