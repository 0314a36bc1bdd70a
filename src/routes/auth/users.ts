/**
 * Account management over `login.users`, the identity model shared with the
 * appliance CLI. The accounts are configuration: every write here is a commit
 * of that list through the configuration pipeline (validated, in the history,
 * undone by a rollback), and the identity store follows it. Reads come from
 * the identity store, which adds each account's login state.
 */
import { route } from "../../http/route.ts";
import { StatusResult, pageQuery, slicePage } from "../../schemas/common.ts";
import { commitMeta } from "../../schemas/commit.ts";
import { unwrap } from "../../http/refusal.ts";
import { committed, tagConfigRead } from "../../http/config-version.ts";
import { actorName } from "../../schemas/principal.ts";
import { PasswordSet, UserCreate, UserDeleteQuery, UserPage, UserRecord, UserUpdate, UsernameParams } from "../../schemas/auth.ts";

const base = "/api/v1/auth/users";
const LIST = "login.users";
const LAST_SUPER_USER = "The last super-user cannot be demoted or deleted: the configuration validation refuses it (422, pointing at the account).";

export const userRoutes = [
  route({
    method: "GET",
    path: base,
    section: "Authentication",
    summary: "List accounts",
    floor: "super-user",
    query: pageQuery(100, 1000),
    response: { description: "a page of accounts, by name", schema: UserPage },
    handle: async (ctx) => {
      tagConfigRead(ctx);
      return slicePage(await ctx.appliance.stub.identity().listUsers(), ctx.query.offset, ctx.query.limit);
    },
  }),
  route({
    method: "POST",
    path: base,
    section: "Authentication",
    summary: "Create an account; it must enrol TOTP at its first login",
    description: "Commits a `login.users` item; the password is hashed before it is stored. 409 when the account exists.",
    body: UserCreate,
    response: { description: "StatusResult `created`", schema: StatusResult },
    errors: [409, 412],
    handle: async (ctx) => {
      const fields = { role: ctx.body.role, password: ctx.body.password };
      committed(ctx, await ctx.appliance.stub.config().putItem(LIST, ctx.body.username, fields, "create", commitMeta(ctx, "user")));
      return { status: "created" as const, username: ctx.body.username };
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
    handle: async (ctx) => {
      tagConfigRead(ctx);
      return unwrap(await ctx.appliance.stub.identity().getUser(ctx.params.username)).user;
    },
  }),
  route({
    method: "PATCH",
    path: `${base}/{username}`,
    section: "Authentication",
    summary: "Change an account's role",
    description:
      `Commits the account's \`role\` in \`login.users\`; it takes effect on the account's open sessions at once. ${LAST_SUPER_USER} ` +
      "API tokens the account created keep their own role unless `revokeTokens` is true: then those whose role outranks the new one are revoked too " +
      "(each logged as `auth.token.revoked`; `createdBy` in the token list names every token's creator).",
    params: UsernameParams,
    body: UserUpdate,
    response: { description: "StatusResult `updated`", schema: StatusResult },
    errors: [404, 412, 422],
    handle: async (ctx) => {
      committed(ctx, await ctx.appliance.stub.config().putItem(LIST, ctx.params.username, { role: ctx.body.role }, "update", commitMeta(ctx, "user")));
      if (ctx.body.revokeTokens) await ctx.appliance.stub.identity().revokeTokensOf(ctx.params.username, ctx.body.role, actorName(ctx.principal!));
      return { status: "updated" as const, username: ctx.params.username };
    },
  }),
  route({
    method: "DELETE",
    path: `${base}/{username}`,
    section: "Authentication",
    summary: "Delete an account, end its sessions and revoke its tokens",
    description:
      `Deletes the account's \`login.users\` item. Its sessions end, its open log streams close, and every API token it created is revoked (each logged as \`auth.token.revoked\`; ` +
      `\`createdBy\` in the token list names each one's creator), whatever \`revokeTokens\` says: a credential does not outlive its owner (ASVS 7.4.2). ` +
      `The same holds however the account goes (a configuration change set or rollback). ${LAST_SUPER_USER}`,
    params: UsernameParams,
    query: UserDeleteQuery,
    response: { description: "StatusResult `deleted`", schema: StatusResult },
    errors: [404, 412, 422],
    handle: async (ctx) => {
      // The identity store revokes the account's tokens as the commit removes it (syncAccounts), flag or not.
      committed(ctx, await ctx.appliance.stub.config().deleteItem(LIST, ctx.params.username, commitMeta(ctx, "user")));
      return { status: "deleted" as const, username: ctx.params.username };
    },
  }),
  route({
    method: "PUT",
    path: `${base}/{username}/password`,
    section: "Authentication",
    summary: "Set an account's password (administrative reset); its sessions end",
    description: "Commits the account's `password` in `login.users`, hashed before it is stored.",
    params: UsernameParams,
    body: PasswordSet,
    response: { description: "StatusResult `updated`", schema: StatusResult },
    errors: [404, 412],
    handle: async (ctx) => {
      committed(ctx, await ctx.appliance.stub.config().putItem(LIST, ctx.params.username, { password: ctx.body.password }, "update", commitMeta(ctx, "user")));
      return { status: "updated" as const, username: ctx.params.username };
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
      return { status: "updated" as const, username: ctx.params.username };
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
      return { status: "updated" as const, username: ctx.params.username };
    },
  }),
];
