/** Named API tokens: created by a super-user, plaintext shown once, stored as SHA-256, revocable. */
import { inWorker } from "../../http/route.ts";
import { slicePage } from "../../schemas/common.ts";
import { unwrap } from "../../http/refusal.ts";
import { tokens } from "../../schemas/auth/tokens.ts";

export const tokenRoutes = [
  inWorker(tokens.create, async (ctx) => {
    const created = unwrap(await ctx.port.tokens.create(ctx.body.name, ctx.body.role, ctx.body.expiresUtc ?? null));
    ctx.responseHeaders.set("cache-control", "no-store");
    return created.token;
  }),
  inWorker(tokens.list, async (ctx) => slicePage(await ctx.port.tokens.list(), ctx.query.offset, ctx.query.limit)),
  inWorker(tokens.revoke, async (ctx) => {
    unwrap(await ctx.port.tokens.revoke(ctx.params.id));
    return { status: "deleted" as const };
  }),
];
