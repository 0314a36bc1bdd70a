/** Address pools: per-pool and per-subnet utilisation, and the blocks each pool holds. */
import { implement } from "../http/route.ts";
import { addressPools } from "../schemas/address-pools.ts";
import { unwrap } from "../http/refusal.ts";

export const addressPoolRoutes = [
  implement(addressPools.list, (ctx) => ctx.appliance.stub.dataPlane().addressPools()),
  implement(addressPools.allocations, async (ctx) => unwrap(await ctx.appliance.stub.dataPlane().poolAllocations(ctx.params.name, ctx.query.offset, ctx.query.limit)).page),
];
