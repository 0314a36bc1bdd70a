/**
 * Account management over `login.users`, the identity model shared with the
 * appliance CLI. The accounts are configuration: every write here is a commit
 * of that list through the configuration pipeline (validated, in the history,
 * undone by a rollback), and the identity store follows it. Reads come from
 * the identity store, which adds each account's login state.
 */
import { implement } from "../../http/route.ts";
import { slicePage } from "../../schemas/common.ts";
import { commitMeta } from "../../schemas/commit.ts";
import { unwrap } from "../../http/refusal.ts";
import { committed, tagConfigRead } from "../../http/config-version.ts";
import { actorName } from "../../schemas/principal.ts";
import { users } from "../../schemas/auth/users.ts";

const LIST = "login.users";

export const userRoutes = [
  implement(users.list, async (ctx) => {
    tagConfigRead(ctx);
    return slicePage(await ctx.appliance.stub.identity().listUsers(), ctx.query.offset, ctx.query.limit);
  }),
  implement(users.create, async (ctx) => {
    const fields = { role: ctx.body.role, password: ctx.body.password };
    committed(ctx, await ctx.appliance.stub.config().putItem(LIST, ctx.body.username, fields, "create", commitMeta(ctx, "user")));
    return { status: "created" as const, username: ctx.body.username };
  }),
  implement(users.get, async (ctx) => {
    tagConfigRead(ctx);
    return unwrap(await ctx.appliance.stub.identity().getUser(ctx.params.username)).user;
  }),
  implement(users.update, async (ctx) => {
    committed(ctx, await ctx.appliance.stub.config().putItem(LIST, ctx.params.username, { role: ctx.body.role }, "update", commitMeta(ctx, "user")));
    if (ctx.body.revokeTokens) await ctx.appliance.stub.identity().revokeTokensOf(ctx.params.username, ctx.body.role, actorName(ctx.principal!));
    return { status: "updated" as const, username: ctx.params.username };
  }),
  implement(users.remove, async (ctx) => {
    // The identity store revokes the account's tokens as the commit removes it (syncAccounts), flag or not.
    committed(ctx, await ctx.appliance.stub.config().deleteItem(LIST, ctx.params.username, commitMeta(ctx, "user")));
    return { status: "deleted" as const, username: ctx.params.username };
  }),
  implement(users.setPassword, async (ctx) => {
    committed(ctx, await ctx.appliance.stub.config().putItem(LIST, ctx.params.username, { password: ctx.body.password }, "update", commitMeta(ctx, "user")));
    return { status: "updated" as const, username: ctx.params.username };
  }),
  implement(users.resetTotp, async (ctx) => {
    unwrap(await ctx.appliance.stub.identity().resetTotp(ctx.params.username, actorName(ctx.principal!)));
    return { status: "updated" as const, username: ctx.params.username };
  }),
  implement(users.unlock, async (ctx) => {
    unwrap(await ctx.appliance.stub.identity().unlock(ctx.params.username, actorName(ctx.principal!)));
    return { status: "updated" as const, username: ctx.params.username };
  }),
];
