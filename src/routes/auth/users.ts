/** Account management over `login.users`, the identity model shared with the appliance CLI. */
import { route } from "../../http/route.ts";
import { StatusResult, pageQuery, slicePage } from "../../schemas/common.ts";
import { unwrap } from "../../schemas/outcome.ts";
import { actorName } from "../../schemas/principal.ts";
import { PasswordSet, UserCreate, UserPage, UserRecord, UserUpdate, UsernameParams } from "./schemas.ts";

const base = "/api/v1/auth/users";

export const userRoutes = [
  route({
    method: "GET",
    path: base,
    section: "Authentication",
    summary: "List accounts",
    floor: "super-user",
    query: pageQuery(100, 1000),
    response: { description: "a page of accounts, by name", schema: UserPage },
    handle: async (ctx) => slicePage(await ctx.appliance.stub.identity().listUsers(), ctx.query.offset, ctx.query.limit),
  }),
  route({
    method: "POST",
    path: base,
    section: "Authentication",
    summary: "Create an account; it must enrol TOTP at its first login",
    body: UserCreate,
    response: { description: "StatusResult `created`", schema: StatusResult },
    errors: [409],
    handle: async (ctx) => {
      unwrap(await ctx.appliance.stub.identity().createUser(ctx.body.username, ctx.body.role, ctx.body.password, actorName(ctx.principal!)));
      return { status: "created", username: ctx.body.username };
    },
  }),
  route({
    method: "GET",
    path: `${base}/{username}`,
    section: "Authentication",
    summary: "One account, with its lockouts",
    floor: "super-user",
    params: UsernameParams,
    response: { description: "UserRecord", schema: UserRecord },
    errors: [404],
    handle: async (ctx) => unwrap(await ctx.appliance.stub.identity().getUser(ctx.params.username)).user,
  }),
  route({
    method: "PATCH",
    path: `${base}/{username}`,
    section: "Authentication",
    summary: "Change an account's role",
    description: "Takes effect on the account's open sessions at once. The last super-user cannot be demoted (409).",
    params: UsernameParams,
    body: UserUpdate,
    response: { description: "StatusResult `updated`", schema: StatusResult },
    errors: [404, 409],
    handle: async (ctx) => {
      unwrap(await ctx.appliance.stub.identity().updateRole(ctx.params.username, ctx.body.role, actorName(ctx.principal!)));
      return { status: "updated", username: ctx.params.username };
    },
  }),
  route({
    method: "DELETE",
    path: `${base}/{username}`,
    section: "Authentication",
    summary: "Delete an account and end its sessions",
    description: "Tokens the account created stay valid: they are named credentials of their own. The last super-user cannot be deleted (409).",
    params: UsernameParams,
    response: { description: "StatusResult `deleted`", schema: StatusResult },
    errors: [404, 409],
    handle: async (ctx) => {
      unwrap(await ctx.appliance.stub.identity().deleteUser(ctx.params.username, actorName(ctx.principal!)));
      return { status: "deleted", username: ctx.params.username };
    },
  }),
  route({
    method: "PUT",
    path: `${base}/{username}/password`,
    section: "Authentication",
    summary: "Set an account's password (administrative reset); its sessions end",
    params: UsernameParams,
    body: PasswordSet,
    response: { description: "StatusResult `updated`", schema: StatusResult },
    errors: [404],
    handle: async (ctx) => {
      unwrap(await ctx.appliance.stub.identity().setPassword(ctx.params.username, ctx.body.password, actorName(ctx.principal!)));
      return { status: "updated", username: ctx.params.username };
    },
  }),
  route({
    method: "POST",
    path: `${base}/{username}/totp/reset`,
    section: "Authentication",
    summary: "Forget an account's authenticator: it enrols again at its next login",
    params: UsernameParams,
    response: { description: "StatusResult `updated`", schema: StatusResult },
    errors: [404],
    handle: async (ctx) => {
      unwrap(await ctx.appliance.stub.identity().resetTotp(ctx.params.username, actorName(ctx.principal!)));
      return { status: "updated", username: ctx.params.username };
    },
  }),
  route({
    method: "POST",
    path: `${base}/{username}/unlock`,
    section: "Authentication",
    summary: "Lift an account's lockouts from every source IP",
    params: UsernameParams,
    response: { description: "StatusResult `updated`", schema: StatusResult },
    errors: [404],
    handle: async (ctx) => {
      unwrap(await ctx.appliance.stub.identity().unlock(ctx.params.username, actorName(ctx.principal!)));
      return { status: "updated", username: ctx.params.username };
    },
  }),
];
