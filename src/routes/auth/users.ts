/**
 * Account management over `login.users`, the identity model shared with the
 * appliance CLI. The accounts are configuration: every write here is a commit
 * of that list through the configuration pipeline (validated, in the history,
 * undone by a rollback), and the identity store follows it. Reads come from
 * the identity store, which adds each account's login state.
 */
import { inWorker } from "../../http/route.ts";
import { slicePage } from "../../schemas/common.ts";
import { unwrap } from "../../http/refusal.ts";
import { committed, readAt } from "../../http/config-version.ts";
import { users } from "../../schemas/auth/users.ts";

export const userRoutes = [
  inWorker(users.list, async (ctx) =>
    slicePage(readAt(ctx, await ctx.port.users.list()).users, ctx.query.offset, ctx.query.limit),
  ),
  inWorker(users.create, async (ctx) => {
    committed(
      ctx,
      await ctx.port.users.create(ctx.body.username, { role: ctx.body.role, password: ctx.body.password }),
    );
    return { status: "created" as const, username: ctx.body.username };
  }),
  inWorker(users.get, async (ctx) => readAt(ctx, unwrap(await ctx.port.users.get(ctx.params.username))).user),
  inWorker(users.update, async (ctx) => {
    committed(ctx, await ctx.port.users.update(ctx.params.username, ctx.body.role, ctx.body.revokeTokens === true));
    return { status: "updated" as const, username: ctx.params.username };
  }),
  inWorker(users.remove, async (ctx) => {
    committed(ctx, await ctx.port.users.remove(ctx.params.username));
    return { status: "deleted" as const, username: ctx.params.username };
  }),
  inWorker(users.setPassword, async (ctx) => {
    committed(ctx, await ctx.port.users.setPassword(ctx.params.username, ctx.body.password));
    return { status: "updated" as const, username: ctx.params.username };
  }),
  inWorker(users.resetTotp, async (ctx) => {
    unwrap(await ctx.port.users.resetTotp(ctx.params.username));
    return { status: "updated" as const, username: ctx.params.username };
  }),
  inWorker(users.unlock, async (ctx) => {
    unwrap(await ctx.port.users.unlock(ctx.params.username));
    return { status: "updated" as const, username: ctx.params.username };
  }),
];
