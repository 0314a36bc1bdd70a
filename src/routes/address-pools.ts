/** Address pools: per-pool and per-subnet utilisation, and the blocks each pool holds. */
import { inWorker } from "../http/route.ts";
import { addressPools } from "../schemas/address-pools.ts";
import { unwrap } from "../http/refusal.ts";

export const addressPoolRoutes = [
  inWorker(addressPools.list, (ctx) => ctx.port.addressPools.list()),
  inWorker(
    addressPools.allocations,
    async (ctx) =>
      unwrap(await ctx.port.addressPools.allocations(ctx.params.name, ctx.query.offset, ctx.query.limit)).page,
  ),
];
