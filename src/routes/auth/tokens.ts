/** Named API tokens: created by a super-user, plaintext shown once, stored as SHA-256, revocable. */
import { implement } from "../../http/route.ts";
import { slicePage } from "../../schemas/common.ts";
import { unwrap } from "../../http/refusal.ts";
import { actorName } from "../../schemas/principal.ts";
import { tokens } from "../../schemas/auth/tokens.ts";

export const tokenRoutes = [
  implement(tokens.create, async (ctx) => {
    const created = unwrap(await ctx.appliance.stub.identity().createToken(ctx.body.name, ctx.body.role, ctx.body.expiresUtc ?? null, actorName(ctx.principal!)));
    ctx.responseHeaders.set("cache-control", "no-store");
    return created.token;
  }),
  implement(tokens.list, async (ctx) => slicePage(await ctx.appliance.stub.identity().listTokens(), ctx.query.offset, ctx.query.limit)),
  implement(tokens.get, async (ctx) => unwrap(await ctx.appliance.stub.identity().getToken(ctx.params.id)).token),
  implement(tokens.revoke, async (ctx) => {
    unwrap(await ctx.appliance.stub.identity().revokeToken(ctx.params.id, actorName(ctx.principal!)));
    return { status: "deleted" as const };
  }),
];
