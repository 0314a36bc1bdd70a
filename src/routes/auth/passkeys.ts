/**
 * Passkeys: an account registers its own (while logged in, in the browser
 * that holds the authenticator) and may then answer a login's
 * `totpCodeRequired` with one, where the passkey policy says a passkey
 * replaces the code. Registration is the account's own act, so these writes
 * are open to every role (a documented exception to the `/auth` super-user
 * rule); a super-user also sees, renames and removes anyone's.
 */
import { StatusError } from "../../http/problem.ts";
import { implement, type RouteContext } from "../../http/route.ts";
import { unwrap } from "../../http/refusal.ts";
import { actorName } from "../../schemas/principal.ts";
import { isExternalIdentity } from "../../auth/accounts.ts";
import { passkeys } from "../../schemas/auth/passkeys.ts";

/** The logged-in account (the routes take sessions only: a passkey belongs to a person). */
function account(ctx: RouteContext<unknown, unknown, unknown>): string {
  const username = ctx.principal!.username!;
  if (isExternalIdentity(username)) throw new StatusError(403, "an identity signed in through OIDC uses its provider's second factor");
  return username;
}

const actor = (ctx: RouteContext<unknown, unknown, unknown>) => ({ username: ctx.principal!.username, superUser: ctx.principal!.role === "super-user", name: actorName(ctx.principal!) });

export const passkeyRoutes = [
  implement(passkeys.registrationOptions, async (ctx) => {
    // The account first: a pipelined stub left behind by a refusal would dangle.
    const username = account(ctx);
    unwrap(await ctx.appliance.stub.identity().reauthenticate(username, ctx.body, ctx.appliance.clientIp));
    const { options } = unwrap(await ctx.appliance.stub.passkeys().registrationOptions(username));
    // Spread into plain objects: SimpleWebAuthn's interfaces have no index signature, which the loose schema's type asks for.
    return { ...options, rp: { ...options.rp } };
  }),
  implement(passkeys.register, async (ctx) => {
    const username = account(ctx);
    return unwrap(await ctx.appliance.stub.passkeys().register(username, ctx.body.name, ctx.body.response)).passkey;
  }),
  implement(passkeys.list, (ctx) => ctx.appliance.stub.passkeys().list(ctx.principal!.role === "super-user" ? null : (ctx.principal!.username ?? ""))),
  implement(passkeys.rename, async (ctx) => unwrap(await ctx.appliance.stub.passkeys().rename(ctx.params.id, ctx.body.name, actor(ctx))).passkey),
  implement(passkeys.remove, async (ctx) => {
    const { username } = unwrap(await ctx.appliance.stub.passkeys().remove(ctx.params.id, actor(ctx)));
    return { status: "deleted" as const, username };
  }),
];
